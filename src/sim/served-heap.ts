/**
 * The served simulator's young generation: fixed at 4 MiB a semi-space. Node's default lets it grow to 16 MiB,
 * and a restore of 1,000,000 records keeps most of what it allocates, so each scavenge copied up to that much at
 * once: 25–58 ms held the event loop (issue 36). Smaller and fixed, each copies a quarter of it. `npm run bench --
 * --only restore`, three alternating runs each (load 1.1–2.4): the restore's longest turn 92.9 / 55.5 / 149.2 ms
 * with Node's default, 50.6 / 35.0 / 48.6 ms fixed at 4 MiB; another client's page at most 87.8 / 65.5 / 144.7 ms
 * against 40.5 / 44.6 / 48.5 ms.
 *
 * V8 reads the size once, when the process starts (`v8.setFlagsFromString` later changes nothing): `commerce-sim
 * serve` starts its server's process with these (src/cli/serve-child.ts), and so does the bench's.
 */
export const SERVED_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--min-semi-space-size=4'];
