/**
 * The simulator: `handle(request) → response`, synchronous and free of I/O, so the in-process target
 * calls it with no socket and the HTTP adapter is a thin translation. Request path:
 * route → auth → rate limit → query → handler (engine decides, store answers, serializer joins JSON).
 */
import type { Result } from '../result.js';
import { deviates, NO_DEVIATIONS, type Deviations } from '../engine/deviations.js';
import { parseQuery } from '../engine/query.js';
import { DEFAULT_CLOCK_START, DEFAULT_STEP_MS } from '../store/clock.js';
import { DEFAULT_MAX_PROJECT_RECORDS, NO_ADVERSITY, Project, type ProjectOptions } from '../store/project.js';
import { listResources } from '../store/resources.js';
import type { DatasetOptions } from '../store/datasets.js';
import type { Steps } from '../store/steps.js';
import { SeededBases } from '../store/seeded-bases.js';
import { datasetCounts } from '../store/datasets.js';
import { PROJECT_RECORDS, RecordBudget, seededRecordCount } from '../store/record-budget.js';
import type { ClientRegistry } from './clients.js';
import type { AdminPort, PreparedData } from './admin-port.js';
import { DEFAULT_JOURNAL_SIZE, Journal, outcomeOf, unjournaled, type KeptEntry } from './journal.js';

const ADMIN_PREFIX = '/__sim/';
import { createAdminOps } from './admin-ops.js';
import type { Access, AdminOps, Handler } from './context.js';
import { error, errors, withMembers } from './respond.js';
import { LongReads, SLICE_ABOVE_UNITS, thenAnswer, type Slicer } from './long-reads.js';
import { buildRouter, type ApiRouteSpec, type RouteSpec } from './routes.js';
import type { Router } from './router.js';
import { adminTokenFor, bearer, TokenStore, type Scope } from './tokens.js';
import { bodyLimit, restoreBodyLimit, type SimRequest, type SimResponse } from './messages.js';
import { apiError } from '../engine/api-errors.js';
import { PROTOTYPE_KEYS } from '../engine/json.js';
import { DOCUMENTED_SURFACE_READINGS, refuseUndocumented } from './surface.js';
import { forwardedOrigin } from './forwarded.js';
import { ReadingsPlay } from './readings-play.js';
import type { Readings } from '../rules/readings.js';
import { DEFAULT_BASE_URL, DEFAULT_CLIENT_ID, DEFAULT_MAX_PROJECTS, DEFAULT_SEED, maxRecordsOf, recordBudgetProblem, type SeededIds, type SimulatorOptions } from './options.js';

export { DEFAULT_CLIENT_ID, DEFAULT_MAX_PROJECTS, DEFAULT_SEED, type SeededIds, type SimulatorOptions } from './options.js';

/**
 * What the HTTP adapter hands `Simulator.handle`: when it received the request; `handle` puts the request's
 * journal entry in `entry`, for the adapter to settle once the answer is written.
 */
export interface Arrival {
  /** Wall time, read by the adapter when the request came. */
  readonly receivedMs: number;
  entry: KeptEntry | undefined;
}

export class Simulator implements AdminPort {
  private options: SimulatorOptions;
  private readonly projects = new Map<string, Project>();
  private readonly tokens: TokenStore;
  private readonly router: Router<RouteSpec>;
  readonly deviations: Deviations;
  readonly adminToken: string;
  baseUrl: string;
  private readonly adminOps: AdminOps;
  /**
   * The seeded records of the current dataset, shared by every project (each keeps only its writes), each
   * collection built by the first read of it (store/seeded-bases.ts); a served simulator of many records
   * builds them all before its port opens (warm).
   */
  private bases: SeededBases;
  /**
   * Runs long work in slices between other requests; resolves false when shutdown stopped it. The HTTP
   * adapter installs one; in process there is none and such work runs at once.
   */
  slicer: Slicer | undefined;
  /** List reads whose plan costs more than this (engine/read-cost.ts units) run in slices when there is a slicer. */
  sliceAbove = SLICE_ABOVE_UNITS;
  /** What the projects' long reads hold (sim/long-reads.ts), read with this simulator's slicer and threshold. */
  private readonly longReads = new LongReads<Project>(this);
  /** Answers go to sockets (set by the HTTP adapter): list pages are built as bytes, not text. */
  wire = false;
  private lastUsed: string | undefined;
  /** The client id the request being answered acts for (journal). */
  private actingClient: string | null = null;
  /** Whether the answer being built is an injected 5xx (journal: the fault the client met). */
  private injectedError = false;
  private evicted = 0;
  /** How the simulator plays the readings (handed to handlers); `readings` says which. */
  private readonly play: ReadingsPlay;
  /** The records the whole simulator may hold (store/record-budget.ts), and what is taken of it. */
  readonly budget: RecordBudget;

