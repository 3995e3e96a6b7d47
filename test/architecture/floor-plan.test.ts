/**
 * The floor plan (docs/architecture.md, moved there from the README by issue 35) is the house (issue 29): every room of src/ (each folder, each top-level file)
 * is in the table once, on the floor its imports put it, so every import points down and no two rooms
 * import each other. The rooms are read from the source (rooms.ts), never listed here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { relative } from 'node:path';
import { fileImports, files, floors, roomImports, SRC } from './rooms.js';

const architecture = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');

/** The table under "## The floor plan": each room named in a row's rooms cell, and the floor the row gives it. */
function plan(): Map<string, number> {
  const plan = architecture.slice(architecture.indexOf('## The floor plan'));
  const table = plan.slice(plan.indexOf('| floor | rooms | holds |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  const placed = new Map<string, number>();
  for (const row of rows) {
    const [floor, rooms] = row.split(' | ').map((cell) => cell.replace(/^\|\s*/, '').trim());
    for (const [, room] of (rooms ?? '').matchAll(/`(src\/[^`]+)`/g)) {
      expect(placed.has(room ?? ''), `${room} is in the table twice`).toBe(false);
      placed.set(room ?? '', Number(floor));
    }
  }
  return placed;
}

describe('the floor plan (docs/architecture.md)', () => {
  const rooms = roomImports();

  it('has no two rooms importing each other, however far round', () => {
    expect(() => floors(rooms)).not.toThrow();
  });

  it('places every room of src/, and only those, on the floor its imports put it', () => {
    const built = Object.fromEntries([...floors(rooms)].sort());
    const drawn = Object.fromEntries([...plan()].sort());
    expect(drawn).toEqual(built);
  });

  it('has no two files importing each other either, however far round (a type import counts)', () => {
    expect(() => floors(fileImports())).not.toThrow();
  });

  it('has no source file over 500 lines (a larger one holds more than one concern)', () => {
    const long = files(SRC)
      .map((file) => [relative(SRC, file), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 500);
    expect(long).toEqual([]);
  });

  it('reads a loop of rooms as one (the check above is not vacuous)', () => {
    const loop = new Map([
      ['src/a/', new Set(['src/b/'])],
      ['src/b/', new Set(['src/a/'])],
    ]);
    expect(() => floors(loop)).toThrow('rooms import each other: src/a/ → src/b/ → src/a/');
    expect(floors(new Map([['src/a/', new Set(['src/b/'])]]))).toEqual(
      new Map([
        ['src/b/', 1],
        ['src/a/', 2],
      ]),
    );
  });
});
