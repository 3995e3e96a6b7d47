/**
 * Verdicts unchanged (issue 34): the traffic judge is being rebuilt for speed (page facts taken once, walks
 * found by index, rules in ESLint's shape), and none of that may change a single verdict. This test judges a
 * fixed corpus (test/support/verdict-corpus.ts: the shipped suite, marked, unmarked, from its HAR, under a
 * small budget and in front of deviating simulators; seeded legal clients with traps; the clients written from
 * the document alone) and compares every finding, tally, walk and note with verdicts-baseline.json.
 *
 * The baseline is not an expected result worked out by hand, and nothing here claims it is right: it is
 * what the judge said on its base commit (a226d08, before the refactor), written by running this file with
 * VERDICTS_BASELINE=write. It guards behaviour across a refactor. Whether the verdicts are right is for the
 * independent checks (the properties of clients.test.ts, doc-clients.test.ts, deviations.test.ts,
 * suite-probes.test.ts), which stay as they are. A change meant to alter verdicts rewrites the baseline in
 * the same commit and says why, so the diff of the JSON shows exactly which verdicts moved.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docClientsCorpus, legalClientsCorpus, suiteCorpus, type Summary } from '../support/verdict-corpus.js';

const BASELINE = new URL('./verdicts-baseline.json', import.meta.url);
const WRITE = process.env['VERDICTS_BASELINE'] === 'write';
const LEGAL_RUNS = 10;

const baseline: Record<string, Summary> = WRITE ? {} : (JSON.parse(readFileSync(BASELINE, 'utf8')) as Record<string, Summary>);
const got: Record<string, Summary> = {};

/** Compared part by part, so a difference names the corpus it is in. */
function compare(part: Record<string, Summary>): void {
  Object.assign(got, part);
  if (WRITE) {
    writeFileSync(BASELINE, `${JSON.stringify(got, null, 1)}\n`);
    return;
  }
  const names = Object.keys(part);
  expect(names).toEqual(names.filter((n) => n in baseline));
  for (const n of names) expect(part[n], n).toEqual(baseline[n]);
}

describe('the traffic judge gives the verdicts it gave before the refactor', () => {
  it('on the shipped suite (marked, unmarked, from its HAR, under a small budget, in front of deviating simulators)', async () => {
    compare(await suiteCorpus());
  }, 300_000);

  it(`on ${LEGAL_RUNS} seeded plans of legal clients, each with a trap, with ground truth`, async () => {
    compare(await legalClientsCorpus(LEGAL_RUNS));
  }, 300_000);

  it('on the clients and traps written from the document alone, with ground truth', async () => {
    compare(await docClientsCorpus());
  }, 300_000);

  it('covers every part of the baseline', () => {
    if (WRITE) return;
    expect(Object.keys(got).sort()).toEqual(Object.keys(baseline).sort());
  });
});
