// The notifier's e-mail adapter alone: CPU per message of `smtpEmailSender` (nodemailer,
// pooled) handing a send's e-mail to an SMTP server in another process, so that the
// server's CPU is not counted. A quarter of the notifier's CPU per send is here
// (docs/benchmarks.md, session 35). Run after a build:
//   node bench/smtp-sender.bench.mjs [messages=3000] [concurrency=5]
import { spawn } from 'node:child_process';
import { smtpEmailSender } from '../services/notifier/dist/src/adapters/smtp/smtp-email-sender.js';
import { BENCH_FROM, benchEmail } from './support/email.mjs';

const [count = 3000, concurrency = 5] = process.argv.slice(2).map(Number);

const serverScript = `
  import { startSmtpServer } from '@esign/testing';
  const server = await startSmtpServer();
  process.stdout.write(server.url + '\\n');
  setInterval(() => { server.received.length = 0; }, 1000);
`;
const server = spawn(process.execPath, ['--input-type=module', '-e', serverScript], {
  cwd: new URL('..', import.meta.url),
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(d.toString().trim())));

const smtp = smtpEmailSender({ url, from: BENCH_FROM, timeoutMs: 5_000 });
const run = async (n) => {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const result = await smtp.sender.send(benchEmail(next++))();
      if (result._tag !== 'Right') throw new Error(`not sent: ${JSON.stringify(result.left)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
};
try {
  await run(500); // warm-up: the pool's connections open, the JIT compiles
  const before = process.cpuUsage();
  const started = performance.now();
  await run(count);
  const used = process.cpuUsage(before);
  const seconds = (performance.now() - started) / 1000;
  const perMessage = (us) => (us / 1000 / count).toFixed(3);
  console.log(
    `${count} e-mails, ${concurrency} at a time: CPU per message ${perMessage(used.user + used.system)} ms ` +
      `(user ${perMessage(used.user)}, system ${perMessage(used.system)}), ${(count / seconds).toFixed(0)}/s`,
  );
} finally {
  await smtp.close();
  server.kill();
}
