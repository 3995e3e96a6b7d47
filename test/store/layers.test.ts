/**
 * Dependencies point down (cli → kit → recordings/scenarios/properties/client → adapters → sim → engine/store/rules/report
 * → port, kit-errors, limits, result): a static import scan.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDatasetFields } from '../../src/store/dataset-spec.js';

const SRC = join(import.meta.dirname, '../../src');
const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : []));
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1] as string);

describe('layers', () => {
  it.each([
    ['engine', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report', 'client', 'store']],
    ['store', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report', 'client']],
    ['rules', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report', 'client', 'store']],
    ['report', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'client', 'store']],
    ['sim', ['cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report']],
    ['adapters', ['cli', 'kit', 'scenarios', 'properties', 'recordings', 'report']],
    ['scenarios', ['cli', 'kit', 'properties', 'recordings']],
    ['properties', ['cli', 'kit', 'scenarios', 'recordings']],
    ['client', ['cli', 'kit', 'scenarios', 'properties', 'recordings', 'sim']],
    ['recordings', ['cli', 'kit']],
  ])('src/%s imports nothing from %j', (layer, above) => {
    const offending: string[] = [];
    for (const file of files(join(SRC, layer))) {
      for (const spec of importsOf(file)) {
        const target = relative(SRC, join(file, '..', spec)).split(/[\\/]/)[0] ?? '';
        if (above.includes(target)) offending.push(`${relative(SRC, file)} → ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('keeps the bottom of the house (port, kit errors, the document limits, the result type) free of imports from any folder', () => {
    const bottom = ['port.ts', 'kit-errors.ts', 'limits.ts', 'result.ts'].filter((f) => statSync(join(SRC, f), { throwIfNoEntry: false }) !== undefined);
    expect(bottom.length).toBe(4);
    for (const file of bottom) expect(importsOf(join(SRC, file)).filter((spec) => !/^\.\/[^/]+$/.test(spec))).toEqual([]);
  });
});

describe('the dataset options validator (admin API, snapshots, dataset files)', () => {
  it.each([
    [{ accounts: -1 }, 'accounts'],
    [{ accounts: 1e9 }, 'accounts'],
    [{ counts: { widgets: 3 } }, 'counts.widgets'],
    [JSON.parse('{"counts": {"__proto__": 3}}') as unknown, 'counts.__proto__'],
    [JSON.parse('{"__proto__": {"accounts": 3}}') as unknown, '__proto__'],
    [{ profile: 'huge' }, 'profile'],
    [{ burst: 0 }, 'burst'],
    [{ seed: 'x' }, 'seed'],
    [{ colour: 'red' }, 'colour'],
  ])('%j is refused at %s', (value, path) => {
    const r = readDatasetFields(value, ['seed', 'accounts', 'counts', 'profile', 'burst']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.path).toBe(path);
  });

  it('accepts the known members and keeps nothing else', () => {
    expect(readDatasetFields({ seed: 3, accounts: 10, counts: { orders: 4 }, profile: 'shared-timestamps', burst: 200 }, ['seed', 'accounts', 'counts', 'profile', 'burst'])).toEqual({
      ok: true,
      value: { seed: 3, accounts: 10, counts: { orders: 4 }, profile: 'shared-timestamps', burst: 200 },
    });
  });
});
