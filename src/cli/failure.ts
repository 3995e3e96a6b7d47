/**
 * An exit-2 failure as GitHub Actions shows it: a `::error` workflow command (the run's page and the
 * pull request show it; a stderr line alone is found only in the log) and a job-summary section saying
 * what went wrong and what to do. Pure: the failure in, text out.
 */
import { ERROR_CODES, type KitErrorCode } from '../kit-errors.js';
import { workflowCommand } from '../report/workflow-command.js';

export interface Failure {
  /** The command that failed (`run`, `report`, ...); undefined before one was chosen. */
  readonly command: string | undefined;
  /** What the command printed on stderr, without the final newline (it may hold several lines). */
  readonly text: string;
  /** The KitError's code; undefined for an error the tool did not throw on purpose (a bug). */
  readonly code: KitErrorCode | undefined;
}

interface Advice {
  /** What went wrong, in a few words, for the headline. */
  readonly what: string;
  /** What to do about it. */
  readonly todo: string;
}

/** The codes a command line meets; the others fall back to the code's meaning (ERROR_CODES). */
const ADVICE: Partial<Record<KitErrorCode, Advice>> = {
  CLI_USAGE: {
    what: 'the command line cannot run',
    todo: 'Fix the option or value named above (`commerce-sim <command> --help` lists them). In the Action, `args` and `vars` take one item per line; a token variable that is empty is most often a secret this job was not given (workflows of forks get none).',
  },
  TARGET_UNREACHABLE: {
    what: 'the target did not answer',
    todo: "Check the target (`--target`, the Action's `target` input): the URL and its port, and that the deployment is up and reachable from this runner (started before this step, not behind a firewall).",
  },
  TARGET_TIMEOUT: { what: 'the target did not answer in time', todo: 'Check that the deployment is up and not overloaded; fewer requests at once (`--concurrency`, `--rps`) may help.' },
  TARGET_AUTH_FAILED: {
    what: 'the target refused the credentials',
    todo: "Check the token: the variable `--token-env` names (the Action's `token-env`) must hold a valid bearer token in this job (secrets are not given to workflows of forks).",
  },
  TARGET_NOT_API: { what: 'the target does not answer like the API', todo: "Check that `--target` is the API's base URL (scheme, host, port; no path past the base)." },
  TARGET_BUDGET_EXHAUSTED: { what: 'the request budget ran out', todo: 'Raise `--budget N`, or run fewer scenarios at a time (`--grep`, `--tag`, `--shard I/N`).' },
  TARGET_BAD_URL: { what: 'the target is neither `sim` nor an http(s) URL', todo: 'Give `--target sim` or a base URL such as `https://api.example.com`.' },
  SCENARIO_INVALID: { what: 'a scenario file does not validate', todo: 'Fix the file, line and YAML path named above.' },
  SCENARIO_NOT_FOUND: { what: 'no scenario file was found', todo: 'Check the scenario paths given (relative to the working directory).' },
  DATASET_UNKNOWN: { what: 'the dataset is unknown', todo: 'Give a named dataset (`commerce-sim run --help` lists them) or a dataset file that exists.' },
  DATASET_INVALID: { what: 'the dataset file does not validate', todo: 'Fix the member named above.' },
  DATASET_UNREADABLE: { what: 'the dataset file cannot be read', todo: 'Check the path and its permissions.' },
  REPORT_UNREADABLE: {
    what: 'a report directory holds no readable report',
    todo: 'Give `report merge` the directories the shards wrote (each holding report.json, or a reports directory with `latest/`), all downloaded before this step.',
  },
  REPORT_MERGE_MISMATCH: { what: 'the reports are not shards of one run', todo: 'Merge the reports of one run: one version, target, seed and options, every case judged once.' },
  PROPS_NOT_RUN: { what: 'a property could not run', todo: 'Read its error above and in the report; the report gives the command that replays it.' },
  PROPS_ADMIN_FAILED: { what: 'a property needs the admin API, and it failed', todo: 'Give the admin token (`--var admin_token=...`) or leave out the properties that need it.' },
  TRAFFIC_BAD_INPUT: { what: 'a traffic file cannot be read', todo: 'Fix or replace the file and entry named above.' },
  TRAFFIC_NOTHING_JUDGED: {
    what: 'no documented rule was judged',
    todo: 'Give traffic that exercises the documented reads (the list paths with paging, sort and filter), or check that the proxy reaches its upstream.',
  },
  CLIENT_RETRIES_EXHAUSTED: { what: 'the target kept failing (429/5xx or no answer)', todo: 'Retry later or with `--retries N`; the message says where to resume.' },
  CLIENT_BUDGET_EXHAUSTED: { what: 'the request budget ran out', todo: 'Raise `--budget N`; the message says where to resume.' },
  CLIENT_HTTP_STATUS: { what: 'the target refused a request', todo: 'Check the credentials and the target; the message gives the status.' },
};

const BUG: Advice = { what: 'commerce-sim failed unexpectedly', todo: 'This is a bug of commerce-sim: please report it with the message above.' };

function adviceFor(code: KitErrorCode | undefined): Advice {
  if (code === undefined) return BUG;
  return ADVICE[code] ?? { what: ERROR_CODES[code], todo: 'See the message above; the table of error codes (docs/errors.md) says more.' };
}

/** `::error title=commerce-sim::<what was printed>`, one line whatever the message holds. */
export function failureAnnotation(failure: Failure): string {
  return workflowCommand('error', 'commerce-sim', failure.text);
}

/** A fence longer than any run of backticks in the text, so a message cannot close its own code block. */
const fence = (text: string) => '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));

/** The job-summary section: the headline (what went wrong, the code), the message as printed, what to do. */
export function failureSummary(failure: Failure): string {
  const advice = adviceFor(failure.code);
  const f = fence(failure.text);
  return [
    `### commerce-sim${failure.command === undefined ? '' : ` ${failure.command}`}: ⛔ ERROR: ${advice.what}${failure.code === undefined ? '' : ` (\`${failure.code}\`)`}`,
    '',
    `${f}text`,
    failure.text,
    f,
    '',
    `**What to do:** ${advice.todo}`,
    '',
    'Exit code 2: no verdict. A report this run wrote covers only what ran.',
    '',
    '',
  ].join('\n');
}

/** The `--reporter` value on a command line (the last one given), read without parsing the rest. */
export function reporterArgument(argv: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg === '--reporter') value = argv[(i += 1)];
    else if (arg.startsWith('--reporter=')) value = arg.slice('--reporter='.length);
  }
  return value;
}
