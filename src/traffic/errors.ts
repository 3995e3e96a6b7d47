/**
 * The one error of reading traffic files: a HAR or a recording that cannot be read, is not what it
 * claims, or holds an entry the judge cannot use. The message names the file and, when one is to
 * blame, the entry (1-based, as in each entry's `source`): `traffic.har: entry 12: response.status missing`.
 */
import { CodedKitError } from '../kit-errors.js';

export class TrafficInputError extends CodedKitError<'TRAFFIC_BAD_INPUT'> {
  override readonly name = 'TrafficInputError';
}

/** `file: message`, or `file: entry n: message` when an entry is to blame. */
export function trafficInputError(file: string, message: string, entry?: number, cause?: unknown): TrafficInputError {
  const where = entry === undefined ? file : `${file}: entry ${entry}`;
  return new TrafficInputError('TRAFFIC_BAD_INPUT', `${where}: ${message}`, cause === undefined ? undefined : { cause });
}
