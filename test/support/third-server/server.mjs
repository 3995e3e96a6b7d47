#!/usr/bin/env node
// Independent Commerce API server written from the API document alone (docs/commerce-api.md), by a
// helper that saw neither the simulator nor the kit: a test target that reads, at every point the document
// leaves open, another conforming way than the public API (test/kit/third-server.test.ts).
// Usage: node server.mjs --port 0 [--host 127.0.0.1] [--seed N] [--obvious] [--reading NAME=VALUE ...] [--break NAME ...]
// --obvious selects every value marked * below at once (later --reading flags still override).
// Prints one JSON line once listening: {base_url, token, realm_id, user_authentication_info_id, password_profile_id}.
//
// OPEN POINTS OF THE DOCUMENT AND THE READINGS THIS SERVER SUPPORTS (first value = default, the
// non-obvious legal reading; the obvious reading is marked *).
//
// | name            | sentence of the document it rests on                                            | values                                  |
// |-----------------|----------------------------------------------------------------------------------|-----------------------------------------|
// | position        | §2.3 "The exact position of the page and results attributes ...: not shown."      | nested (pagination.info.{page,results}) / top / meta* |
// | numbers         | §2.3 page/results members have no stated JSON type ("Meaning" only)               | string / number*                        |
// | current         | §2.3 "page[current] The current page." (base not stated; only offset is Zero-based)| zero / one*                            |
// | empty_total     | §2.3 "page[total] Total page count." + "always present, including when ... empty" | one / zero*                             |
// | links           | §2.3 lists page/results only; paging links not shown                              | none / present*                         |
// | ts_precision    | §2.1 ms format is stated for the create response only; list records not shown     | micro / milli* / seconds (sort and filter use the shown value; micro = full precision) |
// | ts_place        | §4.2/§4.3 sort/filter "attribute" created_at; record shape of lists not shown      | attributes / top / meta* / meta_timestamps (meta.timestamps.*) |
// | ids             | §4.3 filter=gt(id,<last_id>) "unique id"; account/order/file id shape not shown    | numeric (numeric order) / prefixed* (string order) |
// | default_order   | §4.2 sort is optional; order without sort not shown                               | newest / created_asc*                   |
// | ties            | §4.3 "many records share the same timestamp"; tie order not shown                 | id_desc / id_asc*                       |
// | over_limit      | §8 "Maximum page length 100 on any paginated call." (what >100 does not shown)   | refuse (400) / clamp*                   |
// | zero_limit      | §4.2 "page[limit] Number of records per page." (0 not covered)                    | refuse (400) / default*                 |
// | hard_offset     | §8 "What a request does when it passes a hard or soft offset limit: not shown."   | empty (200, no records, true total) / error* (400) |
// | hard_scope      | §8 "Hard limit of 10,000 records" (records reachable vs. offset value)            | window (no record past the 10,000th; offset>=10000 is past) / offset* (offset>10000 is past) |
// | soft_offset     | §8 "Soft limit of 10,000 records" + "...passes a ... soft offset limit: not shown"| serve / error* (400)                    |
// | password_count  | §2.1 "Minimum 8 characters." ("character" not defined)                            | graphemes / codepoints*                 |
// | errors          | §7 "No error format, error codes or failure statuses are described."              | single ({"error":{code,message}}, 422) / list* ({"errors":[...]}, 400) |
// | hyphen_type     | §2.1 "Treat the underscore form as the value on the wire."                        | refuse (422) / accept*                  |
// | list_auth       | §5 "The header is required on the create operation." (reads not stated)           | optional / required*                    |
// | gzip            | §1 "JSON bodies" (content coding not shown; RFC 9110 allows unrequested coding)   | always / request* / never               |
// | connection      | not shown anywhere (transport)                                                    | close / keep-alive*                     |
// | media           | §4.1 "Content-Type ... Used in the example ... application/json" (request only)   | vnd (application/vnd.api+json) / json*  |
// | resets          | not shown anywhere (transport reliability)                                        | on (~1 in 20 connections reset on GET) / off* |
// | empty_fields    | §2.1 "Required | string" (empty string not excluded)                              | accept / refuse*                        |
// | duplicates      | §2.1/§3 uniqueness of username not shown; "States and transitions: not shown."    | conflict (409) / allow*                 |
// | unknown_parent  | §2.2 realm / user-authentication-info "Fields ...: not shown beyond identifiers"  | accept / refuse* (404)                  |
//
// --break NAME makes the server non-conforming on purpose: ge-as-gt, lowercase-username,
// ignore-offset-with-filter, limit-101.

import http from 'node:http';
import { URLSearchParams } from 'node:url';
import zlib from 'node:zlib';
import crypto from 'node:crypto';

