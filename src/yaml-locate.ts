/**
 * Where a member of a parsed YAML (or JSON) document is written, from the yaml library's node ranges,
 * and how a person names it (`steps[0].request.method`): for errors of the form `file:line: path: what`.
 */
import { isMap, isPair, isScalar, isSeq, type Document } from 'yaml';

/** Keys and indexes from the document's top down to a member. */
export type DocPath = readonly (string | number)[];

/** `steps[0].request`, `vars['odd key']`, or `(document)` for the top level. */
export function yamlPath(path: DocPath): string {
  if (path.length === 0) return '(document)';
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += /^[A-Za-z_][A-Za-z0-9_-]*$/.test(seg) ? `${out === '' ? '' : '.'}${seg}` : `['${seg}']`;
  }
  return out;
}

/** Offset of the node at `path` (the key of a map member, so a block value points at its key line); the nearest existing ancestor otherwise. */
export function locate(doc: Document, path: DocPath): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (pair === undefined) break;
      offset = rangeStart(pair.key) ?? rangeStart(pair.value) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item: unknown = node.items[seg];
      if (item === undefined) break;
      offset = rangeStart(item) ?? offset;
      node = item;
    } else break;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  if (typeof node !== 'object' || node === null || !('range' in node)) return undefined;
  const range: unknown = node.range;
  return Array.isArray(range) && typeof range[0] === 'number' ? range[0] : undefined;
}
