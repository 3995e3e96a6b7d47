/**
 * The numbers of commerce-api.md §8 (and §2.1), written once: the engine decides with them, the rules
 * judge with them, the reference client pages with them.
 */

/** §8 "Maximum page length | 100 on any paginated call." */
export const MAX_PAGE_LENGTH = 100;
/** §8 "Default page length | 25." */
export const DEFAULT_PAGE_LENGTH = 25;
/** §8: the hard offset limit of /v2/orders and /v2/files, and the soft limit elsewhere. */
export const OFFSET_LIMIT = 10_000;
/** §2.1, §8 "Minimum password length | 8 characters". */
export const MIN_PASSWORD_LENGTH = 8;
