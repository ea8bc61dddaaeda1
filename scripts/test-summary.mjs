// Prints one closing line over the reports given as arguments (vitest JSON; JUnit XML for the
// Schemathesis run, one test case per fuzzed operation):
// "tests: N passed, N failed, N skipped". CI reads exactly this plain form: "N passed, N failed"
// with at most one word and a colon before it, so the prefix must stay a single word.
// The suite allows no skipped test (a test that needs a tool gets it from `./platform tools`), so
// any skipped or todo test makes this exit 1, as a failed one does for vitest.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const skippedNames = [];
function countJunit(file) {
  const xml = readFileSync(file, 'utf8');
  const cases = xml.match(/<testcase\b[^>]*?(\/>|>[\s\S]*?<\/testcase>)/g) ?? [];
  for (const c of cases) {
    if (/<(failure|error)\b/.test(c)) failed += 1;
    else if (/<skipped\b/.test(c)) {
      skipped += 1;
      skippedNames.push(/name="([^"]*)"/.exec(c)?.[1] ?? 'fuzzed operation');
    } else passed += 1;
  }
}

for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  if (file.endsWith('.xml')) {
    countJunit(file);
    continue;
  }
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
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (skipped > 0) {
  console.error(`skipped (the suite allows none):\n  ${skippedNames.join('\n  ')}`);
  process.exit(1);
}
