/**
 * The placeholders secrets are replaced by in what the tool writes (reports, HAR files, recordings). A
 * check reading such a file back must not judge the value a placeholder stands for: a redacted password
 * says nothing of the password's length.
 */
export const REDACTED = '[REDACTED]';
/** Where recordings put a password and other credentials. */
export const PASSWORD_PLACEHOLDER = '<password>';
export const CREDENTIAL_PLACEHOLDER = '<redacted>';

const MARKS: ReadonlySet<string> = new Set([REDACTED, PASSWORD_PLACEHOLDER, CREDENTIAL_PLACEHOLDER]);

export const isRedactionMark = (value: string): boolean => MARKS.has(value);

/** A credential the tool wrote in place of a real one (`Bearer [REDACTED 3f9a0c12]`, `Bearer <redacted>`): whether it was valid is not known. */
const CREDENTIAL_MARK = /\[REDACTED(?: [0-9a-f]{8})?\]|<redacted>|<access_token>/;

export const hidesCredential = (header: string): boolean => CREDENTIAL_MARK.test(header);
