/**
 * `npm run bench`: every speed figure of the project, measured in one run, with ratios against a raw
 * node:http baseline measured in the same run. Prints Markdown tables (pasted into the README).
 * Options: --quick (shorter loads), --only list,scale,suite,props,export
 */
import { parseArgs } from 'node:util';
import { load, type LoadResult } from './load.js';
import { extraSections } from './sections.js';
import { child, fmt } from './child.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } }, strict: true });
const only = new Set((values.only ?? 'list,scale,suite,props,export').split(','));
const seconds = values.quick ? 1 : 3;

interface ServersReady {
  sim: string;
  baseline: string;
  token: string;
  deep: string;
  realm_id: string;
  user_authentication_info_id: string;
  password_profile_id: string;
}



async function listReads(): Promise<void> {
  const accounts = 100_000;
  const { message: s, stop } = await child<ServersReady>('./servers-child.js', [String(accounts)]);
  const auth = { authorization: `Bearer ${s.token}` };
  const create = `/v2/authentication-realms/${s.realm_id}/user-authentication-info/${s.user_authentication_info_id}/user-authentication-password-profile-info`;
  const body = (i: number) => JSON.stringify({ data: { type: 'user_authentication_password_profile_info', username: `user${i}`, password: 'correct horse', password_profile_id: s.password_profile_id } });
  const cases: { name: string; sim: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string }; base: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string } }[] = [
    { name: 'page of 25 at offset 100', sim: () => ({ method: 'GET', path: '/v2/accounts?page[limit]=25&page[offset]=100' }), base: () => ({ method: 'GET', path: '/accounts?limit=25&offset=100' }) },
    { name: 'page of 100', sim: () => ({ method: 'GET', path: '/v2/accounts?page[limit]=100&page[offset]=500' }), base: () => ({ method: 'GET', path: '/accounts?limit=100&offset=500' }) },
    { name: 'keyset page deep in the set (sort=id, gt(id,X), 100)', sim: () => ({ method: 'GET', path: `/v2/accounts?sort=id&filter=gt(id,${s.deep})&page[limit]=100` }), base: () => ({ method: 'GET', path: `/accounts?after=${s.deep}&limit=100` }) },
    { name: 'create (password profile info)', sim: (i) => ({ method: 'POST', path: create, body: body(i) }), base: (i) => ({ method: 'POST', path: '/profile', body: body(i) }) },
  ];
  const rows: string[] = [];
  for (const c of cases) {
    const spec = { connections: 32, seconds, headers: { ...auth, 'content-type': 'application/json' } };
    const base: LoadResult = await load({ ...spec, origin: s.baseline, request: c.base });
    const sim: LoadResult = await load({ ...spec, origin: s.sim, request: c.sim });
    const bad = sim.non2xx + base.non2xx > 0 ? ` (non-2xx: sim ${sim.non2xx}, baseline ${base.non2xx})` : '';
    rows.push(`| ${c.name} | ${fmt(sim.perSecond)} | ${fmt(base.perSecond)} | ${(sim.perSecond / base.perSecond).toFixed(2)}×${bad} |`);
  }
  stop();
  console.log(`\n### List reads and create over HTTP (${fmt(accounts)} accounts, 32 connections, ${seconds} s each)\n`);
  console.log('| request | simulator req/s | node:http baseline req/s | ratio |\n|---|---:|---:|---:|');
  for (const r of rows) console.log(r);
}

interface ScaleReport {
  count: number;
  startupMs: number;
  heapMiB: number;
  rssMiB: number;
  keysetStartUs: number;
  keysetEndUs: number;
}

async function scale(): Promise<void> {
  console.log('\n### Scale (in-process, keyset page of 100 by id)\n');
  console.log('| accounts | start-up (generate + id index) | heap used | RSS | keyset page at start | keyset page at end |\n|---:|---:|---:|---:|---:|---:|');
  for (const count of [100_000, 1_000_000]) {
    const { message: r } = await child<ScaleReport>('./scale-child.js', [String(count)], ['--expose-gc']);
    console.log(`| ${fmt(r.count)} | ${fmt(r.startupMs)} ms | ${fmt(r.heapMiB)} MiB | ${fmt(r.rssMiB)} MiB | ${r.keysetStartUs.toFixed(1)} µs | ${r.keysetEndUs.toFixed(1)} µs |`);
  }
}

console.log(`# commerce-sim bench (node ${process.version}, ${values.quick ? 'quick' : 'full'})`);
if (only.has('list')) await listReads();
if (only.has('scale')) await scale();
for (const section of extraSections) if (only.has(section.name)) await section.run({ seconds, quick: values.quick === true });
process.exit(0);
