// The CPU nodemailer spends building a send's e-mail (headers, MIME tree, encodings), with
// no SMTP server: the From parsed once, as the notifier hands it over (ADR 2880), and the
// From as text, which nodemailer parses again for every message. Alternated round by
// round. docs/benchmarks.md, session 50. Run after a build:
//   node bench/mail-build.bench.mjs [messages=5000] [rounds=8]
import nodemailer from 'nodemailer';
import { mailOptions, mailSender } from '../services/notifier/dist/src/adapters/smtp/mail-options.js';
import { BENCH_FROM, benchEmail } from './support/email.mjs';

const [count = 5000, rounds = 8] = process.argv.slice(2).map(Number);
const concurrency = 5;

const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
const sender = mailSender(BENCH_FROM);
const ways = {
  'the From parsed once': (m) => mailOptions(m, sender),
  'the From as text': (m) => ({ ...mailOptions(m, sender), from: BENCH_FROM }),
};
const run = async (options, n) => {
  let next = 0;
  const worker = async () => {
    while (next < n) await builder.sendMail(options(benchEmail(next++)));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
};

for (const options of Object.values(ways)) await run(options, count); // warm-up: the JIT compiles
const figures = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, options] of Object.entries(ways)) {
    const before = process.cpuUsage();
    await run(options, count);
    const used = process.cpuUsage(before);
    figures[name].push((used.user + used.system) / count);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${count} e-mails a round, ${rounds} rounds alternated; CPU per e-mail built, in µs:`);
for (const [name, xs] of Object.entries(figures)) {
  console.log(`  ${name}: median ${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(', ')})`);
}