const READINGS = {
  position: ['nested', 'top', 'meta'],
  numbers: ['string', 'number'],
  current: ['zero', 'one'],
  empty_total: ['one', 'zero'],
  links: ['none', 'present'],
  ts_precision: ['micro', 'milli', 'seconds'],
  ts_place: ['attributes', 'top', 'meta', 'meta_timestamps'],
  ids: ['numeric', 'prefixed'],
  default_order: ['newest', 'created_asc'],
  ties: ['id_desc', 'id_asc'],
  over_limit: ['refuse', 'clamp'],
  zero_limit: ['refuse', 'default'],
  hard_offset: ['empty', 'error'],
  hard_scope: ['window', 'offset'],
  soft_offset: ['serve', 'error'],
  password_count: ['graphemes', 'codepoints'],
  errors: ['single', 'list'],
  hyphen_type: ['refuse', 'accept'],
  list_auth: ['optional', 'required'],
  gzip: ['always', 'request', 'never'],
  connection: ['close', 'keep-alive'],
  media: ['vnd', 'json'],
  resets: ['on', 'off'],
  empty_fields: ['accept', 'refuse'],
  duplicates: ['conflict', 'allow'],
  unknown_parent: ['accept', 'refuse'],
};
// The obvious readings, selectable all at once with --obvious.
const OBVIOUS = {
  position: 'meta',
  numbers: 'number',
  current: 'one',
  empty_total: 'zero',
  links: 'present',
  ts_precision: 'milli',
  ts_place: 'meta',
  ids: 'prefixed',
  default_order: 'created_asc',
  ties: 'id_asc',
  over_limit: 'clamp',
  zero_limit: 'default',
  hard_offset: 'error',
  hard_scope: 'offset',
  soft_offset: 'error',
  password_count: 'codepoints',
  errors: 'list',
  hyphen_type: 'accept',
  list_auth: 'required',
  gzip: 'request',
  connection: 'keep-alive',
  media: 'json',
  resets: 'off',
  empty_fields: 'refuse',
  duplicates: 'allow',
  unknown_parent: 'refuse',
};
const BREAKS = ['ge-as-gt', 'lowercase-username', 'ignore-offset-with-filter', 'limit-101'];

// ---------------------------------------------------------------- arguments
function usage(msg) {
  process.stderr.write(`server.mjs: ${msg}\n`);
  process.exit(2);
}
const R = Object.fromEntries(Object.entries(READINGS).map(([k, v]) => [k, v[0]]));
const BROKEN = new Set();
let port = 0,
  host = '127.0.0.1',
  seed = 7;
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const arg = a[i];
    const next = () => {
      if (i + 1 >= a.length) usage(`${arg} needs a value`);
      return a[++i];
    };
    if (arg === '--port') port = Number(next());
    else if (arg === '--host') host = next();
    else if (arg === '--seed') seed = Number(next()) >>> 0;
    else if (arg === '--obvious') Object.assign(R, OBVIOUS);
    else if (arg === '--reading') {
      const [k, v] = next().split('=');
      if (!READINGS[k]) usage(`unknown reading ${k}; known: ${Object.keys(READINGS).join(', ')}`);
      if (!READINGS[k].includes(v)) usage(`reading ${k} takes ${READINGS[k].join('|')}`);
      R[k] = v;
    } else if (arg === '--break') {
      const b = next();
      if (!BREAKS.includes(b)) usage(`unknown break ${b}; known: ${BREAKS.join(', ')}`);
      BROKEN.add(b);
    } else if (arg === '-h' || arg === '--help') {
      process.stdout.write(
        `node server.mjs --port N [--seed N] [--obvious] [--reading NAME=VALUE]... [--break NAME]...\n` +
          Object.entries(READINGS)
            .map(([k, v]) => `  ${k}: ${v.join('|')}`)
            .join('\n') +
          `\nbreaks: ${BREAKS.join(', ')}\n`,
      );
      process.exit(0);
    } else usage(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage('bad --port');
}

