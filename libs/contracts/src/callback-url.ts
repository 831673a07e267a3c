import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { parseAbsoluteUrl, refine } from './primitives.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An app's callback: an absolute https URL (http only for a loopback host), no
 * credentials, no fragment (RFC 6749 §3.1.2), at most 2048 characters. Stored as given:
 * `redirect_uri` must then match it character for character, with no wildcards.
 */
export const checkCallbackUrl = (s: string): E.Either<string, string> => {
  const parsed = parseAbsoluteUrl(s);
  if (E.isLeft(parsed)) return parsed;
  const url = parsed.right;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return E.left('must use https (http only for localhost)');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return E.left('must use https');
  if (url.username !== '' || url.password !== '') return E.left('must not carry credentials');
  if (s.includes('#')) return E.left('must not have a fragment');
  if (s.includes('*')) return E.left('must not contain wildcards');
  return E.right(s);
};

export const CallbackUrl = refine(
  t.string,
  (s): s is string => E.isRight(checkCallbackUrl(s)),
  (s) => {
    const checked = checkCallbackUrl(s);
    return E.isLeft(checked) ? checked.left : '';
  },
  'CallbackUrl',
  {
    format: 'uri',
    maxLength: 2048,
    description: 'An absolute https URL (http only for localhost), without fragment or wildcards.',
  },
);
