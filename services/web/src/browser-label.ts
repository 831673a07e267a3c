import { parse } from 'bowser';

/** A label longer than this is cut short on the page; the whole string stays in its `title`. */
const RAW_LABEL_MAX = 60;

/**
 * A short, readable name for the browser a session began in, from the `User-Agent` auth
 * kept with it (ADR 3100): "Chrome 131 on Linux", "Safari 17 on iOS". A string bowser
 * names no browser in (curl, a script) is shown as it is, cut to 60 characters; undefined
 * when there is nothing to show.
 */
export const browserLabel = (userAgent: string | null): string | undefined => {
  const raw = userAgent?.trim() ?? '';
  if (raw === '') return undefined;
  const { browser, os } = parse(raw);
  if (!browser.name) return raw.length > RAW_LABEL_MAX ? `${raw.slice(0, RAW_LABEL_MAX - 1)}…` : raw;
  const major = /^\d+/.exec(browser.version ?? '')?.[0];
  const name = major === undefined ? browser.name : `${browser.name} ${major}`;
  return os.name ? `${name} on ${os.name}` : name;
};
