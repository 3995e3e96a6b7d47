import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue, documentedRuleIds, ruleById, ruleIds } from '../../src/rules/catalogue.js';

interface DocRule {
  readonly id: string;
  readonly family: string;
  readonly level: string;
  readonly section: string;
  readonly statement: string;
}

/**
 * docs/rule-ids.md: `## family (default section)` headings and `- \`id\` level [section] — statement (dev: ...)`
 * lines. A rule line without its own section takes the heading's (without a leading `assumed, `).
 */
function parseRuleIds(markdown: string): DocRule[] {
  const rules: DocRule[] = [];
  let family = '';
  let defaultSection = '';
  for (const line of markdown.split('\n')) {
    const heading = /^## (\S+)(?: \((.*)\))?\s*$/.exec(line);
    if (heading !== null) {
      family = heading[1] ?? '';
      defaultSection = (heading[2] ?? '').replace(/^assumed,\s*/, '');
      continue;
    }
    const rule = /^- `([^`]+)` (documented|assumed)(.*?) — (.*)$/.exec(line);
    if (rule === null) continue;
    const own = (rule[3] ?? '').trim();
    rules.push({
      id: rule[1] ?? '',
      family,
      level: rule[2] ?? '',
      section: own === '' ? defaultSection : own,
      statement: (rule[4] ?? '').replace(/ \(dev: .*\)\s*$/, '').trim(),
    });
  }
  return rules;
}

const doc = parseRuleIds(readFileSync(new URL('../../docs/rule-ids.md', import.meta.url), 'utf8'));

describe('catalogue', () => {
  it('reads the document', () => {
    expect(doc.length).toBeGreaterThan(50);
    expect(doc.every((r) => r.section !== '')).toBe(true);
  });

  it('lists exactly the ids of docs/rule-ids.md, in its order', () => {
    expect(ruleIds).toEqual(doc.map((r) => r.id));
  });

  it.each(doc.map((r) => [r.id, r] as const))('%s has the level, section, family and statement of the document', (id, d) => {
    const rule = ruleById(id);
    expect(rule).toBeDefined();
    expect({ level: rule?.level, section: rule?.section, family: rule?.family, statement: rule?.statement }).toEqual({
      level: d.level,
      section: d.section,
      family: d.family,
      statement: d.statement,
    });
  });

  it('has unique ids and finds each by id', () => {
    expect(new Set(ruleIds).size).toBe(catalogue.length);
    for (const rule of catalogue) expect(ruleById(rule.id)).toBe(rule);
    expect(ruleById('no.such.rule')).toBeUndefined();
  });

  it('names the documented rules', () => {
    expect(documentedRuleIds).toEqual(doc.filter((r) => r.level === 'documented').map((r) => r.id));
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
