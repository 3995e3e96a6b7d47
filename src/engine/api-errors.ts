/**
 * Errors the simulator serves, in the API's own shape: `{"errors": [{status, title, detail?, source?}]}`
 * (docs/api-notes.md, Errors). Built from one table of templates so a status and its title are written once.
 */
import type { Result } from '../result.js';

export interface ApiError {
  readonly status: number;
  readonly title: string;
  readonly detail?: string;
  readonly source?: string;
}

export type ErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'unprocessable'
  | 'rate-limited'
  | 'internal'
  | 'unavailable';

const templates: Readonly<Record<ErrorKind, { status: number; title: string }>> = {
  'bad-request': { status: 400, title: 'Bad Request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  'payload-too-large': { status: 413, title: 'Payload Too Large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  unprocessable: { status: 422, title: 'Unprocessable Entity' },
  'rate-limited': { status: 429, title: 'Too Many Requests' },
  // Only ever injected on purpose (the adversity's error_share), never an answer to bad input.
  internal: { status: 500, title: 'Internal Server Error' },
  unavailable: { status: 503, title: 'Service Unavailable' },
};

export function apiError(kind: ErrorKind, detail?: string, source?: string): ApiError {
  const t = templates[kind];
  return {
    status: t.status,
    title: t.title,
    ...(detail === undefined ? {} : { detail }),
    ...(source === undefined ? {} : { source }),
  };
}

/** Result of a pure decision that may be refused with an API error. */
export type Decision<T> = Result<T, { readonly error: ApiError }>;

export const ok = <T>(value: T): Decision<T> => ({ ok: true, value });
export const refuse = (error: ApiError): Decision<never> => ({ ok: false, error });