  /** Throws a RangeError when the seeded records do not fit the record budget (the doors check first, in their own words). */
  constructor(options: SimulatorOptions) {
    const problem = recordBudgetProblem(options);
    if (problem !== undefined) throw new RangeError(`${problem.path} ${problem.message}`);
    this.options = options;
    this.budget = new RecordBudget(maxRecordsOf(options), (options.maxProjects ?? DEFAULT_MAX_PROJECTS) * PROJECT_RECORDS);
    this.budget.seeded = seededRecordCount(datasetCounts(options));
    const key = options.tokenKey ?? String(this.seed);
    // As many client ids keep tokens as keep projects: a token outlives its project's data, not its client.
    this.tokens = new TokenStore(key, options.maxProjects ?? DEFAULT_MAX_PROJECTS);
    this.adminToken = options.adminToken ?? adminTokenFor(key);
    this.deviations = options.deviate !== undefined && options.deviate.length > 0 ? new Set(options.deviate) : NO_DEVIATIONS;
    this.router = buildRouter(this.deviations);
    this.baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
    this.adminOps = createAdminOps(this);
    this.journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
    // The documented surface takes other conforming readings than the public API's, under the user's own.
    this.play = new ReadingsPlay(options.surface === 'documented' ? { ...DOCUMENTED_SURFACE_READINGS, ...(options.readings ?? {}) } : options.readings);
    this.bases = new SeededBases(datasetOf(options, this.seed), this.ties);
  }

  /** What the simulator answers where the document is silent (rules/readings.ts), every point set. */
  get readings(): Readings {
    return this.play.readings;
  }

  /** How records sharing a sort value are ordered (the reading `order.ties`). */
  private get ties(): 'asc' | 'desc' {
    return this.play.readings['order.ties'] === 'id-desc' ? 'desc' : 'asc';
  }

  get seed(): number {
    return this.options.seed ?? DEFAULT_SEED;
  }

  get defaultClientId(): string {
    return this.options.defaultClientId ?? DEFAULT_CLIENT_ID;
  }

  get settings(): SimulatorOptions {
    return this.options;
  }

  /** Replace the dataset options and forget every project (admin seed/reset); `prepared`: their data, built by `prepare`. */
  reconfigure(options: SimulatorOptions, prepared?: PreparedData): void {
    this.options = options;
    const dataset = datasetOf(options, options.seed ?? DEFAULT_SEED);
    const bases = prepared === undefined ? undefined : preparedBases.get(prepared);
    // Another dataset, other bases: the old ones stay with whoever holds them, never rebuilt under them.
    if (bases !== undefined && bases.holds(dataset)) this.bases = bases;
    else if (!this.bases.holds(dataset)) this.bases = new SeededBases(dataset, this.ties);
    this.projects.clear();
    this.lastUsed = undefined;
    this.budget.written = 0;
    this.budget.seeded = seededRecordCount(datasetCounts(options));
  }

  /** The most bytes a restore body may have: what the record budget can hold, at most 500 MiB. */
  get restoreBodyLimit(): number {
    return restoreBodyLimit(this.budget.limit);
  }

  /** Every seeded record and index of the current dataset built now, as steps: no read pays for them. */
  warm(): Steps<number> {
    return this.bases.warmSteps(listResources);
  }

  /**
   * The seeded records of `options`' dataset off to the side, for `reconfigure` to take (reads meanwhile
   * see the current data): built on first use, or all at once by running `steps`. Undefined when the
   * current bases are of that dataset already.
   */
  prepare(options: SimulatorOptions): PreparedData | undefined {
    const dataset = datasetOf(options, options.seed ?? DEFAULT_SEED);
    if (this.bases.holds(dataset)) return undefined;
    const bases = new SeededBases(dataset, this.ties);
    const prepared: PreparedData = { steps: bases.warmSteps(listResources) };
    preparedBases.set(prepared, bases);
    return prepared;
  }

