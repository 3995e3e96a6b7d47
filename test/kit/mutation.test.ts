/**
 * The proof that the shipped suite catches what it claims: for every deviation of the simulator, the
 * suite fails the deviated rule, and any other documented rule it fails is one the deviation breaks too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mutation } from '../../src/cli/mutation.js';
import { DEVIATION_IDS } from '../../src/engine/deviations.js';
import { mutationScore, renderMutationTable, runMutation, type MutationRow } from '../../src/kit/mutation.js';
import { documentedRuleIds, ruleById } from '../../src/rules/catalogue.js';
import { captureIo } from '../support/cli-io.js';

/**
 * Documented rules a deviation may fail besides its own, each with why. Most deviations have none.
 * The keyset walks compare what they visited with results.total and continue with gt/ge and page[offset],
 * so what breaks those breaks the walks too.
 */
const ALSO_BROKEN: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'pagination.meta.present': {
    'pagination.endpoints.listed': 'a documented list endpoint whose meta lacks page.current does not answer a paginated list',
  },
  'pagination.offset.records': {
    'pagination.results.total': 'a page at offset o must hold min(limit, total − o) records, and reading the offset as a page number empties it',
    'large-data.keyset.timestamp': 'the timestamp walk pages through shared timestamps with page[offset]',
    'large-data.shared-timestamp': 'further paging on a uniform page is page[offset]',
  },
  'pagination.results.total': {
    'filter.results-total': 'a filtered read reports the same wrong total',
    'large-data.keyset.id': 'the id walk must visit results.total records',
    'large-data.keyset.timestamp': 'the timestamp walk must visit results.total records',
  },
  'filter.gt': {
    'large-data.keyset.id': 'the id walk continues with gt(id,<last>): read as ge, it repeats the last record of each page',
    'filter.results-total': 'traps-shared-timestamps.yaml counts the set after gt(created_at,<burst>): read as ge, the burst is counted in',
  },
  'filter.ge': {
    'large-data.keyset.timestamp': 'the timestamp walk continues with ge: read as gt, it skips the records sharing the boundary timestamp',
    'large-data.shared-timestamp': 'further paging on a uniform page keeps the ge filter: read as gt, it skips the rest of the burst',
  },
  'filter.results-total': {
    'pagination.results.total': 'results.total of a filtered read is the filtered count',
  },
  'sort.ascending': {
    'large-data.keyset.timestamp': 'the timestamp walk reads sort=created_at pages, which the deviation orders by id',
    'large-data.shared-timestamp': 'further paging on a uniform page reads sort=created_at',
    'filter.results-total': 'filter.yaml takes its created_at value from a sort=created_at page, which the deviation orders by id',
  },
  'large-data.shared-timestamp': {
    'large-data.keyset.timestamp': 'the timestamp walk cannot get through a burst larger than a page when further paging is ignored',
  },
  'pagination.limit.per-call': {
    'pagination.offset.records': 'traps-offset.yaml expects page[limit]=10 pages of exactly 10 records',
  },
  'large-data.deletes-invisible': {
    'pagination.offset.records': 'traps-offset.yaml expects the records after a delete to shift by one',
  },
};

