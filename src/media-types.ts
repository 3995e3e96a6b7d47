/** `application/json` or a `+json` media type, parameters aside: what a deployment strict about creates wants said (readings.ts `create.media-type`). */
export function isJsonMediaType(type: string | undefined): boolean {
  const t = (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return t === 'application/json' || /^application\/[\w.+-]+\+json$/.test(t);
}
