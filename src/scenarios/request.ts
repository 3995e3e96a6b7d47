/** From a scenario's request spec (templates filled) to the TargetRequest a Target sends. */
import type { TargetRequest } from '../port.js';
import { interpolate, interpolateString, type Interpolated, type QueryEntry, type RequestSpec, type TemplateValues } from './format.js';

export type QueryPair = readonly [name: string, value: string];

/** encodeURIComponent, but the characters of the filter grammar (`(),:*`) stay readable (it keeps `()*` itself). */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',').replace(/%3A/gi, ':');
}

/** Appends the query raw: names as given (`page[limit]`, brackets unencoded), values encoded. */
export function buildUrl(path: string, query: readonly QueryPair[]): string {
  if (query.length === 0) return path;
  const text = query.map(([name, value]) => `${name}=${encodeQueryValue(value)}`).join('&');
  return `${path}${path.includes('?') ? '&' : '?'}${text}`;
}

export function resolveQuery(query: readonly QueryEntry[], values: TemplateValues): Interpolated<QueryPair[]> {
  const out: QueryPair[] = [];
  for (const [name, value] of query) {
    if (typeof value !== 'string') {
      out.push([name, String(value)]);
      continue;
    }
    const r = interpolateString(value, values);
    if (!r.ok) return r;
    out.push([name, r.value]);
  }
  return { ok: true, value: out };
}

export function resolveRequest(spec: RequestSpec, values: TemplateValues): Interpolated<TargetRequest> {
  const path = interpolateString(spec.path, values);
  if (!path.ok) return path;
  const query = resolveQuery(spec.query, values);
  if (!query.ok) return query;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers)) {
    const r = interpolateString(value, values);
    if (!r.ok) return r;
    headers[name] = r.value;
  }
  let body: string | undefined;
  switch (spec.body.kind) {
    case 'none':
      break;
    case 'raw': {
      const r = interpolateString(spec.body.text, values);
      if (!r.ok) return r;
      body = r.value;
      break;
    }
    case 'json': {
      const r = interpolate(spec.body.value, values);
      if (!r.ok) return r;
      body = JSON.stringify(r.value) ?? 'null';
      headers['content-type'] ??= 'application/json';
      break;
    }
  }
  const request: TargetRequest = {
    method: spec.method,
    url: buildUrl(path.value, query.value),
    headers,
    ...(body === undefined ? {} : { body }),
    auth: spec.auth,
  };
  return { ok: true, value: request };
}
