#!/usr/bin/env node
// Runs every doc client (legal ones, then traps) against a server that is already
// running, and prints one line per client: what it read (records per collection, and how
// many records of a plain reference read it missed) or the statuses it got.
//
// Usage: node test/support/doc-clients/try.mjs [--only name[,name]] [--no-check] < serve.json
// where serve.json is the JSON line printed by `serve --json` (base_url, token, realm_id,
// user_authentication_info_id, password_profile_id). This script starts nothing.
//
// Clock and sleep given to the clients: sleeps are instant; `now` is the server's clock
// as far as a customer can see it - the newest created_at among the three collections,
// probed before each client, advanced by wall time since the probe (an input field
// "now" - ISO string or ms - overrides the probe). The probe uses sort=-created_at,
// which the document does not describe; if the server refuses it, wall time is used.
//
// Check: after each reader, the script reads each collection it names by id
// (sort=id, filter=gt(id,<last>), page[limit]=100, until an empty page) and counts
// "lost": records of that reference read created before the client started that the
// client did not read. Records created while it ran are reported as "late x/y".

import { legal, traps } from './index.mjs';

const args = process.argv.slice(2);
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : null;
const check = !args.includes('--no-check');

const input = JSON.parse(await readStdin());
const baseUrl = String(input.base_url ?? input.baseUrl).replace(/\/+$/, '');
const token = input.token;
const ids = {
  realm_id: input.realm_id ?? input.ids?.realm_id,
  user_authentication_info_id: input.user_authentication_info_id ?? input.ids?.user_authentication_info_id,
  password_profile_id: input.password_profile_id ?? input.ids?.password_profile_id,
};

const wallNow = () => performance.timeOrigin + performance.now();

async function readStdin() {
  let s = '';
  for await (const chunk of process.stdin) s += chunk;
  return (
    s
      .trim()
      .split('\n')
      .find((l) => l.trim().startsWith('{')) ?? '{}'
  );
}

async function getJson(url) {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.json();
}

const stamp = (r) => r?.meta?.timestamps?.created_at ?? r?.meta?.created_at;

async function probeClock() {
  if (input.now !== undefined) return typeof input.now === 'number' ? input.now : Date.parse(input.now);
  let newest = -Infinity;
  try {
    for (const c of ['accounts', 'orders', 'files']) {
      const body = await getJson(`${baseUrl}/v2/${c}?sort=-created_at&page[limit]=1`);
      const t = Date.parse(stamp(body.data?.[0]));
      if (Number.isFinite(t)) newest = Math.max(newest, t);
    }
  } catch {
    return wallNow();
  }
  return Number.isFinite(newest) ? newest : wallNow();
}

async function referenceRead(collection) {
  const out = new Map();
  let last = null;
  for (;;) {
    const f = last === null ? '' : `&filter=gt(id,${last})`;
    const body = await getJson(`${baseUrl}/v2/${collection}?page[limit]=100&sort=id${f}`);
    const rows = body.data ?? [];
    if (rows.length === 0) return out;
    for (const r of rows) out.set(r.id, Date.parse(stamp(r)));
    last = rows[rows.length - 1].id;
  }
}

function fmtStatuses(s) {
  if (Array.isArray(s)) return s.join(',');
  if (s && typeof s === 'object')
    return Object.entries(s)
      .map(([k, v]) => `${k}x${v}`)
      .join(',');
  return String(s);
}

let failures = 0;
for (const [kind, list] of [
  ['legal', legal],
  ['trap', traps],
]) {
  for (const client of list) {
    if (only && !only.has(client.name)) continue;
    const anchor = await probeClock();
    const wallAtAnchor = wallNow();
    const now = () => anchor + (wallNow() - wallAtAnchor);
    let slept = 0;
    const sleep = async (ms) => {
      slept += ms;
    };
    const t0 = wallNow();
    let result;
    try {
      result = await client.run({ baseUrl, token, ids, sleep, now, fetch: globalThis.fetch });
    } catch (e) {
      if (kind === 'legal') failures += 1;
      console.log(`${kind.padEnd(5)} ${client.name.padEnd(38)} THREW ${e?.message ?? e}`);
      continue;
    }
    const ms = Math.round(wallNow() - t0);
    const parts = [];
    if (result?.ids && !Array.isArray(result.ids)) {
      for (const [collection, got] of Object.entries(result.ids)) {
        let text = `${collection}=${got.length}`;
        const dupes = got.length - new Set(got).size;
        if (dupes) text += ` DUPLICATES=${dupes}`;
        if (check && (client.collections ?? []).includes(collection)) {
          const ref = await referenceRead(collection);
          const mine = new Set(got);
          let lost = 0;
          let lateSeen = 0;
          let lateAll = 0;
          for (const [id, t] of ref) {
            if (t < anchor) {
              if (!mine.has(id)) lost += 1;
            } else {
              lateAll += 1;
              if (mine.has(id)) lateSeen += 1;
            }
          }
          text += ` (ref ${ref.size}, lost ${lost}, late ${lateSeen}/${lateAll})`;
          if (lost > 0 && kind === 'legal') failures += 1;
        }
        parts.push(text);
      }
    }
    if (result?.statuses !== undefined) parts.push(`statuses=${fmtStatuses(result.statuses)}`);
    for (const k of ['requests', 'window', 'lastPageClamped', 'resets', 'retries', 'repeats', 'reanchored', 'csvRows', 'problems']) {
      if (result?.[k] !== undefined && !(Array.isArray(result[k]) && result[k].length === 0)) parts.push(`${k}=${typeof result[k] === 'object' ? JSON.stringify(result[k]) : result[k]}`);
    }
    if (kind === 'legal' && Array.isArray(result?.statuses) && result.statuses.some((s) => s !== 201)) failures += 1;
    parts.push(`slept=${slept / 1000}s`, `${ms}ms`);
    console.log(`${kind.padEnd(5)} ${client.name.padEnd(38)} ${parts.join('  ')}`);
  }
}
if (failures) {
  console.log(`${failures} legal client problem(s)`);
  process.exitCode = 1;
}
