import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/scenarios/format.js';
import { selectScenarios, shardOf } from '../../src/scenarios/select.js';
import { parseShard, stableHash } from '../../src/shard.js';

const scenario = (file: string, name: string, tags: string[] = []): Scenario => ({ name, file, line: 1, rules: ['a.b'], tags, steps: [] });

const set: Scenario[] = Array.from({ length: 60 }, (_, i) =>
  scenario(`scenarios/${['pagination', 'create', 'auth'][i % 3] ?? ''}/s${i}.yaml`, `Scenario number ${i}`, i % 4 === 0 ? ['writes'] : i % 5 === 0 ? ['sim-only'] : []),
);

describe('selectScenarios', () => {
  it('greps name or file, case-insensitively, keeping the order', () => {
    expect(selectScenarios(set, { grep: 'NUMBER 1' }).map((s) => s.name)).toEqual(set.filter((s) => s.name.startsWith('Scenario number 1')).map((s) => s.name));
    expect(selectScenarios(set, { grep: 'Create/' }).every((s) => s.file.includes('/create/'))).toBe(true);
    expect(selectScenarios(set, { grep: 'Create/' })).toHaveLength(20);
  });

  it('takes any of several tags', () => {
    const picked = selectScenarios(set, { tags: ['writes', 'sim-only'] });
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.every((s) => s.tags.includes('writes') || s.tags.includes('sim-only'))).toBe(true);
    expect(selectScenarios(set, { tags: ['nothing'] })).toEqual([]);
  });

  it('partitions the set into shards: every scenario in exactly one, stable between runs', () => {
    for (const n of [1, 2, 3, 7]) {
      const shards = Array.from({ length: n }, (_, i) => selectScenarios(set, { shard: { index: i + 1, count: n } }));
      const names = shards.flat().map((s) => s.name);
      expect(names.sort()).toEqual(set.map((s) => s.name).sort());
      expect(new Set(names).size).toBe(set.length);
    }
    expect(set.map((s) => shardOf(s, 4))).toEqual(set.map((s) => shardOf({ file: s.file, name: s.name }, 4)));
    // Pinned: a change here would reshuffle CI shards.
    expect(stableHash('')).toBe(0x811c9dc5);
    expect(stableHash('scenarios/a.yaml\nname')).toBe(stableHash('scenarios/a.yaml\nname'));
    expect(stableHash('a')).toBe(0xe40c292c);
  });

  it('combines grep, tag and shard', () => {
    const picked = selectScenarios(set, { grep: 'pagination', tags: ['writes'], shard: { index: 1, count: 2 } });
    expect(picked.every((s) => s.file.includes('pagination') && s.tags.includes('writes') && shardOf(s, 2) === 1)).toBe(true);
  });
});

describe('parseShard', () => {
  it('accepts I/N with 1 ≤ I ≤ N', () => {
    expect(parseShard('2/4')).toEqual({ ok: true, value: { index: 2, count: 4 } });
    expect(parseShard('1/1')).toEqual({ ok: true, value: { index: 1, count: 1 } });
  });

  it.each(['0/4', '5/4', '1/0', 'x', '1/', '-1/3', '1.5/3'])('refuses %s', (text) => {
    expect(parseShard(text).ok).toBe(false);
  });
});