  detachedProject(clientId: string, options: SimulatorOptions, prepared?: PreparedData): Project {
    const bases = (prepared === undefined ? undefined : preparedBases.get(prepared)) ?? this.bases;
    const { budget: _counted, ...o } = this.projectOptions(clientId, options, bases);
    return new Project(o);
  }

  install(options: SimulatorOptions, prepared: PreparedData | undefined, projects: readonly Project[]): void {
    this.reconfigure(options, prepared);
    for (const project of projects) {
      project.joinBudget(this.budget);
      this.projects.set(project.options.clientId, project);
      this.lastUsed = project.options.clientId;
    }
  }

  /**
   * The project of a client id, made on first use. The map is kept in order of use (a Map iterates in
   * insertion order): past maxProjects the least recently used project is forgotten, and its client
   * starts afresh from the seed on its next request.
   */
  project(clientId: string): Project {
    let project = this.projects.get(clientId);
    if (project !== undefined) {
      if (this.lastUsed !== clientId) {
        this.projects.delete(clientId);
        this.projects.set(clientId, project);
        this.lastUsed = clientId;
      }
      return project;
    }
    project = new Project(this.projectOptions(clientId));
    this.projects.set(clientId, project);
    this.lastUsed = clientId;
    const max = this.maxProjects;
    for (const oldest of this.projects.keys()) {
      if (this.projects.size <= max) break;
      this.projects.get(oldest)?.forget();
      this.projects.delete(oldest);
      this.evicted += 1;
    }
    return project;
  }

  /** A project if it exists, without making it or counting this as a use (admin reads, snapshots). */
  existingProject(clientId: string): Project | undefined {
    return this.projects.get(clientId);
  }

  get maxProjects(): number {
    return this.options.maxProjects ?? DEFAULT_MAX_PROJECTS;
  }

  get maxProjectRecords(): number {
    return this.options.maxProjectRecords ?? DEFAULT_MAX_PROJECT_RECORDS;
  }

  /** Projects forgotten to stay within maxProjects since start (GET /__sim/state). */
  get evictedProjects(): number {
    return this.evicted;
  }

  get clients(): ClientRegistry | undefined {
    return this.options.clients;
  }

  projectIds(): readonly string[] {
    return [...this.projects.keys()].sort();
  }

  /** Live tokens held (MAX_TOKENS_PER_CLIENT per client id, for at most maxProjects client ids). */
  get tokenCount(): number {
    return this.tokens.size;
  }

  issueToken(clientId: string, scope: Scope): string {
    this.project(clientId);
    this.actingClient = clientId;
    return this.tokens.issue(clientId, scope, this.now());
  }

  seededIds(): SeededIds {
    const auth = this.project(this.defaultClientId).auth;
    const realm = auth.realmIds[0] ?? '';
    return {
      realm_id: realm,
      user_authentication_info_id: auth.uaiIds.get(realm)?.[0] ?? '',
      password_profile_id: auth.passwordProfileIds.get(realm) ?? '',
    };
  }

  now(): number {
    return this.options.wallClock();
  }

  /**
   * Answer one request. API requests are journaled (admin ones are not). `arrival` is the HTTP adapter's:
   * when it received the request, and `entry` receives every request's entry (the admin ones' too, for
   * `--log`) to settle once the answer is written. In process the entry's times are the injected clock's
   * (nothing waits: answered as received). Served (`wire`), a list page's body comes as bytes in parts (body-parts.ts).
   */
  handle(req: SimRequest, arrival?: Arrival): SimResponse {
    this.actingClient = null;
    this.injectedError = false;
    const method = req.method.toUpperCase();
    let routed: SimResponse;
    try {
      routed = this.route(req, method);
    } catch {
      // A bug must not become a crash, a hang or a 5xx, in process or over HTTP: still a JSON error.
      routed = error('bad-request', 'The simulator could not process this request');
    }
    const client = this.actingClient;
    const injected = this.injectedError;
    // Work done later (a long read, a change waiting for one, a reseed): finished and journaled as it is answered.
    if (routed.deferred !== undefined) return { ...routed, deferred: routed.deferred.then((later) => this.answered(req, method, later, client, injected, arrival)) };
    return this.answered(req, method, routed, client, injected, arrival);
  }

