/**
 * One authenticated documented request before a run against a URL (commerce-api.md §4.2, §5), so a
 * wrong token or a base URL that is not the API stops the run with exit 2 instead of a report full of
 * "documented rule failed".
 */
import { TargetError, parseJsonOrUndefined, type Target } from '../port.js';

const PREFLIGHT_URL = '/v2/accounts?page[limit]=1';

export interface PreflightOptions {
  /** False when no token or client credentials were given: a 401 then says so instead of "refused". */
  readonly credentials?: boolean;
  /** True when the caller retries 5xx answers itself (the export's client): a 5xx then shows only that the target answered. */
  readonly callerRetries?: boolean;
}

/** Whether a token or client credentials were given (the simulator needs none). */
export function hasCredentials(c: { readonly token?: string | undefined; readonly clientId?: string | undefined; readonly clientSecret?: string | undefined }): boolean {
  return c.token !== undefined || c.clientId !== undefined || c.clientSecret !== undefined;
}

export async function preflight(target: Target, options: PreflightOptions = {}): Promise<void> {
  const response = await target.send({ method: 'GET', url: PREFLIGHT_URL });
  const where = `GET ${target.baseUrl}${PREFLIGHT_URL}`;
  if (response.status === 401 || response.status === 403) {
    const why =
      options.credentials === false
        ? 'no credentials were given (--token-env VAR, or --client-id ID --client-secret-env VAR)'
        : 'the credentials were refused (check --token-env or --client-id/--client-secret-env)';
    throw new TargetError('TARGET_AUTH_FAILED', `${where} answered ${response.status}: ${why}`);
  }
  // Still rate limited after the target's own retries: the API is there, the run paces itself.
  if (response.status === 429 || (options.callerRetries === true && response.status >= 500)) return;
  const json = parseJsonOrUndefined(response.body);
  const isList = typeof json === 'object' && json !== null && !Array.isArray(json) && Array.isArray((json as { data?: unknown }).data);
  if (response.status !== 200 || !isList) {
    const what = json === undefined ? `a ${response.headers['content-type'] ?? 'non-JSON'} body` : 'JSON without a data array';
    throw new TargetError('TARGET_NOT_API', `${where} answered ${response.status} with ${what}: is the base URL the API's (without /v2)?`);
  }
}
