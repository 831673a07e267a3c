// The ceiling of a Node HTTP service on this machine: koa answering a small JSON body,
// nothing else (no router, no logging, no database). Prints its port on stdout.
import Koa from 'koa';

const app = new Koa();
const body = { id: '00000000-0000-4000-8000-000000000000', state: 'draft', signers: [] };
app.use((ctx) => {
  ctx.body = body;
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
