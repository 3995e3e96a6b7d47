import { describeShapeProblem, jsonShapeProblem } from './json-shape.js';

/**
 * How long a written value may be. The API document states only the password's minimum (8, §2.1); the
 * public documentation gives no maxima, so these are the simulator's own documented defaults (docs/security.md,
 * "Limits"): long enough for any real value, short enough that no write can grow a page or a record
 * without bound. Counted in characters (code points), as the minimum is.
 */
export const MAX_TEXT_LENGTH = 255;
export const MAX_PASSWORD_LENGTH = 1024;
/** A client id names a project and keys every token of it. */
export const MAX_CLIENT_ID_LENGTH = 255;
export const MAX_SECRET_LENGTH = 1024;

/** Characters (code points), stopping early: a megabyte of text is never walked whole. */
export function exceeds(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let n = 0;
  for (const _ of text) if (++n > max) return true;
  return false;
}

/**
 * The shape of a JSON request body, unknown members included (engine/json-shape.ts counts it before any
 * parse): every route that reads one but POST /__sim/restore, whose snapshots are large by nature. The
 * largest body of this API, an admin reseed naming every count, deviation and reading, holds about a
 * hundred values two levels deep; a parse costs by values, not bytes, so these keep one to ~1 ms.
 */
export const MAX_BODY_DEPTH = 32;
export const MAX_BODY_VALUES = 1000;

/** Why a request body's shape is refused, as a 400's detail, or undefined when it is within both limits. */
export function bodyShapeProblem(text: string): string | undefined {
  const problem = jsonShapeProblem(text, { maxDepth: MAX_BODY_DEPTH, maxValues: MAX_BODY_VALUES });
  return problem === undefined ? undefined : `The request body ${describeShapeProblem(problem)}`;
}
