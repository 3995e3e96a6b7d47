/**
 * How the simulator plays a combination of readings (rules/readings.ts): what each point decides is
 * handed to the engine (page limits, order, filters, create validation) and to the serialiser (record
 * shape, list envelope); what is the answer's wire form (error body, media type, connection,
 * compression) is applied here to every API answer. The public API's readings take none of these
 * paths: the default simulator answers byte for byte as before.
 */
import { idCodec, SAME_IDS, UPPER_UUIDS, type IdCodec, type IdFormat } from '../engine/ids.js';
import { PUBLIC_LIST_READINGS, type ListReadings } from '../engine/list-plan.js';
import type { PageCounting, PageLinks, PageMeta, PageReadings } from '../engine/pagination.js';
import type { CreateReadings } from '../engine/password-profile-validation.js';
import { changedReadings, DEFAULT_READINGS, withDefaults, type ReadingChoice, type Readings } from '../rules/readings.js';
import type { ResourceDef } from '../store/resources.js';
import { PUBLIC_SHAPE, type RecordShape } from './serialize.js';
import type { SimRequest, SimResponse } from './messages.js';

/** The canonical origin of `links.origin=canonical`: a deployment behind a gateway names its own. */
const CANONICAL_ORIGIN = 'https://api.commerce.example';

/** `ids.format=per-collection`: accounts UUIDs, orders prefixed, files numeric, the others in that turn by name. */
function collectionIdFormat(name: string): IdFormat {
  const fixed: Readonly<Record<string, IdFormat>> = { accounts: 'uuid', orders: 'prefixed', files: 'numeric' };
  const turn: readonly IdFormat[] = ['uuid', 'prefixed', 'numeric'];
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return fixed[name] ?? turn[h % 3] ?? 'uuid';
}

export class ReadingsPlay {
  readonly readings: Readings;
  /** Every point at the public API's reading: nothing to do. */
  readonly plain: boolean;
  readonly counting: PageCounting;
  readonly page: PageReadings;
  readonly create: CreateReadings;
  private readonly shapes = new Map<string, RecordShape>();
  private readonly lists = new Map<string, ListReadings>();

  constructor(choice: ReadingChoice | undefined) {
    this.readings = withDefaults(choice);
    const r = this.readings;
    this.plain = Object.keys(changedReadings(r)).length === 0;
    this.counting = { current: r['page.current'], emptyTotal: r['page.total-empty'], grid: r['page.grid'], pastEnd: r['page.current-past-end'] };
    this.page = { edge: r['offset.edge'], aboveMax: r['limit.above-max'], zero: r['limit.zero'], pastHard: r['offset.past-hard'], pastSoft: r['offset.past-soft'] };
    this.create = {
      characters: r['password.characters'],
      hyphenType: r['create.hyphen-type'],
      status: r['errors.validation-status'] === '422' ? 422 : 400,
      usernames: r.usernames,
      mediaType: r['create.media-type'],
    };
  }

  /** How a resource's ids are shown (authentication records keep the UUIDs §2.1 states, in the reading's letter case). */
  ids(resource: ResourceDef): IdCodec {
    const uuids = this.readings['ids.case'] === 'upper' ? UPPER_UUIDS : SAME_IDS;
    if (resource.timestamps === 'meta') return uuids;
    const format = this.readings['ids.format'] === 'per-collection' ? collectionIdFormat(resource.name) : this.readings['ids.format'];
    return format === 'uuid' ? uuids : idCodec(format, resource.type.slice(0, 3));
  }

  /** Paths the deployment does not have where the readings say so: the settings endpoint (`settings.path=hidden`), the token endpoint (`token.endpoint=absent`). */
  hides(path: string): boolean {
    return (path === '/v2/settings' && this.readings['settings.path'] === 'hidden') || (path === '/oauth/access_token' && this.readings['token.endpoint'] === 'absent');
  }

  /** The stored form of an id in a path (`ids.case=upper`: read in either case). */
  storedId(text: string): string {
    return this.readings['ids.case'] === 'upper' ? (UPPER_UUIDS.stored(text) ?? text) : text;
  }

  /** The origin of absolute links: the request's, or the deployment's canonical one (`links.origin`). */
  origin(requestOrigin: string): string {
    return this.readings['links.origin'] === 'canonical' ? CANONICAL_ORIGIN : requestOrigin;
  }

  /** The record shape of a resource's answers. */
  shape(resource: ResourceDef): RecordShape {
    if (this.plain) return PUBLIC_SHAPE;
    let shape = this.shapes.get(resource.name);
    if (shape === undefined) {
      const r = this.readings;
      const ids = this.ids(resource);
      const links = r.links === 'present';
      const changed = r['timestamps.precision'] !== 'ms' || r['timestamps.placement'] !== 'meta.timestamps' || ids !== SAME_IDS || !links;
      const key = `${r['timestamps.precision']}/${r['timestamps.placement']}/${r['ids.format']}/${r['ids.case']}/${r.links}`;
      shape = changed ? { key, precision: r['timestamps.precision'], placement: r['timestamps.placement'], ids, links } : PUBLIC_SHAPE;
      this.shapes.set(resource.name, shape);
    }
    return shape;
  }

