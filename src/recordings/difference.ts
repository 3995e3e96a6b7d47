/** One difference between two sides' exchanges (diff.ts finds them, diff-causes.ts explains them). */
import type { Aspect } from './normalise.js';

/** `behaviour`: the sides act differently. `data`: they hold different records. `coverage`: one side did not run it. */
type DifferenceKind = 'behaviour' | 'data' | 'coverage';

export interface Difference {
  readonly kind: DifferenceKind;
  /** Rules the difference bears on (of the step's or scenario's rules). */
  readonly rules: readonly string[];
  /** The rule the compared feature is direct evidence of, when it has one (normalise.ts): what explains it. */
  readonly direct?: string;
  readonly scenario: string;
  readonly step?: string;
  readonly stepIndex?: number;
  /** Position of the exchange within the step (0-based). */
  readonly exchange?: number;
  /** `GET /v2/accounts?...` of side a (b when a has none). */
  readonly request?: string;
  readonly aspect: Aspect | 'exchanges' | 'scenario';
  readonly what: string;
  readonly a: string;
  readonly b: string;
}
