// Prints one closing line over the vitest JSON reports given as arguments:
// "platform tests: N passed, N failed, N skipped" (the plain summary CI reads in any language).
// The suite allows no skipped test (a test that needs a tool gets it from `./platform tools`), so
// any skipped or todo test makes this exit 1, as a failed one does for vitest.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const skippedNames = [];
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  const failedTests = report.numFailedTests ?? 0;
  // A file that fails to load has no failed test but counts as a failed suite.
  failed += failedTests > 0 ? failedTests : (report.numFailedTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo')
        skippedNames.push(test.fullName ?? test.title);
    }
  }
}
console.log(`platform tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (skipped > 0) {
  console.error(`skipped (the suite allows none):\n  ${skippedNames.join('\n  ')}`);
  process.exit(1);
}
