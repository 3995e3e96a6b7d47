/**
 * A restore body read from its text, as steps (store/json-steps.ts): parsed a few thousand values a
 * step, and refused where the text shows it cannot be restored, before the rest is parsed: past the
 * record budget at the first list that passes it (counted as the text streams by, stopping at the
 * first record past the room), past `--max-projects` at the first project too many, a record heavier
 * than a record can be, more values outside the records than a snapshot of that many projects has, a
 * string or number longer than any member of a snapshot, and the shape limits of snapshotShapeLimits.
 */
import { apiError, type ApiError } from '../engine/api-errors.js';
import { describeShapeProblem } from '../engine/json-shape.js';
import { MAX_PASSWORD_LENGTH } from '../engine/field-limits.js';
import { readDatasetFields } from '../store/dataset-spec.js';
import { datasetCounts } from '../store/datasets.js';
import { parseJsonSteps, type ArrayWatch, type JsonPath, type JsonWatch } from '../store/json-steps.js';
import { PROJECT_RECORDS, seededRecordCount } from '../store/record-budget.js';
import { listResources, passwordProfileInfo } from '../store/resources.js';
import type { Steps } from '../store/steps.js';
import { recordBudgetProblem } from './options.js';
import { snapshotShapeLimits, VALUES_OF_BODY, VALUES_PER_PROJECT, type RestoreLimits } from './snapshot.js';

/**
 * The longest string a snapshot holds, as written: a password hash of 1,024 characters, each escaped
 * as a surrogate pair (`\uXXXX\uXXXX`), and its quotes.
 */
const SNAPSHOT_STRING_CHARS = MAX_PASSWORD_LENGTH * 12 + 2;
/** The longest number a snapshot holds is a millisecond instant or a 32-bit word; this leaves room for any way of writing one. */
const SNAPSHOT_NUMBER_CHARS = 64;

