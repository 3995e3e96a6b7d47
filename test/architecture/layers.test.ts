/**
 * Dependencies point down (cli → kit → recordings/scenarios/properties/client → adapters → sim →
 * store/report → engine → rules → port, kit errors, limits, result): a static import scan of the layers a
 * room must never reach, beside the floor plan (floor-plan.test.ts) that places every room.
 */
import { statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { files, importsOf, SRC } from './rooms.js';

describe('layers', () => {
  it.each([
    ['engine', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report', 'client', 'store', 'traffic', 'bench']],
    ['store', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report', 'client', 'traffic', 'bench']],
    ['rules', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report', 'client', 'store', 'engine', 'traffic', 'bench']],
    ['report', ['sim', 'cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'client', 'store', 'traffic', 'bench']],
    ['sim', ['cli', 'kit', 'scenarios', 'properties', 'adapters', 'recordings', 'report', 'traffic', 'bench']],
    ['adapters', ['cli', 'kit', 'scenarios', 'properties', 'recordings', 'report', 'traffic', 'bench']],
    ['scenarios', ['cli', 'kit', 'properties', 'recordings', 'traffic', 'bench']],
    ['properties', ['cli', 'kit', 'scenarios', 'recordings', 'traffic', 'bench']],
    ['client', ['cli', 'kit', 'scenarios', 'properties', 'recordings', 'sim', 'traffic', 'bench']],
    ['recordings', ['cli', 'kit', 'traffic', 'bench']],
    ['kit', ['cli', 'traffic', 'bench']],
    ['traffic', ['cli', 'bench']],
    ['cli', ['bench']],
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
