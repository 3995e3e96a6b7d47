/**
 * The documentation's catalogue, mutation and command tables are copies of what the tool prints: they must not
 * go stale. Since issue 35 they live in docs/ (rules.md, developing.md, commands.md); the README keeps the
 * Quick start, which is what CI runs.
 */
import { clientRuleMetas } from '../src/traffic/client-rules/catalogue.js';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../src/rules/catalogue.js';
import { DEVIATION_IDS } from '../src/engine/deviations.js';
import { commands } from '../src/cli/registry.js';
import { blocksOf, readDoc, section } from './support/docs.js';

const readme = readDoc('README.md');
const rowsOf = (text: string) => (prefix: string) => text.split('\n').filter((line) => line.startsWith(prefix));

describe('docs/rules.md', () => {
  const rows = rowsOf(readDoc('docs/rules.md'));

  it('lists every rule of the catalogue with its level and section, and no other', () => {
    const listed = rows('| `').filter((line) => / \| (documented|assumed) \| /.test(line));
    for (const rule of catalogue) {
      const row = listed.find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBeDefined();
      expect(row).toContain(`| ${rule.level} | ${rule.section.replace(/\|/g, '\\|')} |`);
    }
    // A client rule's row is the rule whole: its level, section, the document's words (— for an assumed rule), and the evidence a failure needs.
    const cell = (text: string) => text.replace(/\|/g, '\\|');
    for (const rule of clientRuleMetas) {
      const row = listed.find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBe(`| \`${rule.id}\` | ${rule.level} | ${cell(rule.section)} | ${rule.quote === undefined ? '—' : `"${cell(rule.quote)}"`} | ${cell(rule.evidence)} |`);
    }
    expect(listed).toHaveLength(catalogue.length + clientRuleMetas.length);
  });

  it('keeps the server rules under "Server rules" and the client rules under "Client rules"', () => {
    const text = readDoc('docs/rules.md');
    const ids = (heading: string) => [...section(text, heading).matchAll(/^\| `([a-z0-9.-]+)` \| (?:documented|assumed) \|/gm)].map((m) => m[1]);
    expect(ids('## Server rules: the catalogue')).toEqual(catalogue.map((r) => r.id));
    expect(ids('## Client rules')).toEqual(clientRuleMetas.map((r) => r.id));
  });
});

describe('docs/developing.md', () => {
  const text = readDoc('docs/developing.md');
  const rows = rowsOf(text);

  it('shows every deviation as caught in the mutation table', () => {
    for (const id of DEVIATION_IDS) {
      const row = rows(`| \`${id}\` |`).find((line) => / \| (yes|no) \| /.test(line));
      expect(row, id).toMatch(/ \| yes \| /);
    }
    expect(text).toContain(`mutation score: ${DEVIATION_IDS.length}/${DEVIATION_IDS.length} (100%)`);
  });
});

describe('docs/commands.md', () => {
  const rows = rowsOf(readDoc('docs/commands.md'));

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
});

describe('README', () => {
  const quickStart = blocksOf('README.md', section(readme, '## Quick start'))[0];
  const commandsOf = (lines: readonly string[]) => lines.map((line) => line.replace(/#.*$/, '').trim()).filter((line) => /^npm /.test(line));

  it('gives the quick start a newcomer runs', () => {
    expect(commandsOf(quickStart?.lines ?? [])).toEqual(['npm ci', 'npm start', 'npm test']);
  });

  it("is what CI runs: the npm commands of .ci/run are the Quick start's set-up and test, in its order", () => {
    const ci = commandsOf(readDoc('.ci/run').split('\n'));
    expect(ci).toEqual(['npm ci', 'npm test']);
    // Every command CI runs is shown, in CI's order (npm start is the newcomer's look at the tool, not a check).
    expect(commandsOf(quickStart?.lines ?? []).filter((c) => ci.includes(c))).toEqual(ci);
  });

  it('reads in ten minutes: at most 300 lines', () => {
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(300);
  });
});
