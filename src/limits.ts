/**
 * The numbers of commerce-api.md §8 (and §2.1), written once: the engine decides with them, the rules
 * judge with them, the reference client pages with them. Below them, the tool's own ranges and defaults
 * (ports, seeds).
 */

/** §8 "Maximum page length | 100 on any paginated call." */
export const MAX_PAGE_LENGTH = 100;
/** §8 "Default page length | 25." */
export const DEFAULT_PAGE_LENGTH = 25;
/** §8: the hard offset limit of /v2/orders and /v2/files, and the soft limit elsewhere. */
export const OFFSET_LIMIT = 10_000;
/** §2.1, §8 "Minimum password length | 8 characters". */
export const MIN_PASSWORD_LENGTH = 8;

/*
 * The tool's own ranges and defaults, written once: every command, the simulator and the proxy read
 * them from here.
 */

/** The largest TCP port (0 asks the system for a free one). */
export const MAX_PORT = 65_535;
/** Where `serve` listens unless told (and the origin of the simulator's absolute links). */
export const DEFAULT_PORT = 4747;
/** Where the judging proxy listens unless told. */
export const DEFAULT_PROXY_PORT = 4748;
/** The largest seed: seeds are unsigned 32-bit numbers (0 to 4294967295). */
export const MAX_SEED = 2 ** 32 - 1;
