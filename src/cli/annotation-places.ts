/**
 * Where this run's GitHub annotations may point: a file inside the workspace (GITHUB_WORKSPACE, else the
 * working directory), named relative to it. Reports name a scenario file relative to the working
 * directory or, outside it, to the folder it was found under (`scenarios/…` of an installed package or of
 * the Action), so the command hands over where each file really is.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { inWorkspace, workflowFile, type FilePlace, type GithubPlaces } from '../report/github.js';
import type { CliIo } from './io.js';

/** A symlinked temp or workspace directory is still the same place. */
const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** `files`: each report file label with the absolute path it was read from; other labels are no file. */
export function githubPlaces(io: CliIo, files: Iterable<readonly [label: string, path: string]>): GithubPlaces {
  const given = io.env['GITHUB_WORKSPACE'];
  const workspace = resolve(io.cwd, given === undefined || given === '' ? io.cwd : given);
  const roots = [...new Set([workspace, real(workspace)])];
  const paths = new Map(files);
  const fallbackFile = workflowFile(io.env);
  const locate = (label: string): FilePlace => {
    const path = paths.get(label);
    if (path === undefined) return { kind: 'none' };
    for (const candidate of new Set([path, real(path)]))
      for (const root of roots) {
        const file = inWorkspace(candidate, root);
        if (file !== undefined) return { kind: 'repository', file };
      }
    return { kind: 'outside' };
  };
  return { ...(fallbackFile === undefined ? {} : { fallbackFile }), locate };
}
