/**
 * The project's prose: README.md and every Markdown file under docs/ (issue 35 moved most of the README into
 * docs/). Tests that check what the documentation says read it from here, so a section that moves from one
 * file to another stays checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** README.md, then docs/**\/*.md in path order: repository-relative paths with `/`. */
export function docFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(relative(ROOT, path).split('\\').join('/'));
    }
  };
  walk(join(ROOT, 'docs'));
  return ['README.md', ...found.sort()];
}

export const readDoc = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** A fenced block of a documentation file: its language tag and its lines (without the fences). */
export interface Block {
  readonly file: string;
  readonly lang: string;
  readonly lines: readonly string[];
}

export function blocksOf(file: string, text: string = readDoc(file)): Block[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ file, lang: m[1] ?? '', lines: (m[2] ?? '').split('\n').slice(0, -1) }));
}

/** The text of one section: from its heading line (exact) to the next heading of the same or a higher level. */
export function section(text: string, heading: string): string {
  const start = text.split('\n').indexOf(heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  const lines = text.split('\n').slice(start);
  let inFence = false;
  const end = lines.findIndex((line, i) => {
    if (line.startsWith('```')) inFence = !inFence;
    const m = /^(#+) /.exec(line);
    return i > 0 && !inFence && m !== null && (m[1]?.length ?? 0) <= level;
  });
  return lines.slice(0, end < 0 ? undefined : end).join('\n');
}

/** A text with its fenced blocks and inline code blanked out: links and headings are read outside code only. */
function outsideCode(text: string): string[] {
  let inFence = false;
  return text.split('\n').map((line) => {
    if (line.startsWith('```')) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line.replace(/`[^`]*`/g, (code) => (code.includes('](') ? '' : code));
  });
}

/** The target of every inline link `[text](target)` outside code, with its line number. */
export function linksOf(text: string): { readonly line: number; readonly target: string }[] {
  return outsideCode(text).flatMap((line, i) => [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ line: i + 1, target: m[1] ?? '' })));
}

/**
 * The anchors GitHub gives a file's headings: the heading's text lower-cased, inline-code backticks and
 * punctuation dropped (letters, digits, `_`, `-` and spaces kept), spaces turned to `-`; a repeated anchor
 * gets `-1`, `-2`, ... (github-slugger's rule).
 */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of outsideCode(text)) {
    const heading = /^#{1,6} (.*?)#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
