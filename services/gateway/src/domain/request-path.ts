/**
 * The gateway forwards the path it matched byte for byte, so it must refuse every path
 * an upstream could read differently from the way the gateway routed it: dot segments
 * (`/sign/../internal/introspect`), encoded slashes or backslashes (`%2F`, `%5C`),
 * empty segments (`//`), control characters and malformed percent-encoding. Only a
 * single trailing slash is tolerated (it is then part of the last segment's shape).
 */
const PLAIN_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/;
const ENCODED_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/;
const FORBIDDEN_DECODED = /[/\\\u0000-\u001f\u007f]/;

const segmentIsSafe = (segment: string): boolean => {
  if (PLAIN_SEGMENT.test(segment)) return segment !== '.' && segment !== '..';
  if (!ENCODED_SEGMENT.test(segment)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return decoded !== '.' && decoded !== '..' && !FORBIDDEN_DECODED.test(decoded);
};

/**
 * The segments of a safe absolute path (a trailing slash gives a last empty segment),
 * or `undefined` when the path must be refused.
 */
export const pathSegments = (path: string): readonly string[] | undefined => {
  if (path.length < 2 || path.charCodeAt(0) !== 47 /* / */) return undefined;
  const segments = path.slice(1).split('/');
  const last = segments.length - 1;
  for (let i = 0; i <= last; i++) {
    const segment = segments[i]!;
    if (segment === '') {
      if (i !== last || i === 0) return undefined;
    } else if (!segmentIsSafe(segment)) return undefined;
  }
  return segments;
};
