// A root hook for the whole-system suites: when a test fails, print the last lines each
// running service wrote (LOG_LEVEL warn: its warnings and errors), so a 500 or a crash in
// CI says where it came from. libs/testing's startService keeps the registry.
const TAIL = 4000;

export const mochaHooks = {
  afterEach() {
    if (this.currentTest?.state !== 'failed') return;
    const services = globalThis.__esignRunningServices;
    if (!(services instanceof Set)) return;
    for (const service of services) {
      const output = service.output().trim();
      if (output === '') continue;
      process.stdout.write(
        `\n--- ${service.name} (port ${service.port}), last output:\n${output.slice(-TAIL)}\n---\n`,
      );
    }
  },
};