// ---------------------------------------------------------------- determinism helpers
function mulberry32(a) {
  return function () {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const sha = (s) => crypto.createHash('sha256').update(String(s)).digest('hex');
function uuidFrom(s) {
  const h = sha(s);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16], 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
const START_TOKEN = 'tok_' + sha(`token:${seed}`).slice(0, 40);
const REALM_ID = uuidFrom(`realm:${seed}`);
const UAI_ID = uuidFrom(`uai:${seed}`);
const PASSWORD_PROFILE_ID = uuidFrom(`pp:${seed}`);
const tokens = new Set([START_TOKEN]);
let tokenCounter = 0,
  uuidCounter = 0;

// ---------------------------------------------------------------- timestamps (integer microseconds)
let lastMicro = 0;
function nowMicro() {
  lastMicro = Math.max(Date.now() * 1000, lastMicro + 1);
  return lastMicro;
}
function fmtMs(micro) {
  return new Date(Math.floor(micro / 1000)).toISOString();
}
// The precision the API shows is the precision the data has: sort and filter use the shown value.
function shown(micro) {
  return R.ts_precision === 'milli' ? Math.floor(micro / 1000) * 1000 : R.ts_precision === 'seconds' ? Math.floor(micro / 1e6) * 1e6 : micro;
}
function fmtTs(micro) {
  const iso = new Date(Math.floor(micro / 1000)).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  if (R.ts_precision === 'milli') return iso;
  if (R.ts_precision === 'seconds') return iso.slice(0, 19) + 'Z';
  return iso.slice(0, 19) + '.' + String(micro % 1000000).padStart(6, '0') + 'Z';
}
// Parses an ISO 8601 timestamp of any fraction length to (possibly fractional) microseconds; NaN if invalid.
function parseTs(s) {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?(Z|[+-]\d\d:?\d\d)?$/i.exec(s);
  if (!m) return NaN;
  const [, Y, Mo, D, h = '0', mi = '0', se = '0', frac = '', tz = 'Z'] = m;
  let ms = Date.UTC(+Y, +Mo - 1, +D, +h, +mi, +se);
  if (Number.isNaN(ms) || +Mo < 1 || +Mo > 12 || +D < 1 || +D > 31 || +h > 23 || +mi > 59 || +se > 60) return NaN;
  if (tz.toUpperCase() !== 'Z') {
    const sign = tz[0] === '-' ? -1 : 1,
      d = tz.slice(1).replace(':', '');
    ms -= sign * (Number(d.slice(0, 2)) * 60 + Number(d.slice(2))) * 60000;
  }
  const f9 = frac.padEnd(9, '0'); // exact integer microseconds, sub-microsecond digits as a fraction
  return ms * 1000 + Number(f9.slice(0, 6)) + Number(f9.slice(6)) / 1000;
}

// ---------------------------------------------------------------- seeded data
// bursts: [startIndex, length] runs of records sharing the exact same created_at (full precision).
function genRecords(type, n, s, bursts, updBurst, fields) {
  const rnd = mulberry32(s);
  const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
  const ids = [];
  for (let i = 0, v = 0; i < n; i++) {
    v += ri(1, 97);
    ids.push(v);
  }
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  const recs = [];
  let t = Date.UTC(2023, 0, 1) * 1000;
  let burstLeft = 0;
  for (let i = 0; i < n; i++) {
    const b = bursts.find(([st]) => st === i);
    if (burstLeft > 0)
      burstLeft--; // same t as the previous record
    else {
      const r = rnd();
      if (r < 0.45)
        t += ri(1, 150); // neighbours inside one millisecond, distinct microseconds
      else if (r < 0.8) t += ri(1, 4000) * 1000 + ri(0, 999);
      else t += ri(60, 21600) * 1e6 + ri(0, 999999);
      if (b) burstLeft = b[1] - 1;
    }
    const u = rnd() < 0.5 ? t : t + ri(1, 30 * 86400) * 1e6 + ri(0, 999999);
    recs.push({ id: ids[i], c: t, u, f: fields(i, ids[i], rnd, ri) });
  }
  if (updBurst) {
    // a bulk update: many records sharing one updated_at
    const [st, len] = updBurst;
    const T = recs[st + len - 1].c + 86400e6 + 123457;
    for (let i = st; i < st + len; i++) recs[i].u = T;
  }
  return recs;
}
const STATUSES = ['incomplete', 'complete', 'processing', 'cancelled'];
const COLLECTIONS = {
  accounts: {
    type: 'account',
    prefix: 'acc_',
    hard: false,
    recs: genRecords(
      'account',
      1200,
      seed * 31 + 1,
      [
        [100, 30],
        [500, 60],
        [900, 130],
      ],
      [300, 45],
      (i, id, rnd, ri) => ({ name: `Account ${i + 1}`, legal_name: `Account ${i + 1} Holdings Ltd`, registration_id: `REG-${String(ri(0, 999999)).padStart(6, '0')}` }),
    ),
  },
  orders: {
    type: 'order',
    prefix: 'ord_',
    hard: true,
    recs: genRecords(
      'order',
      10200,
      seed * 31 + 2,
      [
        [2000, 40],
        [9970, 50],
      ],
      [5000, 60],
      (i, id, rnd, ri) => ({ status: STATUSES[ri(0, 3)], payment: ri(0, 1) ? 'paid' : 'unpaid', shipping: ri(0, 1) ? 'fulfilled' : 'unfulfilled' }),
    ),
  },
  files: {
    type: 'file',
    prefix: 'file_',
    hard: true,
    recs: genRecords(
      'file',
      10200,
      seed * 31 + 3,
      [
        [3000, 35],
        [9990, 30],
      ],
      [7000, 40],
      (i, id, rnd, ri) => ({ file_name: `file-${i + 1}.png`, mime_type: 'image/png', file_size: ri(100, 999999) }),
    ),
  },
  customers: {
    type: 'customer',
    prefix: 'cus_',
    hard: false,
    recs: genRecords('customer', 10100, seed * 31 + 4, [[50, 28]], null, (i) => ({ name: `Customer ${i + 1}`, email: `customer${i + 1}@example.com` })),
  },
  promotions: {
    type: 'promotion',
    prefix: 'promo_',
    hard: false,
    recs: genRecords('promotion', 60, seed * 31 + 5, [[10, 27]], null, (i, id, rnd, ri) => ({ name: `Promotion ${i + 1}`, enabled: ri(0, 1) === 1 })),
  },
};
for (const c of Object.values(COLLECTIONS)) {
  c.cache = new Map();
  c.byId = new Map(c.recs.map((r) => [r.id, r]));
}
let projectPageLength = 25;
const profileInfos = new Map(); // id -> record

// ---------------------------------------------------------------- ids: numeric (numeric order) or prefixed (string order)
const fmtId = (coll, rec) => (R.ids === 'numeric' ? String(rec.id) : coll.prefix + rec.id);
function idKey(coll, rec) {
  return R.ids === 'numeric' ? rec.id : coll.prefix + rec.id;
}
function parseIdParam(coll, s) {
  if (R.ids === 'numeric') return /^\d{1,15}$/.test(s) ? Number(s) : null;
  return s.startsWith(coll.prefix) && /^\d{1,15}$/.test(s.slice(coll.prefix.length)) ? Number(s.slice(coll.prefix.length)) : null;
}
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function sorted(coll, sortAttr) {
  const key = `${sortAttr || ''}|${R.ids}|${R.ties}|${R.default_order}|${R.ts_precision}`;
  let arr = coll.cache.get(key);
  if (arr) return arr;
  const tie = (a, b) => (R.ties === 'id_desc' ? -1 : 1) * cmp(idKey(coll, a), idKey(coll, b));
  let f;
  if (sortAttr === 'id') f = (a, b) => cmp(idKey(coll, a), idKey(coll, b));
  else if (sortAttr === 'created_at') f = (a, b) => cmp(shown(a.c), shown(b.c)) || tie(a, b);
  else if (sortAttr === 'updated_at') f = (a, b) => cmp(shown(a.u), shown(b.u)) || tie(a, b);
  else if (R.default_order === 'newest') f = (a, b) => cmp(shown(b.c), shown(a.c)) || tie(a, b);
  else f = (a, b) => cmp(shown(a.c), shown(b.c)) || tie(a, b);
  arr = [...coll.recs].sort(f);
  coll.cache.set(key, arr);
  return arr;
}

function renderRecord(coll, rec) {
  const o = { type: coll.type, id: fmtId(coll, rec), ...rec.f };
  const ts = { created_at: fmtTs(rec.c), updated_at: fmtTs(rec.u) };
  if (R.ts_place === 'attributes') o.attributes = ts;
  else if (R.ts_place === 'top') Object.assign(o, ts);
  else o.meta = R.ts_place === 'meta' ? ts : { timestamps: ts };
  return o;
}

// ---------------------------------------------------------------- errors and answers
class HttpError extends Error {
  constructor(status, code, message, kind = 'other') {
    super(message);
    this.status = status;
    this.code = code;
    this.kind = kind;
  }
}
const validation = (code, message) => new HttpError(R.errors === 'single' ? 422 : 400, code, message, 'validation');
const badQuery = (code, message) => new HttpError(400, code, message, 'query');

function send(req, res, status, body, extra = {}) {
  if (res.headersSent || res.destroyed) return;
  const headers = { ...extra };
  if (R.connection === 'close') headers.Connection = 'close';
  let payload = null;
  if (body !== undefined && status !== 204 && status !== 304) {
    payload = Buffer.from(JSON.stringify(body));
    headers['Content-Type'] = R.media === 'vnd' ? 'application/vnd.api+json' : 'application/json';
    const ae = String(req.headers['accept-encoding'] || '');
    const wants = /(^|,)\s*(gzip|\*)\s*(;\s*q=(?!0(\.0*)?\s*($|,))[\d.]+)?\s*($|,)/i.test(ae);
    if (R.gzip === 'always' || (R.gzip === 'request' && wants)) {
      payload = zlib.gzipSync(payload);
      headers['Content-Encoding'] = 'gzip';
    }
    if (R.gzip !== 'never') headers.Vary = 'Accept-Encoding';
    headers['Content-Length'] = payload.length;
  }
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : (payload ?? undefined));
}
function sendError(req, res, e) {
  const status = e.status;
  if (R.errors === 'single') send(req, res, status, { error: { code: e.code, message: e.message } });
  else send(req, res, status, { errors: [{ status: String(status), code: e.code, title: e.code.replace(/_/g, ' '), detail: e.message }] });
}

// ---------------------------------------------------------------- auth
function bearer(req) {
  const h = req.headers.authorization;
  if (h === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}
function requireAuth(req) {
  const t = bearer(req);
  if (t === undefined) throw new HttpError(401, 'unauthorized', 'an Authorization header with a Bearer token is required');
  if (t === null || !tokens.has(t)) throw new HttpError(401, 'invalid_token', 'the Bearer token is not valid');
}
function readAuth(req) {
  const t = bearer(req);
  if (t === undefined && R.list_auth === 'optional') return;
  requireAuth(req);
}

// ---------------------------------------------------------------- body
function readBody(req, max = 1 << 20) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0,
      failed = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > max && !failed) {
        failed = true;
        reject(new HttpError(413, 'payload_too_large', 'the request body is too large'));
      }
      if (!failed) chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}
