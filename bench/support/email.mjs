// The shape of a send's e-mail, for the benches of the notifier's e-mail adapter: a short
// text part and an HTML part of about 1 kB.
const paragraph = '<p>Bench site has sent you a document to sign: Services agreement. Review and sign.</p>';
const html = `<!doctype html><html lang="en"><body>${paragraph.repeat(8)}</body></html>`;
const text =
  'Hello,\n\nBench site has sent you a document to sign:\n  - Services agreement\n\n' +
  'Review and sign: https://esign.localhost/sign?r=1&s=2\n';

/** The i-th e-mail: its own recipient and idempotency key. */
export const benchEmail = (i) => ({
  to: `signer-${i}@example.com`,
  subject: 'Bench site sent you "Services agreement" to sign',
  text,
  html,
  idempotencyKey: `bench-${i}`,
});

/** The From the benches send as. */
export const BENCH_FROM = 'E-signature <no-reply@esign.localhost>';
