/** GitHub Actions workflow commands (`::error …::message`), escaped as GitHub requires. Pure, and loads nothing. */

/** Workflow-command escaping: data escapes %, CR and LF; properties also `:` and `,`. */
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One workflow command on one line: `::error file=…,line=…,title=…::message`. */
export function workflowCommand(kind: 'error' | 'warning', title: string, message: string, at?: { readonly file: string; readonly line?: number | undefined }): string {
  const props = [...(at === undefined ? [] : [`file=${property(at.file)}`, ...(at.line === undefined ? [] : [`line=${at.line}`])]), `title=${property(title)}`];
  return `::${kind} ${props.join(',')}::${data(message)}`;
}