  /** The answer as the readings shape it, noted in the journal. */
  private answered(req: SimRequest, method: string, routed: SimResponse, client: string | null, injected: boolean, arrival: Arrival | undefined): SimResponse {
    let res: SimResponse;
    try {
      res = this.play.finish(req, routed);
    } catch {
      res = error('bad-request', 'The simulator could not process this request');
    }
    // The journal holds what clients sent, not the harness's own admin calls (those still reach --log).
    const admin = req.url.startsWith(ADMIN_PREFIX);
    if (admin && arrival === undefined) return res;
    const outcome = outcomeOf(res.status, res.transport, injected);
    const received = arrival === undefined ? this.now() : arrival.receivedMs;
    const entry = admin ? unjournaled(method, req.url, client, outcome, received) : this.journal.record(method, req.url, client, outcome, received);
    if (arrival !== undefined) arrival.entry = entry;
    return res;
  }

  /** The request journal (GET /__sim/requests). */
  readonly journal: Journal;

  private route(req: SimRequest, method: string): SimResponse {
    const q = req.url.indexOf('?');
    const rawPath = q < 0 ? req.url : req.url.slice(0, q);
    const rawQuery = q < 0 ? '' : req.url.slice(q + 1);
    const limit = bodyLimit(method, rawPath, this.restoreBodyLimit);
    if ((req.raw?.length ?? 0) > limit || req.body.length > limit || (req.body.length * 3 > limit && Buffer.byteLength(req.body) > limit))
      return error('payload-too-large', `Request bodies are limited to ${limit} bytes`);
    const trailingSlash = rawPath.length > 1 && rawPath.endsWith('/');
    const path = trailingSlash ? rawPath.slice(0, -1) : rawPath;
    const found = this.router.match(method, path);
    // The token endpoint is served on every surface, before any bearer token is asked for (unless the readings say there is none).
    if (found.kind === 'match' && found.handler.auth === 'none' && !this.play.hides(path)) return found.handler.serve(req, this);

    if (this.options.surface === 'documented') {
      const refused = refuseUndocumented(req);
      if (refused !== undefined) return refused;
    }

    if (found.kind === 'not-found' || this.play.hides(path)) return error('not-found', `No route for ${path}`);
    if (found.kind === 'method-not-allowed') return error('method-not-allowed', `Use one of: ${found.allow.join(', ')}`, { allow: found.allow.join(', ') });
    const route = found.handler;
    if (route.auth === 'none') return route.serve(req, this);

    const who = this.authenticate(req, route);
    if (!who.ok) return who.response;
    if (route.write && who.value.access === 'read-only') return error('forbidden', 'This token is read-only (implicit grant); use client credentials to write');

    const project = who.value.project;
    const limited = this.rateLimit(project, route);
    if (limited !== undefined) return limited;
    // Injected faults (adversity): never on the admin API.
    const fault = route.auth === 'admin' ? undefined : project.fault(path);
    if (fault !== undefined && fault.kind === 'error') {
      const failed = error(fault.status === 500 ? 'internal' : 'unavailable', 'Injected fault (adversity error_share)');
      this.injectedError = true;
      return fault.delayMs > 0 ? { ...failed, transport: { delayMs: fault.delayMs } } : failed;
    }
    const dispatch = () => this.dispatch(req, route, path, trailingSlash, rawQuery, found.params, who.value);
    // A change to a project waits while a long read of it runs: that read answers on one version of the data.
    const long = this.served();
    const answered = long !== undefined && changes(route, method, project) ? long.whenStill(project, dispatch) : dispatch();
    if (fault === undefined || (fault.kind === 'none' && fault.delayMs === 0)) return answered;
    return thenAnswer(answered, (r) => withMembers(r, { transport: { delayMs: fault.delayMs, ...(fault.kind === 'reset' || fault.kind === 'truncate' ? { cut: fault.kind } : {}) } }));
  }

