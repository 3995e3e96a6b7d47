/**
 * Every relative link of the README and of docs/ points at a file that exists, and a `#anchor` into a
 * Markdown file at one of its headings (issue 35: the README became a short page of links into docs/, so a
 * moved or renamed section must not leave a dead link behind). The packed tarball's copy is checked in
 * test/e2e/tarball.test.ts.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, docFiles, linksOf, readDoc, ROOT } from './support/docs.js';

/** Where a link of `file` leads: the repository path (empty for the file itself) and the anchor. */
function resolveLink(file: string, target: string): { path: string; anchor: string | undefined } {
  const [path = '', anchor] = target.split('#');
  return { path: path === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(path))), anchor };
}

/** The broken links of one file, as `file:line: target (why)`. */
function broken(file: string): string[] {
  const out: string[] = [];
  for (const { line, target } of linksOf(readDoc(file))) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:: not the repository's
    const { path, anchor } = resolveLink(file, target);
    const full = join(ROOT, path);
    if (path.startsWith('..') || !existsSync(full)) out.push(`${file}:${line}: ${target} (no file ${path})`);
    else if (anchor !== undefined && !(statSync(full).isFile() && path.endsWith('.md') && anchorsOf(readDoc(path)).has(anchor)))
      out.push(`${file}:${line}: ${target} (no heading #${anchor} in ${path})`);
  }
  return out;
}

describe('the links of the README and docs/', () => {
  const files = docFiles();

  it('reads the README, the guides and the reference, and finds links in them', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/guides/traffic.md');
    expect(files.flatMap((f) => linksOf(readDoc(f))).length).toBeGreaterThan(40);
  });

  it.each(files)('%s: every relative link leads to a file that exists, and every anchor to a heading', (file) => {
    expect(broken(file)).toEqual([]);
  });

  it('gives every job of the README a link to its guide', () => {
    const readme = linksOf(readDoc('README.md')).map((l) => l.target);
    for (const guide of ['simulator', 'deployment', 'fixtures', 'traffic', 'ci']) expect(readme).toContain(`docs/guides/${guide}.md`);
  });

  it('tells a dead link, a dead anchor and a link out of the repository from good ones (the check is not vacuous)', () => {
    expect(anchorsOf('# A title\n## Judging real traffic (`npm run bench -- --only traffic`)\n## In your own test suite\n### In your own test suite\n```\n# not a heading\n```')).toEqual(
      new Set(['a-title', 'judging-real-traffic-npm-run-bench------only-traffic', 'in-your-own-test-suite', 'in-your-own-test-suite-1']),
    );
    expect(linksOf('see [a](docs/a.md#x) and `[b](c.md)`\n```\n[d](e.md)\n```\n[f](#g)')).toEqual([
      { line: 1, target: 'docs/a.md#x' },
      { line: 5, target: '#g' },
    ]);
    expect(resolveLink('docs/guides/ci.md', '../rules.md#client-rules')).toEqual({ path: 'docs/rules.md', anchor: 'client-rules' });
    expect(resolveLink('README.md', '#quick-start')).toEqual({ path: 'README.md', anchor: 'quick-start' });
    expect(existsSync(join(dirname(join(ROOT, 'README.md')), 'docs/guides/ci.md'))).toBe(true);
  });
});