  /** What a list read of the resource decides where the document is silent. */
  list(resource: ResourceDef): ListReadings {
    if (this.plain) return PUBLIC_LIST_READINGS;
    let list = this.lists.get(resource.name);
    if (list === undefined) {
      list = { page: this.page, unsorted: this.readings['order.unsorted'], precision: this.readings['timestamps.precision'], ids: this.ids(resource) };
      this.lists.set(resource.name, list);
    }
    return list;
  }

  /** `{"data":[...], <page and results where the reading puts them>, <links unless absent>}`. */
  envelope(data: string, meta: PageMeta, links: PageLinks): string {
    const r = this.readings;
    const text = r['meta.numbers'] === 'string';
    const page = JSON.stringify(text ? numbersAsText(meta.page) : meta.page);
    const results = JSON.stringify(text ? numbersAsText(meta.results) : meta.results);
    let members: string;
    switch (r['meta.position']) {
      case 'meta':
        members = `"meta":{"page":${page},"results":${results}}`;
        break;
      case 'top':
        members = `"page":${page},"results":${results}`;
        break;
      case 'nested':
        members = `"meta":{"listing":{"paging":{"page":${page},"results":${results}}}}`;
        break;
      case 'split':
        members = `"page":${page},"meta":{"results":${results}}`;
        break;
      case 'deep':
        members = `"meta":${DEEP_OPEN}"page":${page},"results":${results}${DEEP_CLOSE}`;
        break;
    }
    const linked = r.links === 'present' ? `,"links":${JSON.stringify(links)}` : '';
    return `{"data":[${data}],${members}${linked}}`;
  }

  /**
   * The wire form of an API answer: the error body and media type, `Connection: close`, and whether the
   * HTTP adapter compresses it. The token endpoint and the admin API are not the API: they keep theirs.
   */
  finish(req: SimRequest, res: SimResponse): SimResponse {
    if (this.plain || req.url.startsWith('/__sim/') || req.url.startsWith('/oauth/')) return res;
    const r = this.readings;
    let { body } = res;
    const headers: Record<string, string> = { ...res.headers };
    const json = (headers['content-type'] ?? '').startsWith('application/json');
    let problem = false;
    if (res.status >= 400 && json && r['errors.format'] !== DEFAULT_READINGS['errors.format']) {
      const reshaped = errorBody(body, r['errors.format']);
      if (reshaped !== undefined) {
        body = reshaped;
        problem = r['errors.format'] === 'problem-json';
      }
    }
    if (problem) headers['content-type'] = 'application/problem+json';
    else if (json && r['media-type'] !== 'application/json') headers['content-type'] = r['media-type'];
    if (r.connection === 'close') headers['connection'] = 'close';
    const compress = body.length > 0 && (r.compression === 'always' || (r.compression === 'on-request' && /\bgzip\b/i.test(req.headers['accept-encoding'] ?? '')));
    // The body is text from here on: parts built for the old one must not be sent.
    return { status: res.status, headers, body, ...(res.transport === undefined ? {} : { transport: res.transport }), ...(compress ? { compress: true as const } : {}) };
  }
}

/** `meta.position=deep`: page and results twelve levels down. */
const DEEP_PATH = ['response', 'body', 'listing', 'paging', 'state', 'window', 'view', 'frame', 'slot', 'part', 'info'];
const DEEP_OPEN = `{${DEEP_PATH.map((k) => `"${k}":{`).join('')}`;
const DEEP_CLOSE = `}${'}'.repeat(DEEP_PATH.length)}`;

function numbersAsText(members: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(members)) out[k] = typeof v === 'number' ? String(v) : v;
  return out;
}

/** The public API's `{"errors": [...]}` in another error format, or undefined when the body is not that. */
function errorBody(body: string, format: Readings['errors.format']): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const list = typeof parsed === 'object' && parsed !== null && 'errors' in parsed && Array.isArray(parsed.errors) ? (parsed.errors as unknown[]) : undefined;
  const first = list?.[0];
  if (list === undefined || typeof first !== 'object' || first === null) return undefined;
  const e = first as { status?: unknown; title?: unknown; detail?: unknown };
  switch (format) {
    case 'errors-array':
      return body;
    case 'errors-array-text-status':
      return JSON.stringify({ errors: list.map((x) => (typeof x === 'object' && x !== null ? { ...x, status: String((x as { status?: unknown }).status) } : x)) });
    case 'error-object':
      return JSON.stringify({
        error: {
          code: String(e.title ?? 'error')
            .toLowerCase()
            .replace(/\W+/g, '_'),
          message: e.detail ?? e.title,
        },
      });
    case 'problem-json':
      return JSON.stringify({ type: 'about:blank', title: e.title, status: e.status, ...(e.detail === undefined ? {} : { detail: e.detail }) });
  }
}
