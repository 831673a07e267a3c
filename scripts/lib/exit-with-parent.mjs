// Preloaded (node --import) into each service that `npm start` runs. The services are
// in process groups of their own, so if npm start dies without stopping them (killed,
// terminal closed) nothing would reach them: they would live on as orphans holding
// their ports. The IPC channel to npm start closes whenever it dies, however it dies;
// the service then shuts down as on SIGTERM (draining, closing pools, exit 0).
if (process.channel) {
  // The channel must not keep a service alive that is otherwise done.
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
