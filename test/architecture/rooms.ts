/**
 * The house as the imports build it: each folder of src/ is a room, and so is each file at its top; a
 * room's floor is one above the highest room it imports (the ground is 1). Read from the source, so the
 * floor plan in docs/architecture.md can be checked against it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const SRC = join(import.meta.dirname, '../../src');

/** Every .ts file under `dir`. */
export const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : []));

/** The relative modules a file imports, statically or dynamically. */
export const importsOf = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1] as string);

/** A path's room, as the floor plan names it: `src/store/` for a folder, `src/port.ts` for a top-level file. */
function roomOf(path: string): string {
  const parts = relative(SRC, path).split(/[\\/]/);
  return parts.length === 1 ? `src/${(parts[0] ?? '').replace(/\.js$/, '.ts')}` : `src/${parts[0] ?? ''}/`;
}

/** Each room and the rooms it imports (itself left out). */
export function roomImports(): Map<string, Set<string>> {
  const rooms = new Map<string, Set<string>>();
  for (const file of files(SRC)) {
    const room = roomOf(file);
    const imported = rooms.get(room) ?? new Set<string>();
    rooms.set(room, imported);
    for (const spec of importsOf(file)) {
      const target = roomOf(join(file, '..', spec));
      if (target !== room) imported.add(target);
    }
  }
  return rooms;
}

/** Each room's floor; throws naming a loop of rooms when there is one (no floor can be given then). */
export function floors(rooms: Map<string, Set<string>>): Map<string, number> {
  const floor = new Map<string, number>();
  const visiting: string[] = [];
  const of = (room: string): number => {
    const known = floor.get(room);
    if (known !== undefined) return known;
    if (visiting.includes(room)) throw new Error(`rooms import each other: ${[...visiting.slice(visiting.indexOf(room)), room].join(' → ')}`);
    visiting.push(room);
    let highest = 0;
    for (const below of rooms.get(room) ?? []) highest = Math.max(highest, of(below));
    visiting.pop();
    floor.set(room, highest + 1);
    return highest + 1;
  };
  for (const room of rooms.keys()) of(room);
  return floor;
}

/** Each file of src/ and the files it imports (paths relative to src/, `.ts`). */
export function fileImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files(SRC)) {
    const targets = new Set<string>();
    for (const spec of importsOf(file)) targets.add(relative(SRC, join(file, '..', spec)).replace(/\.js$/, '.ts'));
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}
