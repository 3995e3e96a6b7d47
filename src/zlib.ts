/**
 * node:zlib loaded on its first use rather than with the modules that may need it: a simulator's first
 * answer and an HTTP target's first plain reply need none of it (about 7 ms of CPU of a test file's cold
 * start, issue 35). Loaded synchronously, so the callers stay synchronous.
 */
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';

let loaded: typeof Zlib | undefined;

export const zlib = (): typeof Zlib => (loaded ??= createRequire(import.meta.url)('node:zlib') as typeof Zlib);
