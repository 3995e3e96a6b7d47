/**
 * `commerce-sim/rules`: the rule catalogue and its judging path (what a rule says, whether an exchange
 * breaks it), the documented surface's classification and the fingerprint of a target's readings. Its own
 * entry, loaded by who asks: the main entry stays what a test file that starts a simulator needs.
 */
export { catalogue, ruleById, documentedRuleIds } from './rules/catalogue.js';
export { judgeRule, reviewFailure, type RuleJudgement } from './rules/judge.js';
export { classifyRequest, describeGaps, gapsFor, type Classification, type SurfaceGap, type RequestShape } from './rules/surface.js';
export { FingerprintCollector, fingerprintOf, observedReadings, type Fingerprint, type FingerprintOptions, type PointObservation } from './rules/fingerprint.js';
export { fingerprinted } from './kit/fingerprint-target.js';
export type { Rule, RuleBase, Level, Outcome, CheckContext, Family, RuleId, TrafficNeeds } from './rules/rule.js';
export { RULE_IDS, isRuleId } from './rules/ids.js';
