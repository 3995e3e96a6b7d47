/**
 * A headless Chromium that arrives with `npm ci` (issue 35): the devDependency @sparticuz/chromium ships
 * chrome-headless-shell brotli-packed in its tarball (no download at install or at run time), and it needs
 * only libraries a Debian 12 machine of this kind has (libc, libnss3, libnspr4, libexpat). It is inflated
 * once per version into node_modules/.cache, then driven over the DevTools protocol on a pipe
 * (--remote-debugging-pipe): its command-line screenshot and --dump-dom modes never return on this machine
 * (the shell's headless command handler does not start), while the protocol answers at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '../..');
/** Each protocol call answers well within this, or the page hung: fail, never wait forever. */
const CALL_TIMEOUT_MS = 60_000;

/** The chromium binary of the installed @sparticuz/chromium, inflated on first use (about 190 MB, 2 s). */
export async function chromiumExecutable(): Promise<string> {
  const packageDir = resolve(dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))), '../..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const dir = join(ROOT, 'node_modules/.cache/commerce-sim-chromium', version);
  const exe = join(dir, 'chromium');
  if (existsSync(exe)) return exe;
  mkdirSync(dir, { recursive: true });
  // Inflated beside its final name, then renamed: a second test process never runs half a binary.
  const partial = `${exe}.${process.pid}.partial`;
  try {
    await pipeline(createReadStream(join(packageDir, 'bin/chromium.br')), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
    renameSync(partial, exe);
  } finally {
    rmSync(partial, { force: true });
  }
  return exe;
}

export interface Page {
  /** Opens `url` and resolves once its load event fired. */
  open(url: string): Promise<void>;
  /** The value of a JavaScript expression in the page (JSON-serialisable). */
  evaluate(expression: string): Promise<unknown>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Buffer>;
}

export interface Browser {
  /** A new tab with a viewport of `width` × `height` CSS pixels. */
  newPage(width: number, height: number): Promise<Page>;
  close(): Promise<void>;
}

interface Message {
  readonly id?: number;
  readonly method?: string;
  readonly sessionId?: string;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly message: string };
}

/** Starts headless Chromium with a fresh profile under `profileDir`. */
export async function launchChromium(profileDir: string): Promise<Browser> {
  const exe = await chromiumExecutable();
  const child: ChildProcess = spawn(
    exe,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      // This machine has no network: without these Chromium keeps trying to reach Google's hosts.
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--remote-debugging-pipe',
      `--user-data-dir=${profileDir}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(m: Message) => void>();
  let exited: Error | undefined;
  child.once('exit', (code, signal) => {
    // A binary that cannot start (a shared library missing) ends here, with the loader's words on stderr.
    exited = new Error(`chromium exited (${String(code ?? signal)}): ${stderr.trim() || '(nothing on stderr)'}`);
    for (const p of pending.values()) p.reject(exited);
    pending.clear();
  });
  let buffered = '';
  fromBrowser.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as Message;
      buffered = buffered.slice(end + 1);
      const waiting = message.id === undefined ? undefined : pending.get(message.id);
      if (waiting !== undefined && message.id !== undefined) {
        pending.delete(message.id);
        waiting.resolve(message);
      } else for (const listen of listeners) listen(message);
    }
  });
  let nextId = 0;
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> =>
    new Promise((resolveCall, rejectCall) => {
      if (exited !== undefined) return rejectCall(exited);
      const id = ++nextId;
      const timer = setTimeout(() => {
        pending.delete(id);
        rejectCall(new Error(`chromium did not answer ${method} within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      pending.set(id, {
        resolve: (m) => {
          clearTimeout(timer);
          if (m.error !== undefined) rejectCall(new Error(`${method}: ${m.error.message}`));
          else resolveCall(m.result ?? {});
        },
        reject: (e) => {
          clearTimeout(timer);
          rejectCall(e);
        },
      });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    });
  const event = (method: string, sessionId: string): Promise<void> =>
    new Promise((done, fail) => {
      const timer = setTimeout(() => {
        listeners.delete(listen);
        fail(new Error(`chromium sent no ${method} within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      const listen = (m: Message) => {
        if (m.method !== method || m.sessionId !== sessionId) return;
        clearTimeout(timer);
        listeners.delete(listen);
        done();
      };
      listeners.add(listen);
    });
  await send('Browser.getVersion');
  return {
    async newPage(width, height) {
      const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
      if (typeof sessionId !== 'string') throw new Error('chromium gave no session for the new tab');
      await send('Page.enable', {}, sessionId);
      await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
      return {
        async open(url) {
          const loaded = event('Page.loadEventFired', sessionId);
          await send('Page.navigate', { url }, sessionId);
          await loaded;
        },
        async evaluate(expression) {
          const { result, exceptionDetails } = await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
          if (exceptionDetails !== undefined) throw new Error(`the page threw: ${JSON.stringify(exceptionDetails)}`);
          return (result as { value?: unknown } | undefined)?.value;
        },
        async screenshot() {
          const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
          return Buffer.from(String(data), 'base64');
        },
      };
    },
    async close() {
      if (exited !== undefined) return;
      const gone = once(child, 'exit');
      await send('Browser.close').catch(() => child.kill('SIGKILL'));
      await gone;
    },
  };
}
