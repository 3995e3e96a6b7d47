/**
 * The repository carries its own sources: every `API-NOTES "<heading>"` a rule cites is a heading of
 * docs/api-notes.md, and every repository path the README, a file under docs/ or a rule names is a file or
 * folder the repository (and the package, for docs/, scenarios/ and schemas/) has.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../src/rules/catalogue.js';
import { docFiles } from './support/docs.js';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const notes = read('docs/api-notes.md');
const headings = [...notes.matchAll(/^## (.+)$/gm)].map((m) => m[1] ?? '');

describe('the sources the project cites', () => {
  it('finds every API-NOTES heading a rule cites in docs/api-notes.md', () => {
    const cited = new Set(catalogue.flatMap((r) => [...r.section.matchAll(/API-NOTES "([^"]+)"/g)].map((m) => m[1] ?? '')));
    expect(cited.size).toBeGreaterThan(5);
    expect([...cited].filter((c) => !headings.some((h) => h.startsWith(c)))).toEqual([]);
  });

  it('resolves every repository path the README and the docs name', () => {
    const text = docFiles()
      .map((file) => read(file))
      .join('\n');
    const paths = new Set([...text.matchAll(/`((?:src|test|docs|scenarios|schemas|fixtures)\/[^`\s*{}<>]*)`/g)].map((m) => (m[1] ?? '').replace(/[),.:]+$/, '')));
    expect(paths.size).toBeGreaterThan(20);
    expect([...paths].filter((p) => !existsSync(new URL(p, root)))).toEqual([]);
  });

  it('ships what it cites: docs, scenarios and schemas are in the package', () => {
    const files = (JSON.parse(read('package.json')) as { files: string[] }).files;
    for (const folder of ['docs', 'scenarios', 'schemas', 'dist']) expect(files).toContain(folder);
    for (const doc of ['docs/commerce-api.md', 'docs/api-notes.md', 'docs/readings.md', 'docs/rule-ids.md', 'docs/design.md', 'docs/guides/simulator.md', 'docs/rules.md', 'docs/architecture.md'])
      expect(existsSync(new URL(doc, root)), doc).toBe(true);
  });
});
