/** The README's catalogue and mutation tables are copies of what the tool prints: they must not go stale. */
import { clientRules } from '../src/traffic/client-rules/catalogue.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../src/rules/catalogue.js';
import { DEVIATION_IDS } from '../src/engine/deviations.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const rows = (prefix: string) => readme.split('\n').filter((line) => line.startsWith(prefix));

describe('README', () => {
  it('lists every rule of the catalogue with its level and section, and no other', () => {
    const listed = rows('| `').filter((line) => / \| (documented|assumed) \| /.test(line));
    for (const rule of catalogue) {
      const row = listed.find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBeDefined();
      expect(row).toContain(`| ${rule.level} | ${rule.section.replace(/\|/g, '\\|')} |`);
    }
    for (const rule of clientRules) {
      const row = listed.find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBeDefined();
      expect(row).toContain(`| ${rule.level} | ${rule.section.replace(/\|/g, '\\|')} |`);
      if (rule.quote !== undefined) expect(row).toContain(`"${rule.quote.replace(/\|/g, '\\|')}"`);
      // The evidence a failure needs, rule by rule, as the rule states it.
      expect(row).toContain(rule.evidence.replace(/\|/g, '\\|'));
    }
    expect(listed).toHaveLength(catalogue.length + clientRules.length);
  });

  it('shows every deviation as caught in the mutation table', () => {
    for (const id of DEVIATION_IDS) {
      const row = rows(`| \`${id}\` |`).find((line) => / \| (yes|no) \| /.test(line));
      expect(row, id).toMatch(/ \| yes \| /);
    }
    expect(readme).toContain(`mutation score: ${DEVIATION_IDS.length}/${DEVIATION_IDS.length} (100%)`);
  });

  it('gives the quick start a newcomer runs', () => {
    for (const command of ['npm ci', 'npm start', 'npm test']) expect(readme).toContain(command);
  });
});
