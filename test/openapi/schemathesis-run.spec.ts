// The one line the schemathesis tests print, and what a failing assertion shows: never one of
// schemathesis's pytest-style `===` banners, which CI reads as a run's closing line (issue 38 item 8).
import { countsOf, failuresOf, summaryLine } from '../support/schemathesis-run';

const PASSING = [
  '======================= SUMMARY =======================',
  'API Operations:',
  '  Selected: 42/42',
  '  Tested: 42',
  'Test cases:',
  '  3120 generated, 3120 passed',
  '========== 2 warnings in 36.70s ==========',
].join('\n');

const FAILING = [
  '======================= FAILURES =======================',
  '________________ POST /v1/chat/completions ________________',
  '1. Server error',
  '________________ GET /v1/models ________________',
  '1. Response violates schema',
  '======================= SUMMARY =======================',
  '  Selected: 42/42',
  '  Tested: 42',
  '========== 2 failures, 2 warnings in 40.01s ==========',
].join('\n');

describe('schemathesis run summary', () => {
  it('counts the operations of a passing run and prints one plain line', () => {
    const run = { code: 0, output: PASSING, reportPath: '.cache/schemathesis/main.txt' };
    expect(countsOf(run)).toEqual({ selected: 42, total: 42, tested: 42, failures: 0 });
    expect(summaryLine('demo key', run)).toBe('schemathesis (demo key): 42 operations, 0 failures, exit 0, report in .cache/schemathesis/main.txt');
    expect(failuresOf(run)).toBe('');
  });

  it('counts one failure per failing operation, and shows them without a banner', () => {
    const run = { code: 1, output: FAILING, reportPath: '.cache/schemathesis/main.txt' };
    expect(countsOf(run).failures).toBe(2);
    const shown = failuresOf(run);
    expect(shown).toContain('POST /v1/chat/completions');
    expect(shown).toContain('(full report: .cache/schemathesis/main.txt)');
    expect(shown).not.toMatch(/={3,}/);
  });

  it('a run that did not start (exit 1, no report) is one failure, not zero', () => {
    const run = { code: 1, output: '', reportPath: '.cache/schemathesis/main.txt' };
    expect(countsOf(run)).toEqual({ selected: null, total: null, tested: null, failures: 1 });
    expect(summaryLine('x', run)).toBe('schemathesis (x): ? operations, 1 failures, exit 1, report in .cache/schemathesis/main.txt');
  });
});