  private dispatch(
    req: SimRequest,
    route: ApiRouteSpec,
    path: string,
    trailingSlash: boolean,
    rawQuery: string,
    rawParams: Readonly<Record<string, string>>,
    who: { project: Project; access: Access },
  ): SimResponse {
    const project = who.project;

    const query = parseQuery(rawQuery);
    if (!query.ok) return errors([query.error]);
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawParams)) {
      try {
        params[k] = decodeURIComponent(v);
      } catch {
        return errors([apiError('bad-request', 'Malformed path: invalid percent-encoding')]);
      }
    }
    const handler: Handler = route.handler;
    return handler({
      req,
      path,
      trailingSlash,
      query: query.value,
      params,
      project,
      access: who.access,
      baseUrl: this.play.origin(forwardedOrigin(req.headers, this.baseUrl)),
      deviations: this.deviations,
      admin: this.adminOps,
      maxScan: this.options.maxScan,
      longReads: this.served(),
      play: this.play,
      wire: this.wire,
    });
  }

  /** Served: long reads in slices, each holding its project still (sim/long-reads.ts); in process, none. */
  private served(): LongReads<Project> | undefined {
    return this.slicer === undefined ? undefined : this.longReads;
  }

  private authenticate(req: SimRequest, route: ApiRouteSpec): Result<{ readonly project: Project; readonly access: Access }, { readonly response: SimResponse }> {
    const token = bearer(req.headers);
    if (route.auth === 'admin') {
      if (token !== this.adminToken) return { ok: false, response: error('unauthorized', 'The admin API needs the admin token (printed by `commerce-sim serve`)') };
      const clientId = new URLSearchParams(req.url.split('?')[1] ?? '').get('client_id') ?? this.defaultClientId;
      if (PROTOTYPE_KEYS.has(clientId)) return { ok: false, response: errors([apiError('bad-request', 'client_id must not be __proto__, constructor or prototype', 'client_id')]) };
      this.actingClient = clientId;
      return { ok: true, value: { project: this.project(clientId), access: 'admin' } };
    }
    if (token === undefined) {
      if (route.createsProfileInfo && deviates(this.deviations, 'auth.required')) return { ok: true, value: { project: this.project(this.defaultClientId), access: 'read-write' } };
      // A deployment whose reads need no token (the reading auth.reads=optional): the default client's data, read-only.
      if (req.method.toUpperCase() === 'GET' && this.play.readings['auth.reads'] === 'optional') return { ok: true, value: { project: this.project(this.defaultClientId), access: 'read-only' } };
      return { ok: false, response: error('unauthorized', 'An Authorization header with a Bearer token is required') };
    }
    const grant = this.tokens.lookup(token, this.now());
    if (grant === undefined) return { ok: false, response: error('unauthorized', 'The access token is invalid or has expired') };
    this.actingClient = grant.clientId;
    return { ok: true, value: { project: this.project(grant.clientId), access: grant.scope } };
  }

  /** Seeded 429s (adversity): a share of API requests, never the admin API. */
  private rateLimit(project: Project, route: ApiRouteSpec): SimResponse | undefined {
    if (route.auth === 'admin') return undefined;
    const seconds = project.throttle();
    if (seconds === undefined) return undefined;
    return error('rate-limited', `Rate limit exceeded; retry after ${seconds} s`, { 'retry-after': String(seconds) });
  }

  private projectOptions(clientId: string, o: SimulatorOptions = this.options, bases: SeededBases = this.bases): ProjectOptions {
    return {
      clientId,
      dataset: datasetOf(o, o.seed ?? DEFAULT_SEED),
      clock: { mode: o.clock?.mode ?? 'virtual', start: o.clock?.start ?? DEFAULT_CLOCK_START, stepMs: o.clock?.stepMs ?? DEFAULT_STEP_MS, read: o.wallClock },
      adversity: { ...NO_ADVERSITY, ...(o.adversity ?? {}) },
      bases,
      budget: this.budget,
      ties: this.ties,
      maxRecords: this.maxProjectRecords,
    };
  }
}

const preparedBases = new WeakMap<PreparedData, SeededBases>();

/** The dataset a simulator's options describe (the data's own seed over the simulator's). */
function datasetOf(o: SimulatorOptions, seed: number): DatasetOptions {
  return {
    seed: o.datasetSeed ?? seed,
    profile: o.profile ?? 'default',
    counts: datasetCounts(o),
    burst: o.burst ?? 150,
  };
}

/**
 * Whether a request may change its project's data: any write, the admin API's changes, and a list read
 * when the project's adversity changes records after reads (§4.3's caveats).
 */
function changes(route: ApiRouteSpec, method: string, project: Project): boolean {
  if (method !== 'GET' && method !== 'HEAD') return true;
  return route.op === 'list' && project.changesOnRead();
}
