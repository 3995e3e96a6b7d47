import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue, documentedRuleIds, ruleById } from '../../src/rules/catalogue.js';

const ruleIds = catalogue.map((r) => r.id);
import { rulesMarkdown } from '../../src/cli/rules.js';

const doc = readFileSync(new URL('../../docs/rule-ids.md', import.meta.url), 'utf8');

describe('catalogue', () => {
  it('docs/rule-ids.md is what `commerce-sim rules --markdown` prints (the catalogue is the one source)', () => {
    expect(doc).toBe(rulesMarkdown(catalogue));
    expect(catalogue.length).toBeGreaterThan(50);
  });

  it('lists exactly the ids of src/rules/ids.ts', async () => {
    const { RULE_IDS } = await import('../../src/rules/ids.js');
    expect([...ruleIds].sort()).toEqual([...RULE_IDS].sort());
  });

  it('has unique ids and finds each by id', () => {
    expect(new Set(ruleIds).size).toBe(catalogue.length);
    for (const rule of catalogue) expect(ruleById(rule.id)).toBe(rule);
    expect(ruleById('no.such.rule')).toBeUndefined();
  });

  it('names the documented rules', () => {
    expect(documentedRuleIds).toEqual(catalogue.filter((r) => r.level === 'documented').map((r) => r.id));
  });

  it('skips every rule on an empty context', () => {
    for (const rule of catalogue) expect(rule.check({ exchanges: [], vars: {} }).status, rule.id).toBe('skip');
  });
});

describe('typed rule ids', () => {
  it('every catalogue rule has its id in src/rules/ids.ts, and every documented rule has a deviation', async () => {
    const { RULE_IDS } = await import('../../src/rules/ids.js');
    const { DEVIATION_IDS } = await import('../../src/engine/deviations.js');
    const { catalogue, documentedRuleIds } = await import('../../src/rules/catalogue.js');
    for (const rule of catalogue) expect(RULE_IDS).toContain(rule.id);
    expect([...DEVIATION_IDS].sort()).toEqual([...documentedRuleIds].sort());
  });
});

describe('the document behind each documented rule', () => {
  it("every documented rule quotes commerce-api.md, and its words are the document's", async () => {
    const { readFileSync } = await import('node:fs');
    const { catalogue } = await import('../../src/rules/catalogue.js');
    const spec = readFileSync(new URL('../../docs/commerce-api.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const rule of catalogue) {
      if (rule.level === 'assumed') {
        expect(rule.quote, rule.id).toBeUndefined();
        continue;
      }
      expect(rule.quote.length, rule.id).toBeGreaterThan(10);
      // Each sentence-long run of the quote (table cells joined with ': ') stands in the document as written.
      const runs = rule.quote
        .split(/(?<=\.) | \| |: |\.\.\. /)
        .map((t) => t.replace(/[.;]$/, '').trim())
        .filter((t) => t.length >= 12 && !t.includes('('));
      const missing = runs.filter((run) => !spec.includes(run));
      expect(missing, rule.id).toEqual([]);
    }
  });
});
