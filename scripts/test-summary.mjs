// Prints one closing line over the vitest JSON reports given as arguments:
// "platform tests: N passed, N failed" (the plain summary CI reads in any language).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  const failedTests = report.numFailedTests ?? 0;
  // A file that fails to load has no failed test but counts as a failed suite.
  failed += failedTests > 0 ? failedTests : (report.numFailedTestSuites ?? 0);
}
console.log(`platform tests: ${passed} passed, ${failed} failed`);
