/** What the fingerprint's detectors write to (rules/fingerprint-points.ts, fingerprint-lists.ts): the notes, the facts kept for later, the evidence line. */
import type { Exchange } from '../port.js';
import { at } from './inspect-json.js';
import { describe } from './inspect.js';
import type { ReadingName } from './readings.js';

export interface PointNotes {
  readonly options: { readonly origin: string; readonly wire: boolean };
  readonly seen: Map<ReadingName, Map<string, string>>;
  readonly odd: Map<ReadingName, string>;
  note(point: ReadingName, value: string, evidence: string): void;
  unknown(point: ReadingName, evidence: string): void;
  readonly state: State;
}

interface State {
  /** Why a point stays unobserved when the evidence left several values open. */
  reasons?: Map<ReadingName, string>;
  /** The soft offset limit in force, as the last settings answer showed it. */
  softLimit?: number;
  /** Reads past the last page: the reading needs page.current's base to be told apart. */
  pastEnd?: { readonly counted: number; readonly last: number; readonly current: number; readonly evidence: string }[];
  /** Id forms seen, by collection path. */
  idForms?: Map<string, Map<string, string>>;
  /** What `password.characters` values the creates leave open. */
  characters?: Set<string>;
  charactersEvidence?: string[];
  /** Usernames created, by parent path. */
  usernames?: Set<string>;
  /** Compression: what answers to requests that asked for gzip, and to those that did not, came in. */
  gzip?: { askedGot?: string; askedNot?: string; unaskedGot?: string };
  /** Answers at the offset limit itself and just past it, by path kind. */
  edge?: Map<string, { at: { status: number; records: number; total: number | undefined; evidence: string }[]; past?: { status: number; evidence: string } }>;
}

/** The evidence line of an exchange: its request and status. */
export const ev = (ex: Exchange, detail = ''): string => `${describe(ex)} → ${ex.response.status}${detail === '' ? '' : `: ${detail}`}`;

export function parsed(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '') as unknown;
  } catch {
    return undefined;
  }
}

export function requestData(ex: Exchange): unknown {
  try {
    return at(JSON.parse(ex.request.body ?? '') as unknown, 'data');
  } catch {
    return undefined;
  }
}
