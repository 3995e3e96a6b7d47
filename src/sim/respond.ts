/** Response builders: JSON bodies with the right headers, and the API's error envelope. */
import type { Result } from '../result.js';
import { apiError, type ApiError, type ErrorKind } from '../engine/api-errors.js';
import { bodyShapeProblem } from '../engine/field-limits.js';
import type { SimResponse } from './messages.js';
import { partsText, type BodyParts } from './body-parts.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

export function jsonText(status: number, body: string, headers: Readonly<Record<string, string>> = {}): SimResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body };
}

/**
 * A JSON answer made of parts (a served list page): see body-parts.ts. `body`, the text, is decoded only
 * if read (a reading that reshapes the body), once. A class, not an object literal with a getter: a
 * closure per answer kept each page alive long enough to cost garbage collection per read. Copy it with
 * `withMembers`, never with a spread.
 */
class PartsResponse implements SimResponse {
  readonly headers = JSON_HEADERS;
  private text: string | undefined;
  constructor(
    readonly status: number,
    readonly parts: BodyParts,
  ) {}
  get body(): string {
    return (this.text ??= partsText(this.parts));
  }
}

export function jsonParts(status: number, parts: BodyParts): SimResponse {
  return new PartsResponse(status, parts);
}

/** A response with more members (transport, headers): a plain copy, its body read out if it is built lazily. */
export function withMembers(res: SimResponse, more: Partial<SimResponse>): SimResponse {
  return {
    status: res.status,
    headers: res.headers,
    body: res.body,
    ...(res.parts === undefined ? {} : { parts: res.parts }),
    ...(res.compress === undefined ? {} : { compress: res.compress }),
    ...(res.transport === undefined ? {} : { transport: res.transport }),
    ...more,
  };
}

export function json(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): SimResponse {
  return jsonText(status, JSON.stringify(value), headers);
}

export function errors(list: readonly ApiError[], headers: Readonly<Record<string, string>> = {}): SimResponse {
  const status = list[0]?.status ?? 400;
  return json(status, { errors: list }, headers);
}

export function error(kind: ErrorKind, detail?: string, headers: Readonly<Record<string, string>> = {}): SimResponse {
  return errors([apiError(kind, detail)], headers);
}

/**
 * A write past the project's own cap (store/project.ts DEFAULT_MAX_PROJECT_RECORDS) or past the record
 * budget every project and the seeded data share (store/record-budget.ts).
 */
export function projectFull(full: { readonly kind: 'project' | 'budget'; readonly limit: number }): SimResponse {
  const n = full.limit.toLocaleString('en-US');
  return full.kind === 'project'
    ? error('unprocessable', `This simulated project holds as many written records as it may (${n}); reset it (POST /__sim/reset) or start the simulator with a larger --max-project-records`)
    : error(
        'unprocessable',
        `The simulator holds as many records as its record budget allows (${n}, shared by the seeded data and every project); reset it (POST /__sim/reset) or start it with a larger --max-records (and heap)`,
      );
}

export function noContent(): SimResponse {
  return { status: 204, headers: {}, body: '' };
}

export { isJsonObject } from '../engine/json.js';

/**
 * Parse a JSON request body of the API or the admin API: measured first, so a body past the shape limits
 * (engine/field-limits.ts MAX_BODY_DEPTH, MAX_BODY_VALUES) is a 400 naming the limit before any parse;
 * malformed JSON is a 400 too.
 */
export function parseJsonBody(body: string): Result<unknown, { response: SimResponse }> {
  const problem = bodyShapeProblem(body);
  return problem === undefined ? parseBody(body) : { ok: false, response: error('bad-request', problem) };
}

/**
 * Parse a JSON request body with no bound on its shape: only for POST /__sim/restore (admin token),
 * whose snapshots are large by nature and are checked by their own reader. Every other route reads
 * its body with parseJsonBody.
 */
function parseBody(body: string): Result<unknown, { response: SimResponse }> {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false, response: error('bad-request', 'Malformed JSON: the request body could not be parsed') };
  }
}
