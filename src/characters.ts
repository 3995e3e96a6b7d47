/**
 * How many characters a text has under each reading of "character": commerce-api.md §2.1's "Minimum 8
 * characters" does not say which (rules/readings.ts `password.characters`), and user-perceived
 * characters (extended grapheme clusters), Unicode code points and UTF-16 code units count the same
 * text differently ("🔑" is 1, 1 and 2).
 */
export type CharacterReading = 'graphemes' | 'code-points' | 'code-units';

export type CharacterCounts = Readonly<Record<CharacterReading, number>>;

export const CHARACTER_READINGS: readonly CharacterReading[] = ['graphemes', 'code-points', 'code-units'];

/** Made on first use: a segmenter costs milliseconds to build. */
let segmenter: Intl.Segmenter | undefined;

export function characterCounts(s: string): CharacterCounts {
  let graphemes = 0;
  for (const _segment of (segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(s)) graphemes += 1;
  let codePoints = 0;
  for (const _c of s) codePoints += 1;
  return { graphemes, 'code-points': codePoints, 'code-units': s.length };
}

/** The fewest and the most characters any reading counts. */
export function countRange(c: CharacterCounts): { readonly least: number; readonly most: number } {
  const all = CHARACTER_READINGS.map((r) => c[r]);
  return { least: Math.min(...all), most: Math.max(...all) };
}
