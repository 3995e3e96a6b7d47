/**
 * The served simulator's young generation: fixed at 4 MiB a semi-space. Node's default lets it grow to 16 MiB,
 * and a restore of 1,000,000 records keeps most of what it allocates, so each scavenge copied up to that much at
 * once: 25–58 ms held the event loop (issue 36). Smaller and fixed, each copies a quarter of it. `npm run bench --
 * --only restore`, five alternated runs each (load 1.1–2.7): the restore's longest turn 35.0–62.9 ms fixed at 4 MiB
 * (≤ 50 ms in three) against 55.5–149.2 ms with Node's default (none); another client's page at most 40.5–72.9 ms
 * against 65.5–144.7 ms. Fixed at 8 MiB was worse than either. The price: list pages of 100 cost more CPU, and a
 * restore or a seeding of a million records about a tenth more time (docs/performance.md).
 *
 * V8 reads the size once, when the process starts (`v8.setFlagsFromString` later changes nothing): `commerce-sim
 * serve` starts its server's process with these (src/cli/serve-child.ts), and so does the bench's.
 */
export const SERVED_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--min-semi-space-size=4'];
