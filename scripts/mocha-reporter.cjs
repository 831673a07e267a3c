// The spec reporter, plus the one line CI reads (`tests: N passed, N failed`) and a
// JSON summary in test-results/ for .ci/run.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats ?? this.stats;
      const dir = path.join(process.cwd(), 'test-results');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'summary.json'), JSON.stringify({ passes, failures, pending }) + '\n');
      // Printed after the spec reporter's epilogue so it is the last line.
      process.on('exit', () => {
        process.stdout.write(
          `tests: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`,
        );
      });
    });
  }
}

module.exports = SummaryReporter;
