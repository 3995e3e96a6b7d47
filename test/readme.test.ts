/** The README's catalogue, mutation and command tables are copies of what the tool prints: they must not go stale. */
import { clientRules } from '../src/traffic/client-rules/catalogue.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../src/rules/catalogue.js';
import { DEVIATION_IDS } from '../src/engine/deviations.js';
import { commands } from '../src/cli/registry.js';

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
    // A client rule's row is the rule whole: its level, section, the document's words (— for an assumed rule), and the evidence a failure needs.
    const cell = (text: string) => text.replace(/\|/g, '\\|');
    for (const rule of clientRules) {
      const row = listed.find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBe(`| \`${rule.id}\` | ${rule.level} | ${cell(rule.section)} | ${rule.quote === undefined ? '—' : `"${cell(rule.quote)}"`} | ${cell(rule.evidence)} |`);
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

  it.each(Object.keys(commands))("lists every flag of `%s --help` in the commands table's row", async (name) => {
    const command = await commands[name]?.load();
    const row = rows(`| \`commerce-sim ${name}`)[0] ?? '';
    expect(row, `a row for ${name}`).not.toBe('');
    // The flags its --help lists as options (the first column of each option line), and every option it accepts.
    const optionLines = (command?.usage ?? '').split('\n').filter((line) => /^\s+--/.test(line));
    const helpFlags = optionLines.flatMap(
      (line) =>
        line
          .trim()
          .split(/\s{2,}/)[0]
          ?.match(/--[a-z][\w-]*/g) ?? [],
    );
    const accepted = Object.keys(command?.options ?? {}).map((option) => `--${option}`);
    const flags = [...new Set([...helpFlags, ...accepted])].filter((flag) => flag !== '--help');
    expect(flags.filter((flag) => !new RegExp(`${flag}(?![\\w-])`).test(row))).toEqual([]);
  });

  it('gives the quick start a newcomer runs', () => {
    for (const command of ['npm ci', 'npm start', 'npm test']) expect(readme).toContain(command);
  });
});
