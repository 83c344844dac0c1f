// Prints the plain closing line CI reads ("tests: N passed, N failed, N skipped") from vitest's JSON report.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
