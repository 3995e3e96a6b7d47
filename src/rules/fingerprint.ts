/**
 * A deployment's readings, learned from its answers: for each point the document leaves open
 * (rules/readings.ts), which value the exchanges of a run show, or that they did not reach the point, or
 * that what they show is none of the known values (with the evidence). Fed one exchange at a time, so a
 * run of any length keeps only a few lines per point; the observed values make a readings file that
 * `serve --readings FILE` and `startSimulator({ readings })` play.
 */
import type { Exchange } from '../port.js';
import { READING_NAMES, READING_POINTS, type ReadingChoice, type ReadingName } from './readings.js';
import { finishNotes, observeExchange, type PointNotes } from './fingerprint-points.js';

/** What a run shows of one point. */
export type PointObservation =
  | { readonly kind: 'observed'; readonly value: string; readonly evidence: string }
  | { readonly kind: 'not-observed'; readonly reason: string }
  | { readonly kind: 'unknown'; readonly evidence: string };

export type Fingerprint = { readonly [N in ReadingName]: PointObservation };

export interface FingerprintOptions {
  /** The origin the requests were sent to (links at another origin are `links.origin=canonical`). */
  readonly origin: string;
  /** Whether the answers came over HTTP: in process there is no compression or connection to see. */
  readonly wire: boolean;
}

/** What each point needs that a run may not have sent, said when the point stays unobserved. */
const NEEDS: Readonly<Record<ReadingName, string>> = {
  'meta.position': 'no list answer with page and results',
  'meta.numbers': 'no list answer with page.limit',
  'page.current': 'no list read at offset 0 showing page.current',
  'page.grid': 'no read from an offset off the limit’s grid where the two page counts differ',
  'page.current-past-end': 'no read past the last page of a non-empty result',
  'page.total-empty': 'no read of an empty result',
  links: 'no list answer',
  'links.origin': 'no absolute link in an answer',
  'timestamps.precision': 'no list record with created_at',
  'timestamps.placement': 'no list record with created_at',
  'ids.format': 'no list read of each of /v2/accounts, /v2/orders and /v2/files',
  'ids.case': 'no UUID-shaped id with a letter in it',
  'order.unsorted': 'no unsorted read of two or more records with distinct created_at',
  'order.ties': 'no sorted read with two records sharing the sort value',
  'limit.above-max': 'no read with page[limit] above 100',
  'limit.zero': 'no read with page[limit]=0',
  'offset.edge': 'no read at the offset limit itself with reads on both sides of it, nor a hard-limited page reaching past the 10,000th record',
  'offset.past-hard': 'no read past offset 10,000 on /v2/orders or /v2/files',
  'offset.past-soft': 'no read past the soft offset limit of a set with records there',
  'password.characters': 'no create whose password is 8 characters under one reading of “character” and not under another',
  'errors.format': 'no error answer with a JSON body',
  'errors.validation-status': 'no create refused for a password shorter than 8 characters',
  usernames: 'no create repeating a username created before under the same parent',
  'create.media-type': 'no create sent without a JSON media type',
  'create.hyphen-type': 'no otherwise valid create with the hyphenated type',
  'auth.reads': 'no list read without an Authorization header',
  'token.endpoint': 'no request to POST /oauth/access_token',
  'settings.path': 'no read of /v2/settings',
  compression: 'no answer over HTTP (in process there is no compression to see)',
  connection: 'no answer over HTTP (in process there are no connections to see)',
  'media-type': 'no JSON answer',
};

/** Feeds exchanges in, gives the fingerprint out. */
export class FingerprintCollector {
  private readonly notes: PointNotes;

  constructor(options: FingerprintOptions) {
    this.notes = newNotes(options);
  }

  observe(ex: Exchange): void {
    observeExchange(ex, this.notes);
  }

  result(): Fingerprint {
    finishNotes(this.notes);
    const out: Partial<Record<ReadingName, PointObservation>> = {};
    for (const name of READING_NAMES) out[name] = conclude(name, this.notes);
    return out as Fingerprint;
  }
}

function newNotes(options: FingerprintOptions): PointNotes {
  const seen = new Map<ReadingName, Map<string, string>>();
  const odd = new Map<ReadingName, string>();
  return {
    options,
    seen,
    odd,
    note(point, value, evidence) {
      let values = seen.get(point);
      if (values === undefined) seen.set(point, (values = new Map()));
      if (!values.has(value) && values.size < 8) values.set(value, evidence);
    },
    unknown(point, evidence) {
      if (!odd.has(point)) odd.set(point, evidence);
    },
    state: {},
  };
}

function conclude(name: ReadingName, notes: PointNotes): PointObservation {
  const values = [...(notes.seen.get(name) ?? new Map<string, string>())];
  const odd = notes.odd.get(name);
  if (odd !== undefined) return { kind: 'unknown', evidence: odd };
  if (values.length === 0) return { kind: 'not-observed', reason: notes.state.reasons?.get(name) ?? NEEDS[name] };
  const [first] = values;
  if (values.length === 1 && first !== undefined) return { kind: 'observed', value: first[0], evidence: first[1] };
  // Two known values at one point: the deployment answers neither way throughout.
  return { kind: 'unknown', evidence: values.map(([v, e]) => `${v}: ${e}`).join('; ') };
}

/** The observed values as a readings choice (the points not observed take the public API's when played). */
export function observedReadings(print: Fingerprint): ReadingChoice {
  const out: Record<string, string> = {};
  for (const name of READING_NAMES) {
    const o = print[name];
    if (o.kind === 'observed') out[name] = o.value;
  }
  return out as ReadingChoice;
}

/** The fingerprint of a set of exchanges at once. */
export function fingerprintOf(exchanges: Iterable<Exchange>, options: FingerprintOptions): Fingerprint {
  const collector = new FingerprintCollector(options);
  for (const ex of exchanges) collector.observe(ex);
  return collector.result();
}

/** The question a point asks, for reports. */
export const pointQuestion = (name: ReadingName): string => READING_POINTS[name].question;
