/**
 * Fixture generation: every case of cases.ts against a fresh in-process simulator with a fixed wall
 * clock, so the same seed gives the same bytes on every machine. No I/O: returns the files in order;
 * the CLI writes them (or compares them with what is on disk).
 */
import { CodedKitError } from '../kit-errors.js';
import { Simulator, DEFAULT_CLIENT_ID } from '../sim/simulator.js';
import { DEFAULT_CLOCK_START } from '../store/clock.js';
import { SIM_BASE_URL } from '../adapters/simulator.js';
import { toExchange, type TargetResponse } from '../port.js';
import { asList, recordId } from '../rules/inspect.js';
import { CASE_CLIENT_SECRET, CASE_PASSWORD, CASE_SHORT_PASSWORD, FIXTURE_CASES, type CaseIds, type CaseRequest, type FixtureCase, type KeysetCase, type SingleCase } from './cases.js';
import {
  ACCESS_TOKEN,
  bodyOf,
  CLIENT_SECRET,
  fixtureOf,
  INDEX_FILE,
  PASSWORD,
  scrubFixture,
  serialiseFixture,
  serialiseJson,
  type FixtureFile,
  type FixtureIndex,
  type GeneratedEntry,
  type IndexRequest,
  type SecretPlaceholder,
} from './format.js';

export interface GenerateOptions {
  readonly seed: number;
  /** Default: every case, in order. */
  readonly cases?: readonly FixtureCase[];
}

/** The token response's `expires` is real time in a running simulator; fixtures pin it. */
export const FIXED_WALL_CLOCK = DEFAULT_CLOCK_START;
const FIXTURE_BASE_URL = SIM_BASE_URL;

export class FixtureError extends CodedKitError<'FIXTURE_SECRET_LEAK' | 'FIXTURE_NO_PROGRESS'> {
  override readonly name = 'FixtureError';
}

/** One generated exchange before it becomes a file. */
interface Produced {
  readonly name: string;
  readonly request: CaseRequest;
  readonly response: TargetResponse;
}

/** The fixture files (each case, then index.json), in a fixed order. */
export function generateFixtures(options: GenerateOptions): FixtureFile[] {
  const files: FixtureFile[] = [];
  const entries: GeneratedEntry[] = [];
  const secrets: SecretPlaceholder[] = [];
  for (const c of options.cases ?? FIXTURE_CASES) {
    const run = startCase(c, options.seed);
    for (const p of c.kind === 'single' ? single(c, run) : keyset(c, run.send)) {
      const file = `${p.name}.json`;
      files.push({ file, content: render(c, p, run.secrets) });
      entries.push(entryOf(c, p, file));
    }
    secrets.push(...run.secrets);
  }
  const index: FixtureIndex = { format: 1, kind: 'generated', seed: options.seed, base_url: FIXTURE_BASE_URL, fixtures: entries };
  const content = serialiseJson(index);
  assertNoSecret(INDEX_FILE, content, secrets);
  files.push({ file: INDEX_FILE, content });
  return files;
}

interface CaseRun {
  readonly ids: CaseIds;
  readonly send: (request: CaseRequest) => TargetResponse;
  readonly secrets: readonly SecretPlaceholder[];
}

/** A fresh simulator per case: each fixture is reproducible on its own, whatever ran before it. */
function startCase(c: FixtureCase, seed: number): CaseRun {
  const sim = new Simulator({
    seed,
    baseUrl: FIXTURE_BASE_URL,
    wallClock: () => FIXED_WALL_CLOCK,
    ...(c.sim?.accounts === undefined ? {} : { accounts: c.sim.accounts }),
    ...(c.sim?.dataset === undefined ? {} : { profile: c.sim.dataset }),
  });
  const token = sim.issueToken(DEFAULT_CLIENT_ID, 'read-write');
  const send = (r: CaseRequest): TargetResponse => {
    const headers: Record<string, string> = { ...(r.headers ?? {}) };
    if (r.auth === 'token') headers['authorization'] = `Bearer ${token}`;
    return sim.handle({ method: r.method, url: r.url, headers, body: r.body ?? '' });
  };
  for (const s of c.setup ?? []) send(s);
  const secrets: SecretPlaceholder[] = [
    [token, ACCESS_TOKEN],
    [sim.adminToken, ACCESS_TOKEN],
    [CASE_PASSWORD, PASSWORD],
    [CASE_SHORT_PASSWORD, PASSWORD],
    [CASE_CLIENT_SECRET, CLIENT_SECRET],
  ];
  return { ids: sim.seededIds(), send, secrets };
}

function single(c: SingleCase, run: CaseRun): Produced[] {
  const request = c.request(run.ids);
  return [{ name: c.name, request, response: run.send(request) }];
}

/** §4.3: sort=id, then filter=gt(id,<last id>) until a page returns zero records. */
function keyset(c: KeysetCase, send: (r: CaseRequest) => TargetResponse): Produced[] {
  const out: Produced[] = [];
  let after: string | undefined;
  for (let page = 1; page <= c.maxPages; page++) {
    const filter = after === undefined ? '' : `&filter=gt(id,${after})`;
    const request: CaseRequest = { method: 'GET', url: `${c.path}?sort=id${filter}&page[limit]=${c.limit}`, auth: 'token' };
    const response = send(request);
    out.push({ name: `${c.name}/page-${page}`, request, response });
    const data = asList(bodyOf(response.body))?.data ?? [];
    const last = data.length === 0 ? undefined : recordId(data[data.length - 1]);
    if (response.status !== 200 || last === undefined) return out;
    after = last;
  }
  throw new FixtureError('FIXTURE_NO_PROGRESS', `${c.name}: no empty page after ${c.maxPages} pages`);
}

function render(c: FixtureCase, p: Produced, secrets: readonly SecretPlaceholder[]): string {
  const exchange = toExchange({ method: p.request.method, url: p.request.url, headers: requestHeaders(p.request), ...(p.request.body === undefined ? {} : { body: p.request.body }) }, p.response);
  const content = serialiseFixture(scrubFixture(fixtureOf(p.name, c.rules, exchange), secrets));
  assertNoSecret(p.name, content, secrets);
  return content;
}

/** What the client sent, as a reader of the fixture should see it (the token itself is replaced later). */
function requestHeaders(r: CaseRequest): Record<string, string> {
  return { ...(r.headers ?? {}), ...(r.auth === 'token' ? { authorization: `Bearer ${ACCESS_TOKEN}` } : {}) };
}

function assertNoSecret(name: string, content: string, secrets: readonly SecretPlaceholder[]): void {
  for (const [secret] of secrets) {
    if (secret.length > 0 && content.includes(secret)) throw new FixtureError('FIXTURE_SECRET_LEAK', `${name}: a secret would be written to the fixture`);
  }
}

function entryOf(c: FixtureCase, p: Produced, file: string): GeneratedEntry {
  return {
    case: p.name,
    rules: c.rules,
    description: c.description,
    request: { method: p.request.method, url: p.request.url },
    file,
    ...(c.sim === undefined ? {} : { sim: c.sim }),
    ...(c.setup === undefined ? {} : { setup: c.setup.map(indexRequest) }),
  };
}

const indexRequest = (r: CaseRequest): IndexRequest => ({ method: r.method, url: r.url, ...(r.body === undefined ? {} : { body: bodyOf(r.body) }) });