describe('mutation testing of the shipped suite', () => {
  let rows: MutationRow[];
  beforeAll(async () => {
    rows = await runMutation();
  });

  it('tries every deviation the simulator implements, in order', () => {
    expect(rows.map((r) => r.ruleId)).toEqual([...DEVIATION_IDS]);
  });

  it('catches every deviation: the deviated rule fails', () => {
    expect(rows.filter((r) => !r.caught).map((r) => r.ruleId)).toEqual([]);
    expect(mutationScore(rows)).toBe(`mutation score: ${DEVIATION_IDS.length}/${DEVIATION_IDS.length} (100%)`);
  });

  it('fails no other documented rule but those the deviation breaks too', () => {
    const unexpected = rows.flatMap((r) => r.unrelated.filter((id) => ALSO_BROKEN[r.ruleId]?.[id] === undefined).map((id) => `${r.ruleId} → ${id}`));
    expect(unexpected).toEqual([]);
  });

  it('reports unrelated failures as documented rules other than the deviated one', () => {
    for (const r of rows) {
      expect(r.failedRules).toContain(r.ruleId);
      for (const id of r.unrelated) {
        expect(id).not.toBe(r.ruleId);
        expect(documentedRuleIds).toContain(id);
        expect(r.failedRules).toContain(id);
      }
    }
  });

  it('allows only documented rules in its list of rules broken together', () => {
    for (const [deviation, others] of Object.entries(ALSO_BROKEN)) {
      expect(DEVIATION_IDS).toContain(deviation);
      for (const id of Object.keys(others)) expect(ruleById(id)?.level).toBe('documented');
    }
  });

  it('renders a Markdown table with one row per deviation and the score', () => {
    const text = renderMutationTable(rows);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('| rule | section | caught | other rules failed |');
    expect(lines.filter((l) => /^\| `/.test(l))).toHaveLength(DEVIATION_IDS.length);
    expect(lines.at(-1)).toBe(mutationScore(rows));
    expect(text).toContain('| `create.status.201` | §4.1 | yes |');
  });
});

/** Deviations whose only evidence needs an operation the API document does not show. */
const NEEDS_UNDOCUMENTED: Readonly<Record<string, string>> = {
  'pagination.limit.project-setting': 'the settings endpoint is named (§8) but its path is not',
  'large-data.updates-during-traversal': 'the document shows no way to update an account',
  'large-data.deletes-invisible': 'the document shows no way to delete an account',
};

describe('mutation testing on the documented-only surface', () => {
  let rows: MutationRow[];
  beforeAll(async () => {
    rows = await runMutation({ surface: 'documented' });
  });

  it('catches every deviation but those that need an undocumented operation, which are inconclusive, never passed', () => {
    expect(rows.filter((r) => !r.caught).map((r) => r.ruleId)).toEqual(Object.keys(NEEDS_UNDOCUMENTED));
    for (const r of rows.filter((x) => !x.caught)) expect(r.inconclusive, r.ruleId).toBe(true);
  });

  it('fails no other documented rule but those the deviation breaks too', () => {
    const unexpected = rows.flatMap((r) => r.unrelated.filter((id) => ALSO_BROKEN[r.ruleId]?.[id] === undefined).map((id) => `${r.ruleId} → ${id}`));
    expect(unexpected).toEqual([]);
  });
});

describe('renderMutationTable', () => {
  it('marks a deviation that was not caught and scores it', () => {
    const text = renderMutationTable([
      { ruleId: 'filter.gt', caught: false, inconclusive: false, failedRules: ['large-data.keyset.id'], unrelated: ['large-data.keyset.id'] },
      { ruleId: 'sort.ascending', caught: true, inconclusive: false, failedRules: ['sort.ascending'], unrelated: [] },
    ]);
    expect(text).toBe(
      [
        '| rule | section | caught | other rules failed |',
        '| --- | --- | --- | --- |',
        '| `filter.gt` | §4.2 | **no** | `large-data.keyset.id` |',
        '| `sort.ascending` | §4.2 | yes | — |',
        '',
        'mutation score: 1/2 (50%)',
        '',
      ].join('\n'),
    );
  });
});

describe('commerce-sim mutation', () => {
  it('prints the Markdown table for the deviations asked for and exits 0 when all are caught', async () => {
    const c = captureIo();
    expect(await mutation(['--markdown', '--deviate', 'filter.gt', '--deviate', 'create.status.201'], c.io)).toBe(0);
    const lines = c.out().trimEnd().split('\n');
    expect(lines.slice(2, 4).map((l) => l.split(' | ')[0])).toEqual(['| `filter.gt`', '| `create.status.201`']);
    expect(lines.at(-1)).toBe('mutation score: 2/2 (100%)');
  });

  it('prints an aligned text table by default', async () => {
    const c = captureIo();
    expect(await mutation(['--deviate', 'sort.ascending'], c.io)).toBe(0);
    expect(c.out()).toMatch(/^deviation {7}verdict {2}other rules failed\nsort\.ascending {2}caught {3}/);
  });

  it('--readings N: seeded combinations of readings, each faithful with no false failure and the deviations caught', async () => {
    const c = captureIo();
    expect(await mutation(['--readings', '2', '--seed', '9', '--deviate', 'filter.ge', '--deviate', 'pagination.page.total'], c.io)).toBe(0);
    const out = c.out();
    expect(out).toMatch(/^readings: 2 combinations from seed 9 \(replay with --readings 2 --seed 9\)/);
    expect(out.match(/faithful: no documented rule failed/g)).toHaveLength(2);
    expect(out.match(/deviations caught: 2\/2/g)).toHaveLength(2);
    const bad = captureIo();
    expect(await mutation(['--readings', 'many'], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/^commerce-sim mutation: --readings takes a whole number from 1 to 9999, got 'many' \(see commerce-sim mutation --help\)\n$/);
  }, 60_000);

  it('refuses a deviation the simulator does not have', async () => {
    for (const id of ['no.such.rule', 'pagination.limit.clamp']) {
      const c = captureIo();
      expect(await mutation(['--deviate', id], c.io)).toBe(2);
      expect(c.err()).toMatch(/no such deviation/);
    }
  });
});
