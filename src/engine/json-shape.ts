/**
 * The shape of JSON text without parsing it: how deep it nests and how many values it holds. A parse
 * costs memory and time by the number of values, not the bytes (a 1 MiB body of `[[[[...` or of 60,000
 * members builds far more than 1 MiB of objects), so a body is measured first, in one pass over its
 * characters with no allocation, and refused before `JSON.parse` when its shape is past a limit.
 */
import { JSON_MARKS, scalarEnd, stringClose } from '../json-scan.js';

const { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = JSON_MARKS;

export interface ShapeLimits {
  /** Deepest nesting of objects and arrays (a scalar body is 0, `{}` is 1). */
  readonly maxDepth: number;
  /** Most values: every object member and array element, the containers themselves included. */
  readonly maxValues: number;
}

export type ShapeProblem = { readonly kind: 'depth'; readonly limit: number } | { readonly kind: 'values'; readonly limit: number };

/**
 * The first limit the text passes, or undefined. Malformed text is not judged here (the parser that
 * follows says so). The count bounds what a parse builds from above: each container counts one, and
 * so does each member or element (a member whose value is a container counts twice).
 */
export function jsonShapeProblem(text: string, limits: ShapeLimits): ShapeProblem | undefined {
  let depth = 0;
  let values = 0;
  // Whether the innermost open container has had a value yet (its first value has no comma before it).
  let emptyContainer = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Any control character counts as space here (malformed text is the parser's to refuse).
    if (c <= 0x20) continue;
    if (emptyContainer && c !== CLOSE_OBJECT && c !== CLOSE_ARRAY) {
      values++;
      emptyContainer = false;
    }
    if (c === QUOTE) i = stringClose(text, i + 1, n);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limits.maxDepth) return { kind: 'depth', limit: limits.maxDepth };
      values++;
      emptyContainer = true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      emptyContainer = false;
    } else if (c === COMMA) values++;
    else if (c !== COLON) i = scalarEnd(text, i + 1, n) - 1; // a scalar: nothing more to count until its end
    if (values > limits.maxValues) return { kind: 'values', limit: limits.maxValues };
  }
  return undefined;
}

/** The refusal's words: what the limit is, for a 400's detail. */
export function describeShapeProblem(problem: ShapeProblem): string {
  return problem.kind === 'depth' ? `nests deeper than ${problem.limit} levels` : `holds more than ${problem.limit} values`;
}
