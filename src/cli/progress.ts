/**
 * The export's progress line on stderr: `[#####·····]  50%  500/1,000 accounts, 5 pages  1,200/s  ETA 1s`.
 * Redrawn at most every `intervalMs` (a terminal repainting thousands of times a second slows the export
 * and the terminal), always on the first update and at the end. The clock is injected for tests.
 */
import type { ExportProgress } from '../client/export.js';

export interface ProgressOptions {
  readonly write: (text: string) => void;
  readonly now: () => number;
  /** Least time between two redraws (default 100 ms: ten a second). */
  readonly intervalMs?: number;
  readonly width?: number;
}

export interface ProgressLine {
  update(p: ExportProgress): void;
  /** Draw the last state (if it was not drawn), then clear the line. */
  finish(): void;
  /** How many times it drew. */
  readonly draws: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** One progress line (pure): counts, bar, rate and ETA from the records done over the seconds elapsed. */
export function progressText(p: ExportProgress, elapsedMs: number, width = 24): string {
  const count = `${fmt(p.records)}${p.expected === undefined ? '' : `/${fmt(p.expected)}`} accounts, ${fmt(p.pages)} page${p.pages === 1 ? '' : 's'}`;
  const rate = elapsedMs > 0 ? (p.records * 1000) / elapsedMs : 0;
  const speed = rate > 0 ? `  ${fmt(rate)}/s` : '';
  if (p.expected === undefined || p.expected === 0) return `${count}${speed}`;
  const share = Math.min(1, p.records / p.expected);
  const filled = Math.round(share * width);
  const eta = rate > 0 && p.records < p.expected ? `  ETA ${duration((p.expected - p.records) / rate)}` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${count}${speed}${eta}`;
}

export function progressLine(options: ProgressOptions): ProgressLine {
  const interval = options.intervalMs ?? 100;
  const started = options.now();
  let lastDraw = -Infinity;
  let pending: ExportProgress | undefined;
  let draws = 0;
  const draw = (p: ExportProgress, at: number) => {
    options.write(`\r\x1b[K${progressText(p, at - started, options.width)}`);
    lastDraw = at;
    pending = undefined;
    draws++;
  };
  return {
    update(p) {
      const at = options.now();
      if (at - lastDraw >= interval) draw(p, at);
      else pending = p;
    },
    finish() {
      if (pending !== undefined) draw(pending, options.now());
      options.write('\r\x1b[K');
    },
    get draws() {
      return draws;
    },
  };
}
