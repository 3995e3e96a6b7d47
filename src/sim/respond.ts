/** Response builders: JSON bodies with the right headers, and the API's error envelope. */
import type { Result } from '../result.js';
import { apiError, type ApiError, type ErrorKind } from '../engine/api-errors.js';
import type { SimResponse } from './messages.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

export function jsonText(status: number, body: string, headers: Readonly<Record<string, string>> = {}): SimResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body };
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

/** Parse a JSON request body; malformed JSON is a 400 in the API's error shape. */
export function parseBody(body: string): Result<unknown, { response: SimResponse }> {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false, response: error('bad-request', 'Malformed JSON: the request body could not be parsed') };
  }
}
