// Mocha's spec output, closed by the one line CI reads: "N passed, N failed[, N skipped]".
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.nextTick(() => {
        console.log(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
      });
    });
  }
}
module.exports = SummaryReporter;
