/**
 * RFC 4180 CSV: CRLF line ends; a field is quoted when it holds a comma, a double quote, CR or LF,
 * and a quote inside is doubled. Absent values (null, undefined) are empty fields.
 */

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One record, with its CRLF. */
export function csvRow(fields: readonly (string | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/**
 * Parses RFC 4180 text into rows of fields (for tests and for resuming from a file). Accepts LF as
 * well as CRLF between records; a final line end is optional. Throws on a quote left open.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const n = text.length;
  let quoted = false;
  let fieldStarted = false;
  const endField = () => {
    row.push(field);
    field = '';
    fieldStarted = false;
  };
  while (i < n) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"' && !fieldStarted && field === '') {
      quoted = true;
      fieldStarted = true;
      i += 1;
    } else if (c === ',') {
      endField();
      i += 1;
    } else if (c === '\r' || c === '\n') {
      endField();
      rows.push(row);
      row = [];
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      fieldStarted = true;
      i += 1;
    }
  }
  if (quoted) throw new SyntaxError('CSV: a quoted field is not closed');
  if (fieldStarted || field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}
