import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/engine/api-errors.js';
import { parseSort } from '../../src/engine/sort.js';

const allowed = ['created_at', 'id', 'name', 'updated_at'] as const;

function refusal(d: Decision<unknown>): { status: number; detail: string | undefined } {
  if (d.ok) throw new Error('expected a refusal');
  return { status: d.error.status, detail: d.error.detail };
}

describe('parseSort', () => {
  it('reads attr as ascending and -attr as descending', () => {
    expect(parseSort('created_at', allowed)).toEqual({ ok: true, value: { field: 'created_at', direction: 'asc' } });
    expect(parseSort('-id', allowed)).toEqual({ ok: true, value: { field: 'id', direction: 'desc' } });
  });

  it('reads a raw + (decoded to a space) as ascending', () => {
    expect(parseSort(' name', allowed)).toEqual({ ok: true, value: { field: 'name', direction: 'asc' } });
  });

  it.each(['colour', 'ID', '--id', 'id,name', 'name desc'])('refuses the attribute %j', (text) => {
    const field = text.startsWith('-') ? text.slice(1) : text;
    expect(refusal(parseSort(text, allowed))).toEqual({ status: 400, detail: `Unsupported sort attribute: ${field}` });
  });

  it.each(['', '   ', '-'])('refuses the empty attribute %j', (text) => {
    expect(refusal(parseSort(text, allowed))).toEqual({ status: 400, detail: 'Sort attribute must not be empty' });
  });

  it('refuses everything when nothing is allowed', () => {
    expect(refusal(parseSort('id', [])).status).toBe(400);
  });
});