/** Values one stored record may hold, as engine/json-shape.ts counts them: the element, the object, its members, attrs and theirs. */
const recordValues = (attributes: number): number => 2 + 5 + 1 + attributes;

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Where the record budget stands as the text is read: lengths only (a record's weight is checked once it is read). */
class BudgetWatch implements JsonWatch<ApiError> {
  /** Records the budget leaves for the projects' writes; the seeded counts are taken off once `options` is read. */
  private left: number;
  private projectLeft: number;
  private project = -1;
  private projects = 0;

  constructor(
    private readonly limits: RestoreLimits,
    private readonly maxValuesOutside: (projects: number) => number,
  ) {
    this.left = limits.maxRecords - limits.maxProjects * PROJECT_RECORDS;
    this.projectLeft = limits.maxProjectRecords;
  }

  member(key: string, value: unknown): void {
    if (key !== 'options' || this.projects > 0) return;
    // The options' seeded counts, when they read well (else the reading after the parse names what is wrong).
    const fields = readDatasetFields(value, ['seed', 'dataset_seed', 'accounts', 'counts', 'profile', 'burst']);
    if (!fields.ok || recordBudgetProblem({ ...fields.value, maxRecords: this.limits.maxRecords, maxProjects: this.limits.maxProjects }) !== undefined) return;
    this.left -= seededRecordCount(datasetCounts(fields.value));
  }

  object(path: JsonPath): ApiError | undefined {
    if (path.length !== 2 || path[0] !== 'projects') return undefined;
    const index = path[1] as number;
    if (index >= this.limits.maxProjects) return apiError('bad-request', `projects: the simulator keeps at most ${this.limits.maxProjects} projects (--max-projects)`, 'projects');
    this.project = index;
    this.projects = index + 1;
    this.projectLeft = this.limits.maxProjectRecords;
    return undefined;
  }

  outside(count: number): ApiError | undefined {
    const most = this.maxValuesOutside(this.projects);
    if (count <= most) return undefined;
    return apiError(
      'payload-too-large',
      `The body holds more than ${fmt(most)} values outside its records: more than a snapshot of ${this.projects} projects has (${VALUES_PER_PROJECT} a project, ${VALUES_OF_BODY} besides)`,
    );
  }

  array(path: JsonPath): ArrayWatch<ApiError> | { readonly refuse: ApiError } | undefined {
    if (path.length < 4 || path[0] !== 'projects' || path[1] !== this.project) return undefined;
    const where = `projects.${this.project}.${path.slice(2).join('.')}`;
    if (path.length === 5 && path[2] === 'lists' && (path[4] === 'upserts' || path[4] === 'deletes')) {
      const resource = listResources.find((r) => r.name === path[3]);
      if (resource === undefined) return undefined;
      const values = recordValues(resource.attributes.length);
      return path[4] === 'upserts' ? this.list(where, values, `must be a record object (of at most ${values} values)`) : this.list(where, 1, 'must be an id, not a container');
    }
    if (path.length === 4 && path[2] === 'profileInfos') {
      // A collection of its own, empty or not, counts as a record.
      if (!this.take(1)) return { refuse: this.list(where, 0, '').past() };
      const values = recordValues(passwordProfileInfo.attributes.length);
      return this.list(where, values, `must be a record object (of at most ${values} values)`);
    }
    return undefined;
  }

  private take(n: number): boolean {
    if (n > this.left || n > this.projectLeft) return false;
    this.left -= n;
    this.projectLeft -= n;
    return true;
  }

  /** A list of records (or of ids) that may hold what the room leaves, each element at most `values` values. */
  private list(where: string, values: number, what: string): ArrayWatch<ApiError> {
    const cap = Math.max(0, Math.min(this.left, this.projectLeft));
    return {
      cap,
      elementValues: values,
      past: () =>
        cap + 1 > this.projectLeft
          ? apiError('payload-too-large', `${where}: brings more records than one project may write (max project records: ${fmt(this.limits.maxProjectRecords)})`, where)
          : apiError('payload-too-large', `${where}: brings more records than the record budget leaves for the projects' writes (max records: ${fmt(this.limits.maxRecords)})`, where),
      heavy: (index) => apiError('bad-request', `${where}.${index}: ${what}`, `${where}.${index}`),
      closed: (length) => {
        this.take(length);
      },
    };
  }
}

/** The restore body parsed, or the error it is refused with; `examined`: characters read before a refusal. */
export type SnapshotText = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ApiError; readonly examined: number };

/** Parse a restore body as steps, refusing it as early as its text shows it cannot be restored. */
export function* readSnapshotText(text: string | Uint8Array, limits: RestoreLimits, reserved: number): Steps<SnapshotText> {
  const shape = snapshotShapeLimits(limits.maxRecords - reserved, limits.maxProjects);
  const watch = new BudgetWatch(limits, (projects) => VALUES_OF_BODY + VALUES_PER_PROJECT * projects);
  const parsed = yield* parseJsonSteps(text, { ...shape, maxStringChars: SNAPSHOT_STRING_CHARS, maxNumberChars: SNAPSHOT_NUMBER_CHARS }, watch);
  if (parsed.ok) return parsed;
  const p = parsed.problem;
  const at = { examined: parsed.examined };
  switch (p.kind) {
    case 'watch':
      return { ok: false, error: p.problem, ...at };
    case 'syntax':
      return { ok: false, error: apiError('bad-request', 'Malformed JSON: the request body could not be parsed'), ...at };
    case 'depth':
      return { ok: false, error: apiError('bad-request', `The body ${describeShapeProblem(p)}: deeper than a snapshot nests`), ...at };
    case 'values':
      return {
        ok: false,
        error: apiError('payload-too-large', `The body ${describeShapeProblem(p)}: more than a snapshot within the record budget can (max records: ${fmt(limits.maxRecords)})`),
        ...at,
      };
    case 'string':
      return { ok: false, error: apiError('bad-request', `The body holds a string longer than ${fmt(p.limit)} characters as written: longer than any member of a snapshot`), ...at };
    case 'number':
      return { ok: false, error: apiError('bad-request', `The body holds a number longer than ${p.limit} characters as written: longer than any member of a snapshot`), ...at };
  }
}
