/** What a config file holds, and what a variable may be named: light, for the commands and for the file's reader alike. */

/** A variable's name: letters, digits and _, not starting with `__` (the kit's own). */
export const VAR_NAME = /^(?!__)[A-Za-z_][A-Za-z0-9_]*$/;

export interface ConfigFile {
  readonly vars: Readonly<Record<string, string>>;
  readonly tokenEnv?: string;
  readonly clientId?: string;
  readonly clientSecretEnv?: string;
  readonly baseUrl?: string;
}
