import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.js';

/** The report as JSON without its timing block: what two runs of one seed share. */
const withoutTiming = (r: Parameters<typeof renderJson>[0]): string => renderJson({ ...r, timing: { startedAt: '', durationMs: 0, requests: 0, runId: '' } });
import type { RunReport } from '../../src/report/model.js';
import { makeReport } from './fixture.js';

const schema: object = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

describe('renderJson', () => {
  it('validates against schemas/report.schema.json', () => {
    for (const strict of [false, true]) {
      const doc: unknown = JSON.parse(renderJson(makeReport({ strict })));
      expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
    }
  });

  it('the schema rejects a document that breaks the model', () => {
    const text = renderJson(makeReport());
    expect(text).toContain('"actual": 250');
    expect(validate(JSON.parse(text.replace('"actual": 250', '"actua1": 250')))).toBe(false);
    expect(validate(JSON.parse(text.replace('"verdict": "fail"', '"verdict": "maybe"')))).toBe(false);
  });

  it('is 2-space indented with a trailing newline and the model key order, whatever the input order', () => {
    const report = makeReport();
    const text = renderJson(report);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "schemaVersion": 1,');
    const reverseKeys = (_k: string, v: unknown): unknown => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v);
    const reversed: RunReport = JSON.parse(JSON.stringify(report, reverseKeys));
    expect(JSON.stringify(reversed)).not.toBe(JSON.stringify(report));
    expect(renderJson(reversed)).toBe(text);
  });

  it('without timing, runs that differ only in timing compare equal', () => {
    const a = makeReport({ runId: 'a', durationMs: 1 });
    const b = makeReport({ runId: 'b', durationMs: 2 });
    expect(renderJson(a)).not.toBe(renderJson(b));
    expect(withoutTiming(a)).toBe(withoutTiming(b));
  });
});
