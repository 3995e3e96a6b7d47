import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { REDACTED } from '../../src/report/redact.js';
import { makeReport, SECRETS } from './fixture.js';

describe('no secret leaves in any output', () => {
  const report = makeReport();
  const outputs = { json: renderJson(report), junit: renderJunit(report), markdown: renderMarkdown(report), html: renderHtml(report) };

  for (const [format, text] of Object.entries(outputs)) {
    it(format, () => {
      for (const secret of SECRETS) expect(text, secret).not.toContain(secret);
      expect(text).not.toContain('bearer-secret');
      expect(text).not.toContain('cookie-secret');
      expect(text).toContain(REDACTED);
    });
  }
});
