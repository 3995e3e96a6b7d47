/**
 * The library costs little to import: the main entry's static import graph (type-only imports erased, as
 * the compiler does) reaches none of the heavy packages, which load on first use; the CLI module of each
 * command loads no property suite before its options are read. Measured in `npm run bench` (section
 * `imports`); asserted here by the graph, not by a clock.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const STATEMENT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'/g;
const SIDE_EFFECT = /(?:^|\n)\s*import\s+'([^']+)'/g;

/** The static value imports of a file: bare package names and resolved project files. */
function staticImports(file: string): { packages: string[]; files: string[] } {
  const text = readFileSync(file, 'utf8');
  const packages: string[] = [];
  const files: string[] = [];
  const add = (spec: string) => {
    if (spec.startsWith('.')) files.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    else if (!spec.startsWith('node:')) packages.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
  };
  for (const m of text.matchAll(STATEMENT)) {
    const typeOnly = m[2] !== undefined || /^\{\s*(type\s+[\w$]+\s*(,\s*type\s+[\w$]+\s*)*)\}$/.test(m[3] ?? '');
    if (!typeOnly && m[4] !== undefined) add(m[4]);
  }
  for (const m of text.matchAll(SIDE_EFFECT)) if (m[1] !== undefined) add(m[1]);
  return { packages, files };
}

/** Every project file the static graph from `entry` reaches, relative to src/. */
function reachedFiles(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const f of staticImports(file).files) visit(f);
  };
  visit(join(SRC, entry));
  return [...seen].map((f) => f.slice(SRC.length + 1)).sort();
}

/** Every package the static graph from `entry` reaches. */
function reachedPackages(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { packages: p, files } = staticImports(file);
    for (const name of p) if (!packages.has(name)) packages.set(name, file.slice(SRC.length + 1));
    for (const f of files) visit(f);
  };
  visit(join(SRC, entry));
  return packages;
}

const HEAVY = ['fast-check', 'ajv', 'yaml', 'undici', 'junit-report-builder'];

describe('import cost', () => {
  it('the main entry reaches none of the heavy packages statically', () => {
    const reached = reachedPackages('index.ts');
    expect(Object.fromEntries([...reached].filter(([name]) => HEAVY.includes(name)))).toEqual({});
  });

  it('the main entry loads no rule of the catalogue, nor its judge (commerce-sim/rules does): a test file that starts a simulator needs neither', () => {
    const rules = reachedFiles('index.ts').filter((f) => f.startsWith('rules/'));
    // The rule ids and the readings are the simulator's own vocabulary; nothing else of rules/.
    expect(rules).toEqual(['rules/ids.ts', 'rules/readings.ts']);
    expect(reachedFiles('rules-entry.ts')).toEqual(expect.arrayContaining(['rules/catalogue.ts', 'rules/judge.ts', 'rules/fingerprint.ts']));
  });

  it('commerce-sim/client and commerce-sim/properties load no more than they need', () => {
    expect([...reachedPackages('client/index.ts').keys()].filter((p) => HEAVY.includes(p))).toEqual([]);
    expect([...reachedPackages('properties/index.ts').keys()].filter((p) => HEAVY.includes(p))).toEqual(['fast-check']);
  });

  it('no command module loads fast-check before its options are read, and the main ones no validator or writer either', () => {
    for (const command of ['run', 'props', 'mutation', 'serve', 'fixtures', 'record', 'diff', 'export', 'rules', 'readings', 'openapi']) {
      expect(
        [...reachedPackages(`cli/${command}.ts`).keys()].filter((p) => p === 'fast-check'),
        command,
      ).toEqual([]);
    }
    for (const command of ['run', 'props', 'mutation', 'serve', 'rules', 'readings', 'openapi']) {
      expect(
        [...reachedPackages(`cli/${command}.ts`).keys()].filter((p) => ['ajv', 'junit-report-builder', 'yaml'].includes(p)),
        command,
      ).toEqual([]);
    }
  });

  it('sees a static import of a heavy package (the scan is not vacuous)', () => {
    expect([...reachedPackages('properties/registry.ts').keys()]).toContain('fast-check');
    expect([...reachedPackages('scenarios/load.ts').keys()]).toContain('ajv');
  });
});

describe('what the CLI says of the property suites before loading them', () => {
  it('names the same suites, in the same order, as the registry', async () => {
    const { PROPERTY_NAMES } = await import('../../src/properties/names.js');
    const { properties } = await import('../../src/properties/registry.js');
    expect([...PROPERTY_NAMES]).toEqual(properties.map((p) => p.name));
  });
});
