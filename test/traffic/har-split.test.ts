/** The HAR entry splitter: the same entries whatever the chunks the bytes come in, and only log.entries' own. */
import { describe, expect, it } from 'vitest';
import { HarSplitter } from '../../src/traffic/har/split.js';

const entries = [
  { request: { method: 'GET', url: 'https://h/a?q="x"' }, response: { status: 200, content: { text: '{"data":[{"name":"a\\\\"}]} ]}' } } },
  { request: { method: 'GET', url: 'https://h/ü/😀' }, response: { status: 200, content: { text: 'ends with a backslash \\' } }, entries: [{ nested: true }] },
  { request: { method: 'POST', url: 'https://h/b' }, response: { status: 201, headers: [{ name: '"', value: '{[' }] }, comment: '\u0000\u001f\u2028' },
];

/** Members around `log.entries` that must be skipped, one of them with an `entries` of its own. */
const har = JSON.stringify(
  {
    _decoy: { entries: [{ decoy: 1 }] },
    log: { version: '1.2', creator: { name: 'x "y"', version: '1' }, pages: [{ id: 'p', title: '"entries": [' }], entries, comment: 'after' },
    _after: [1, { log: { entries: [{ decoy: 2 }] } }],
  },
  null,
  2,
).replace('"log"', '"l\\u006fg"');

function split(bytes: Buffer, sizes: (i: number) => number): unknown[] {
  const splitter = new HarSplitter({ file: 'test.har', maxEntryBytes: 1 << 20 });
  const out: unknown[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes(i));
    for (const text of splitter.push(bytes.subarray(at, at + size))) out.push(JSON.parse(text));
    at += size;
  }
  splitter.end();
  return out;
}

describe('HarSplitter', () => {
  const bytes = Buffer.from(har, 'utf8');

  it.each([1, 2, 3, 5, 7, 64, 4096])('cuts the same entries from chunks of %i bytes (escapes, multi-byte characters and decoys included)', (size) => {
    expect(split(bytes, () => size)).toEqual(entries);
  });

  it('cuts the same entries from chunks of irregular sizes', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 37;
    for (let run = 0; run < 20; run++) expect(split(bytes, next)).toEqual(entries);
  });

  it('knows the root members, to tell what a file without log.entries is', () => {
    const splitter = new HarSplitter({ file: 'f.json', maxEntryBytes: 1000 });
    splitter.push(Buffer.from('\uFEFF{"case": "a", "request": {"entries": []}, "response": {}}'));
    splitter.end();
    expect(splitter.rootKeys).toEqual(['case', 'request', 'response']);
    expect(splitter.sawEntries).toBe(false);
  });
});
