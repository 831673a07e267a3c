// The spec reporter, plus the one line CI reads (`tests: N passed, N failed`) and a
// JSON summary in test-results/ for .ci/run: the counts, and each failure's full title and
// the first lines of its error, so the end of a long CI log still names what failed.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_TEST_FAIL } = Mocha.Runner.constants;

const firstLines = (err) =>
  String(err?.stack ?? err?.message ?? err)
    .split('\n')
    .slice(0, 6)
    .join('\n');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failed = [];
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      failed.push({
        title: test.fullTitle(),
        file: test.file && path.relative(process.cwd(), test.file),
        error: firstLines(err),
      });
    });
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats ?? this.stats;
      const dir = path.join(process.cwd(), 'test-results');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'summary.json'),
        JSON.stringify({ passes, failures, pending, failed }) + '\n',
      );
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
