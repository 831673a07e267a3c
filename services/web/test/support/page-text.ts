import assert from 'node:assert/strict';
import request from 'supertest';
import { COOKIE, type appWith } from './fake-api.js';

/** A page's HTML as the signed-in visitor of the fake API gets it, answered with `status`. */
export const showPage = async (
  app: ReturnType<typeof appWith>,
  path: string,
  status = 200,
): Promise<string> => (await request(app.callback).get(path).set('Cookie', COOKIE).expect(status)).text;

/** The page's text with each run of white space as one space, for sentences the source wraps. */
export const flat = (text: string): string => text.replace(/\s+/g, ' ');

/** A list page's status line, `<p role="status">` to its end, flattened. */
export const statusOf = (text: string): string => {
  const start = text.indexOf('<p role="status">');
  assert.ok(start >= 0, 'a status line');
  return flat(text.slice(start, text.indexOf('</p>', start)));
};

/**
 * A file the signed-in visitor saves (a CSV download): the request, its body read whole as
 * UTF-8 text as it comes, byte order mark kept; `.expect(status)` it, or await its failure.
 */
export const savedFile = (app: ReturnType<typeof appWith>, path: string) =>
  request(app.callback)
    .get(path)
    .set('Cookie', COOKIE)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
