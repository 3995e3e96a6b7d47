/**
 * What the walk and session rules are handed once an exchange's turn is over. They judge chunks of
 * exchanges later (a walk's 50 pages, a session's 400 exchanges), so whatever they hold outlives the young
 * generation and is promoted: a page of 100 parsed records held whole cost about as much in garbage
 * collection as the rest of the judging (issue 34). Held, a list body keeps its envelope (meta and links,
 * found wherever a reading puts them) and of each record only what those rules read of it, read once: its
 * id, its timestamps, and the attributes its own read sorts or filters by (`HeldRecord`). The parsed record
 * (nested meta, links, every other attribute) is let go with the turn, young. The texts stay, since a finding's
 * evidence shows them, but outside the JS heap (`HeldResponse`): held for 50 pages, a page's text was promoted and
 * copied by the collector like everything else held (on a walk of 2,020 pages of 100, 117 of the 118 MB promoted).
 *
 * A chunk's rules may read, of a page's records, an attribute another read of the chunk names (a filtered
 * read's total set against an unfiltered page, a ge read against records seen before it). Before a chunk is
 * judged, `widen` gives each page held without one of them its records again from its body text, read as
 * the exchange was (`Exchange.json` is `JSON.parse(response.body)`, src/port.ts): the verdicts are those
 * on whole exchanges (test/traffic/verdicts-unchanged.test.ts).
 */
import { parseJsonOrUndefined, type Exchange, type TargetRequest, type TargetResponse } from '../../port.js';
import { isObject } from '../../rules/inspect-json.js';
import { isGet, listQuery, parsedClauses, readSort, recordFacts } from '../../rules/inspect.js';
import type { TrafficEntry } from '../entry.js';

/** What the rules read of any list record, whatever its read names (what every HeldRecord keeps). */
const ALWAYS: readonly string[] = ['id', 'created_at', 'updated_at'];

/**
 * A list page's answer as held: its text as bytes outside the JS heap, read back only when something asks for it (a
 * finding's evidence, `widen`). ASCII text is kept a byte a character; any other text as UTF-16 code units, so that
 * every string (a lone surrogate escaped in a HAR's text too) reads back as it was.
 */
export class HeldResponse implements TargetResponse {
  private readonly bytes: Buffer;
  private readonly ascii: boolean;
  /** `body.length`, without reading the body back (the budget counts it). */
  readonly length: number;

  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    body: string,
  ) {
    this.length = body.length;
    this.ascii = Buffer.byteLength(body, 'utf8') === body.length;
    this.bytes = Buffer.from(body, this.ascii ? 'latin1' : 'utf16le');
  }

  get body(): string {
    return this.bytes.toString(this.ascii ? 'latin1' : 'utf16le');
  }
}

/** An exchange as held: its list body's records reduced to the attributes `covers` names (widened in place). */
class HeldExchange implements Exchange {
  constructor(
    readonly request: TargetRequest,
    readonly response: TargetResponse,
    public json: unknown,
    public covers: ReadonlySet<string>,
  ) {}
}

/** The attributes a read names (its sort, its filter's clauses), with those every record keeps. */
function namesOf(ex: Exchange): ReadonlySet<string> {
  const names = new Set(ALWAYS);
  if (!isGet(ex)) return names;
  const q = listQuery(ex.request.url);
  const sorted = readSort(q.sort)?.field;
  if (sorted !== undefined) names.add(sorted);
  for (const c of parsedClauses(q.filter)) names.add(c.field);
  return names;
}

/** The list body with its records reduced to `names`; undefined when `json` is no list with records. */
function reduced(json: unknown, names: ReadonlySet<string>): Record<string, unknown> | undefined {
  if (!isObject(json)) return undefined;
  const data = json['data'];
  if (!Array.isArray(data) || data.length === 0) return undefined;
  const body: Record<string, unknown> = {};
  // Beyond what every held record keeps; one list for the page.
  const more = [...names].filter((n) => !ALWAYS.includes(n));
  for (const k of Object.keys(json)) {
    const v = k === 'data' ? data.map((r) => recordFacts(r, more)) : json[k];
    // JSON.parse makes `__proto__` an own member; so must the copy.
    if (k === '__proto__') Object.defineProperty(body, k, { value: v, enumerable: true, writable: true, configurable: true });
    else body[k] = v;
  }
  return body;
}

/** `entry` as walks and sessions hold it: a list body reduced to what its rules read; `entry` itself otherwise. */
export function heldForm(entry: TrafficEntry): TrafficEntry {
  const ex = entry.exchange;
  const names = namesOf(ex);
  const body = reduced(ex.json, names);
  if (body === undefined) return entry;
  const r = ex.response;
  return { ...entry, exchange: new HeldExchange(ex.request, new HeldResponse(r.status, r.headers, r.body), body, names) };
}

/** Before `held` is judged together: each page given back, from its text, the attributes any read of it names. */
export function widen(held: readonly TrafficEntry[]): void {
  let needed: Set<string> | undefined;
  for (const e of held) {
    const names = namesOf(e.exchange);
    if (names.size === ALWAYS.length) continue;
    needed ??= new Set(ALWAYS);
    for (const n of names) needed.add(n);
  }
  if (needed === undefined) return;
  for (const e of held) {
    const ex = e.exchange;
    if (!(ex instanceof HeldExchange) || [...needed].every((n) => ex.covers.has(n))) continue;
    const names = new Set([...ex.covers, ...needed]);
    const body = reduced(parseJsonOrUndefined(ex.response.body), names);
    if (body === undefined) continue;
    ex.json = body;
    ex.covers = names;
  }
}
