/** Reading parsed JSON without casts: members by path, scalars, scenario variables. */

export type JsonObject = Readonly<Record<string, unknown>>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The member at `path`, or undefined when any step is missing or not an object. */
export function at(v: unknown, ...path: readonly string[]): unknown {
  let cur = v;
  for (const key of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

export const asNumber = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A scenario variable as text (numbers are turned into text). */
export function varString(vars: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = vars[name];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** A scenario variable as a number (numeric strings accepted). */
export function varNumber(vars: Readonly<Record<string, unknown>>, name: string): number | undefined {
  const v = vars[name];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

/** The dotted path of the first member named `key` anywhere inside `json` (`data.password`), or undefined. */
export function findKey(json: unknown, key: string, prefix = ''): string | undefined {
  if (Array.isArray(json)) {
    for (const [i, v] of json.entries()) {
      const found = findKey(v, key, `${prefix}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(json)) return undefined;
  for (const k of Object.keys(json)) {
    const here = prefix === '' ? k : `${prefix}.${k}`;
    if (k === key) return here;
    const found = findKey(json[k], key, here);
    if (found !== undefined) return found;
  }
  return undefined;
}
