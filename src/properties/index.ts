/** `commerce-sim/properties`: the fast-check property suites and their runner. Apart from the main entry: fast-check loads only here. */
export { runProperties, type PropsRunOptions } from './runner.js';
export { properties, propertyByName, selectProperties, deviationCatchers } from './registry.js';
export type { PropertySuite, Requirement, CheckParams } from './property.js';
export type { PropertyEnv } from './env.js';