async function readJson(req) {
  let buf = await readBody(req);
  if (/gzip/i.test(String(req.headers['content-encoding'] || ''))) {
    try {
      buf = zlib.gunzipSync(buf);
    } catch {
      throw new HttpError(400, 'bad_request', 'the body is not valid gzip');
    }
  }
  let body;
  try {
    body = JSON.parse(buf.toString('utf8'));
  } catch {
    throw new HttpError(400, 'bad_request', 'the body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw validation('invalid_body', 'the body must be a JSON object');
  if (body.data === null || typeof body.data !== 'object' || Array.isArray(body.data)) throw validation('invalid_body', 'the body must have an object member data');
  return body.data;
}

// ---------------------------------------------------------------- pagination, sort and filter
const SORTABLE = ['id', 'created_at', 'updated_at'];
function parseFilter(coll, s) {
  const conds = [];
  let rest = s.trim();
  while (rest.length) {
    const m = /^(\w+)\(\s*([A-Za-z_]+)\s*,\s*([^()]*?)\s*\)/.exec(rest);
    if (!m) throw badQuery('invalid_filter', `cannot parse filter ${JSON.stringify(s)}; use gt(attr,value) or ge(attr,value)`);
    const [whole, op, attr] = m;
    let value = m[3];
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    if (!['gt', 'ge', 'eq', 'lt', 'le'].includes(op)) throw badQuery('invalid_filter', `unsupported filter operator ${op}`);
    if (!SORTABLE.includes(attr)) throw badQuery('invalid_filter', `cannot filter on ${attr}; use one of ${SORTABLE.join(', ')}`);
    let v;
    if (attr === 'id') {
      if (R.ids === 'numeric') {
        if (!/^\d{1,15}$/.test(value)) throw badQuery('invalid_filter', `id filter value ${JSON.stringify(value)} is not an id`);
        v = Number(value);
      } else v = value;
    } else {
      v = parseTs(value);
      if (Number.isNaN(v)) throw badQuery('invalid_filter', `${attr} filter value ${JSON.stringify(value)} is not an ISO 8601 timestamp`);
    }
    conds.push({ op: op === 'ge' && BROKEN.has('ge-as-gt') ? 'gt' : op, attr, v });
    rest = rest.slice(whole.length).trim();
    if (rest.startsWith(':')) rest = rest.slice(1).trim();
    else if (rest.length) throw badQuery('invalid_filter', `cannot parse filter ${JSON.stringify(s)}`);
  }
  if (!conds.length) throw badQuery('invalid_filter', 'empty filter');
  return (rec) =>
    conds.every(({ op, attr, v }) => {
      const x = attr === 'id' ? idKey(coll, rec) : shown(attr === 'created_at' ? rec.c : rec.u);
      const c = cmp(x, v);
      return op === 'gt' ? c > 0 : op === 'ge' ? c >= 0 : op === 'eq' ? c === 0 : op === 'lt' ? c < 0 : c <= 0;
    });
}
function intParam(name, s) {
  if (!/^\d+$/.test(s)) throw badQuery('invalid_parameter', `${name} must be a non-negative integer`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw badQuery('invalid_parameter', `${name} is too large`);
  return n;
}
const OFFSET_LIMIT = 10000;
function listCollection(req, res, url, coll, base) {
  readAuth(req);
  const q = url.searchParams;
  let limit = projectPageLength;
  if (q.has('page[limit]')) {
    limit = intParam('page[limit]', q.get('page[limit]'));
    if (limit > 100) {
      if (R.over_limit === 'refuse') throw badQuery('invalid_parameter', 'page[limit] must not exceed 100');
      limit = 100;
    }
    if (limit === 0) {
      if (R.zero_limit === 'refuse') throw badQuery('invalid_parameter', 'page[limit] must be at least 1');
      limit = projectPageLength;
    }
  }
  const offset = q.has('page[offset]') ? intParam('page[offset]', q.get('page[offset]')) : 0;
  const sortAttr = q.has('sort') ? q.get('sort') : null;
  if (sortAttr !== null && !SORTABLE.includes(sortAttr)) throw badQuery('invalid_sort', `cannot sort by ${JSON.stringify(sortAttr)}; use one of ${SORTABLE.join(', ')}`);
  const filterStr = q.has('filter') ? q.get('filter') : null;
  const pred = filterStr !== null ? parseFilter(coll, filterStr) : null;
  let past = false;
  if (coll.hard) {
    past = R.hard_scope === 'window' ? offset >= OFFSET_LIMIT : offset > OFFSET_LIMIT;
    if (past && R.hard_offset === 'error') throw badQuery('offset_limit', `page[offset] passes the hard limit of ${OFFSET_LIMIT} records`);
  } else if (offset > OFFSET_LIMIT && R.soft_offset === 'error') {
    throw badQuery('offset_limit', `page[offset] passes the limit of ${OFFSET_LIMIT} records; use sort and filter instead`);
  }
  const all = sorted(coll, sortAttr);
  const rows = pred ? all.filter(pred) : all;
  const total = rows.length;
  let page = [];
  if (!past) {
    const from = pred && BROKEN.has('ignore-offset-with-filter') ? 0 : offset;
    let to = from + (BROKEN.has('limit-101') && limit === 100 ? 101 : limit);
    if (coll.hard && R.hard_scope === 'window') to = Math.min(to, OFFSET_LIMIT);
    page = rows.slice(from, Math.max(from, to));
  }
  const pages = total === 0 ? (R.empty_total === 'one' ? 1 : 0) : Math.ceil(total / limit);
  const current = Math.floor(offset / limit) + (R.current === 'one' ? 1 : 0);
  const num = (n) => (R.numbers === 'string' ? String(n) : n);
  const pageObj = { limit: num(limit), offset: num(offset), current: num(current), total: num(pages) };
  const results = { total: num(total) };
  const body = { data: page.map((r) => renderRecord(coll, r)) };
  if (R.position === 'nested') body.pagination = { info: { page: pageObj, results } };
  else if (R.position === 'top') {
    body.page = pageObj;
    body.results = results;
  } else body.meta = { page: pageObj, results };
  if (R.links === 'present') {
    const mk = (off) => {
      const u = new URL(url.pathname, base);
      for (const [k, v] of q) if (k !== 'page[offset]' && k !== 'page[limit]') u.searchParams.append(k, v);
      u.searchParams.set('page[limit]', String(limit));
      u.searchParams.set('page[offset]', String(off));
      return u.toString();
    };
    const lastOff = total === 0 ? 0 : (pages - 1) * limit;
    body.links = { current: mk(offset), first: mk(0), last: mk(lastOff), next: offset + limit < total ? mk(offset + limit) : null, prev: offset > 0 ? mk(Math.max(0, offset - limit)) : null };
  }
  send(req, res, 200, body);
}

// ---------------------------------------------------------------- accounts writes
function str(v) {
  return typeof v === 'string';
}
function dec(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new HttpError(404, 'not_found', 'malformed path segment');
  }
}
async function createAccount(req, res, coll) {
  requireAuth(req);
  const d = await readJson(req);
  if (d.type !== 'account') throw validation('invalid_type', 'data.type must be account');
  if (!str(d.name) || !d.name) throw validation('missing_field', 'data.name is required');
  if (d.legal_name !== undefined && !str(d.legal_name)) throw validation('invalid_field', 'data.legal_name must be a string');
  if (d.registration_id !== undefined && !str(d.registration_id)) throw validation('invalid_field', 'data.registration_id must be a string');
  let max = 0;
  for (const r of coll.recs) if (r.id > max) max = r.id;
  const t = nowMicro();
  const rec = { id: max + 1, c: t, u: t, f: { name: d.name, legal_name: d.legal_name ?? d.name, registration_id: d.registration_id ?? '' } };
  coll.recs.push(rec);
  coll.byId.set(rec.id, rec);
  coll.cache.clear();
  send(req, res, 201, { data: renderRecord(coll, rec) });
}
async function updateAccount(req, res, coll, rec) {
  requireAuth(req);
  const d = await readJson(req);
  if (d.type !== undefined && d.type !== 'account') throw validation('invalid_type', 'data.type must be account');
  for (const k of ['name', 'legal_name', 'registration_id']) {
    if (d[k] === undefined) continue;
    if (!str(d[k]) || (k === 'name' && !d[k])) throw validation('invalid_field', `data.${k} must be a non-empty string`);
    rec.f[k] = d[k];
  }
  rec.u = nowMicro();
  coll.cache.clear();
  send(req, res, 200, { data: renderRecord(coll, rec) });
}

// ---------------------------------------------------------------- password profile info
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
function pwLength(p) {
  return R.password_count === 'graphemes' ? [...graphemes.segment(p)].length : [...p].length;
}
function selfLink(base, realm, uai, id) {
  return `${base}/authentication-realms/${realm}/user-authentication-info/${uai}/user-authentication-password-profile-info/${id}`;
}
function renderProfile(base, p) {
  return {
    data: { id: p.id, type: 'user_authentication_password_profile_info', username: p.username, password_profile_id: p.password_profile_id, meta: { created_at: fmtMs(p.c), updated_at: fmtMs(p.u) } },
    links: { self: selfLink(base, p.realm, p.uai, p.id) },
  };
}
function checkParent(realm, uai) {
  if (R.unknown_parent === 'refuse' && (dec(realm) !== REALM_ID || dec(uai) !== UAI_ID)) throw new HttpError(404, 'not_found', 'authentication realm or user-authentication-info not found');
}
async function createProfile(req, res, base, realm, uai) {
  requireAuth(req);
  checkParent(realm, uai);
  const d = await readJson(req);
  if (d.type === undefined) throw validation('missing_field', 'data.type is required');
  if (d.type !== 'user_authentication_password_profile_info' && !(R.hyphen_type === 'accept' && d.type === 'user-authentication-password-profile-info'))
    throw validation('invalid_type', 'data.type must be user_authentication_password_profile_info');
  for (const k of ['password_profile_id', 'username', 'password']) {
    if (d[k] === undefined || d[k] === null) throw validation('missing_field', `data.${k} is required`);
    if (!str(d[k])) throw validation('invalid_field', `data.${k} must be a string`);
    if (k !== 'password' && R.empty_fields === 'refuse' && d[k].length === 0) throw validation('invalid_field', `data.${k} must not be empty`);
  }
  if (pwLength(d.password) < 8) throw validation('password_too_short', 'data.password must be at least 8 characters');
  const username = BROKEN.has('lowercase-username') ? d.username.toLowerCase() : d.username;
  if (R.duplicates === 'conflict') {
    for (const p of profileInfos.values())
      if (p.realm === realm && p.uai === uai && p.username === username) throw new HttpError(409, 'conflict', 'a password profile info with this username already exists');
  }
  const t = nowMicro();
  const p = { id: uuidFrom(`profile:${seed}:${++uuidCounter}`), realm, uai, username, password_profile_id: d.password_profile_id, pw: sha(d.password), c: t, u: t };
  profileInfos.set(p.id, p);
  send(req, res, 201, renderProfile(base, p));
}

// ---------------------------------------------------------------- token endpoint
async function issueToken(req, res) {
  const buf = await readBody(req, 65536);
  const ct = String(req.headers['content-type'] || '');
  let f = {};
  if (/json/i.test(ct)) {
    try {
      f = JSON.parse(buf.toString('utf8')) || {};
    } catch {
      f = {};
    }
  } else f = Object.fromEntries(new URLSearchParams(buf.toString('utf8')));
  if (f.grant_type !== 'client_credentials') throw new HttpError(400, 'unsupported_grant_type', 'grant_type must be client_credentials');
  if (!f.client_id || !f.client_secret) throw new HttpError(400, 'invalid_request', 'client_id and client_secret are required');
  const t = 'tok_' + sha(`issued:${seed}:${++tokenCounter}`).slice(0, 40);
  tokens.add(t);
  send(req, res, 200, { access_token: t, token_type: 'Bearer', expires_in: 3600, expires: Math.floor(Date.now() / 1000) + 3600, identifier: 'client_credentials' });
}

// ---------------------------------------------------------------- routing
const PROFILE_RE = /^\/v2\/authentication-realms\/([^/]+)\/user-authentication-info\/([^/]+)\/user-authentication-password-profile-info(?:\/([^/]*))?\/?$/;
async function route(req, res) {
  let url;
  try {
    url = new URL(req.url.startsWith('/') ? `http://localhost${req.url}` : req.url);
  } catch {
    throw new HttpError(400, 'bad_request', 'the request target is not a valid URL');
  }
  const base = `http://${req.headers.host || `${host}:${port}`}`;
  const path = url.pathname;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const notAllowed = (allow) => {
    throw Object.assign(new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here`), { allow });
  };

  if (path === '/oauth/access_token' || path === '/oauth/access_token/') {
    if (method !== 'POST') notAllowed('POST');
    return issueToken(req, res);
  }
  let m = PROFILE_RE.exec(path);
  if (m) {
    const [, realm, uai, id] = m;
    if (!id) {
      if (method !== 'POST') notAllowed('POST');
      return createProfile(req, res, base, realm, uai);
    }
    if (method === 'GET') readAuth(req);
    else if (method === 'DELETE') requireAuth(req);
    else notAllowed('GET, DELETE');
    const p = profileInfos.get(id);
    if (!p || p.realm !== realm || p.uai !== uai) throw new HttpError(404, 'not_found', 'password profile info not found');
    if (method === 'DELETE') {
      profileInfos.delete(id);
      return send(req, res, 204);
    }
    return send(req, res, 200, renderProfile(base, p));
  }
  if (path === '/v2/settings' || path === '/v2/settings/') {
    if (method === 'GET') {
      readAuth(req);
      return send(req, res, 200, { data: { type: 'settings', page_length: projectPageLength } });
    }
    if (method !== 'PUT') notAllowed('GET, PUT');
    requireAuth(req);
    const d = await readJson(req);
    if (d.type !== undefined && d.type !== 'settings') throw validation('invalid_type', 'data.type must be settings');
    if (d.page_length !== undefined) {
      if (!Number.isInteger(d.page_length) || d.page_length < 1 || d.page_length > 100) throw validation('invalid_field', 'data.page_length must be an integer from 1 to 100');
      projectPageLength = d.page_length;
    }
    return send(req, res, 200, { data: { type: 'settings', page_length: projectPageLength } });
  }
  m = /^\/v2\/(accounts|orders|files|customers|promotions)(?:\/([^/]+))?\/?$/.exec(path);
  if (m) {
    const coll = COLLECTIONS[m[1]];
    if (!m[2]) {
      if (method === 'GET') return listCollection(req, res, url, coll, base);
      if (method === 'POST' && m[1] === 'accounts') return createAccount(req, res, coll);
      notAllowed(m[1] === 'accounts' ? 'GET, POST' : 'GET');
    }
    const writable = m[1] === 'accounts';
    if (method === 'GET') readAuth(req);
    else if (writable && (method === 'PUT' || method === 'DELETE')) requireAuth(req);
    else notAllowed(writable ? 'GET, PUT, DELETE' : 'GET');
    const id = parseIdParam(coll, dec(m[2]));
    const rec = id === null ? undefined : coll.byId.get(id);
    if (!rec) throw new HttpError(404, 'not_found', `${coll.type} not found`);
    if (method === 'GET') return send(req, res, 200, { data: renderRecord(coll, rec) });
    if (method === 'PUT') return updateAccount(req, res, coll, rec);
    coll.recs.splice(coll.recs.indexOf(rec), 1);
    coll.byId.delete(rec.id);
    coll.cache.clear();
    return send(req, res, 204);
  }
  throw new HttpError(404, 'not_found', `no route for ${req.method} ${path}`);
}

// ---------------------------------------------------------------- server, resets
let connCount = 0;
const doomed = (n) => mulberry32((seed * 2654435761 + n * 40503) >>> 0)() < 0.05;
const server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => {
  const sock = req.socket;
  if (R.resets === 'on' && req.method === 'GET' && sock.__doomed && !sock.__reset) {
    sock.__reset = true;
    return sock.resetAndDestroy();
  }
  route(req, res).catch((e) => {
    if (!(e instanceof HttpError)) {
      process.stderr.write(`error: ${(e && e.stack) || e}\n`);
      e = new HttpError(500, 'internal_error', 'internal error');
    }
    if (e.allow) res.setHeader('Allow', e.allow);
    sendError(req, res, e);
  });
});
server.on('connection', (s) => {
  s.__n = ++connCount;
  s.__doomed = doomed(s.__n);
});
server.on('clientError', (err, s) => {
  if (s.writable) s.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  else s.destroy();
});
server.listen(port, host, () => {
  const a = server.address();
  process.stdout.write(
    JSON.stringify({ base_url: `http://${host}:${a.port}`, token: START_TOKEN, realm_id: REALM_ID, user_authentication_info_id: UAI_ID, password_profile_id: PASSWORD_PROFILE_ID }) + '\n',
  );
});
const stop = () => server.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 2000).unref();
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
