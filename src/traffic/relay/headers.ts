/**
 * Which header lines the relay passes on, as pure functions over flat header lists (name, value, name,
 * value, ...: node's `rawHeaders` and undici's raw headers), so names keep their case, repeated lines
 * stay apart and order is kept. Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and stop here.
 */

/** Hop-by-hop in both directions, besides every `proxy-*` name and the names `Connection` lists. */
const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * Request headers the relay does not pass on besides the hop-by-hop ones: `host` (the upstream's is sent)
 * and `expect` (node already answered `100 Continue`; undici sends no Expect).
 */
const REQUEST_ONLY: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'host', 'expect']);

/** Header text from a raw line (undici hands Buffers, node strings); bytes as latin1, as HTTP/1.1 carries them. */
function text(value: string | Buffer | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : value.toString('latin1');
}

const NONE: readonly string[] = [];

/** Names a `Connection` header lists, other than the ones already dropped (`close`, `keep-alive`). */
function listedIn(value: string, dropped: ReadonlySet<string>): readonly string[] {
  // The usual values name nothing more.
  if (value.length <= 10 && (value === 'keep-alive' || value === 'close' || value === 'Keep-Alive' || value === 'Close')) return NONE;
  return value
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t !== '' && t !== 'close' && !dropped.has(t));
}

function forward(raw: readonly (string | Buffer)[], dropped: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let listed: string[] | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = text(raw[i]);
    const lower = name.toLowerCase();
    if (lower === 'connection') {
      const more = listedIn(text(raw[i + 1]), dropped);
      if (more.length > 0) listed = (listed ?? []).concat(more);
      continue;
    }
    if (dropped.has(lower) || lower.startsWith('proxy-')) continue;
    out.push(name, text(raw[i + 1]));
  }
  return listed === undefined ? out : withoutNames(out, listed);
}

function withoutNames(flat: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i] ?? '';
    if (!names.includes(name.toLowerCase())) out.push(name, flat[i + 1] ?? '');
  }
  return out;
}

/**
 * The client's request headers as sent upstream: no hop-by-hop ones, no `host`, no `expect`; and what the
 * upstream needs to know of the client and of the address it used, as a reverse proxy tells it: the
 * client's address appended to `X-Forwarded-For`, `X-Forwarded-Host` and `-Proto` unless an earlier proxy
 * set them, and an element appended to `Forwarded` (RFC 7239). An upstream that builds links for the
 * address its clients use (the simulator does) can then build them for the proxy's.
 */
export function forwardRequestHeaders(raw: readonly string[], client?: { readonly address: string | undefined; readonly proto: 'http' | 'https' }): string[] {
  const out = forward(raw, REQUEST_ONLY);
  if (client === undefined) return out;
  const host = valueIn(raw, 'host');
  const forAddress = client.address ?? 'unknown';
  appendTo(out, 'x-forwarded-for', forAddress, 'X-Forwarded-For', ', ');
  if (host !== undefined && valueIn(out, 'x-forwarded-host') === undefined) out.push('X-Forwarded-Host', host);
  if (valueIn(out, 'x-forwarded-proto') === undefined) out.push('X-Forwarded-Proto', client.proto);
  const node = forAddress.includes(':') ? `"[${forAddress}]"` : forAddress;
  const element = `for=${node}${host === undefined ? '' : `;host=${/^[\w.-]+$/.test(host) ? host : JSON.stringify(host)}`};proto=${client.proto}`;
  appendTo(out, 'forwarded', element, 'Forwarded', ', ');
  return out;
}

function valueIn(flat: readonly string[], lower: string): string | undefined {
  for (let i = 0; i + 1 < flat.length; i += 2) if ((flat[i] ?? '').toLowerCase() === lower) return flat[i + 1];
  return undefined;
}

/** Appends `value` to the first line named `lower` (joined by `sep`), or adds a line `name: value`. */
function appendTo(flat: string[], lower: string, value: string, name: string, sep: string): void {
  for (let i = 0; i + 1 < flat.length; i += 2) {
    if ((flat[i] ?? '').toLowerCase() === lower) {
      flat[i + 1] = `${flat[i + 1] ?? ''}${sep}${value}`;
      return;
    }
  }
  flat.push(name, value);
}

/** The upstream's answer headers as sent to the client: everything but the hop-by-hop ones. */
export function forwardResponseHeaders(raw: readonly (string | Buffer)[]): string[] {
  return forward(raw, HOP_BY_HOP);
}

/** Parsed headers (undici's object, names lower-cased) as a flat list: the fallback when no raw lines are given. */
export function flatHeaders(parsed: Readonly<Record<string, string | string[] | undefined>>): (string | Buffer)[] {
  const out: string[] = [];
  for (const name of Object.keys(parsed)) {
    const value = parsed[name];
    if (Array.isArray(value)) for (const v of value) out.push(name, v);
    else if (value !== undefined) out.push(name, value);
  }
  return out;
}

/** Whether the request announces a body (`content-length` above 0 or any `transfer-encoding`), from its raw lines. */
export function announcesBody(raw: readonly string[]): boolean {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length !== 14 && name.length !== 17) continue;
    const lower = name.toLowerCase();
    if (lower === 'transfer-encoding') return true;
    if (lower === 'content-length' && (raw[i + 1] ?? '').trim() !== '0') return true;
  }
  return false;
}

/** A flat list as a record for judging: names lower-cased, repeated lines joined with `, `. */
export function headerRecord(flat: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = (flat[i] ?? '').toLowerCase();
    const value = flat[i + 1] ?? '';
    const before = out[name];
    out[name] = before === undefined ? value : `${before}, ${value}`;
  }
  return out;
}

/** The header `annotate`'s text travels in. */
const FINDINGS_HEADER = 'x-commerce-sim-findings';
/** The longest findings header value, in bytes. */
const MAX_FINDINGS_BYTES = 1024;

/**
 * `annotate`'s text as a header value: every character outside visible ASCII and tab becomes a space
 * (line breaks included, so no header can be injected), and the whole is cut to 1,024 bytes (one byte a
 * character now). Nothing left: no header.
 */
export function findingsValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const safe = value
    .replace(/[^\t\x20-\x7e]/g, ' ')
    .trim()
    .slice(0, MAX_FINDINGS_BYTES)
    .trimEnd();
  return safe === '' ? undefined : safe;
}

/** The answer's headers plus the findings, as the one line of that name (an upstream's own line of it is dropped). */
export function withFindings(flat: readonly string[], value: string): string[] {
  const out = withoutNames(flat, [FINDINGS_HEADER]);
  out.push(FINDINGS_HEADER, value);
  return out;
}
