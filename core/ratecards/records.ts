// The records of a rate-card file, one at a time (RFC 4180 with the file's delimiter). A generator that keeps
// nothing between records: the caller drops blank lines and stops at its row limit, so memory follows the
// rows kept, not the lines read. Before #16 every record, blank ones included, was collected in an array
// first: 10 MB of blank lines became ten million records and took more than 1.5 GB.

export interface CsvRecord {
  /** The line the record starts on. */
  line: number;
  fields: string[];
}

export interface RecordReader {
  records: Generator<CsvRecord, void, undefined>;
  /** After the generator ended: the line of a quote that never closes (reading stopped there), or null. */
  unterminatedAt(): number | null;
}

/** Whitespace that String.prototype.trim removes, without the line ends (which end a record). */
const BLANK = /[^\S\r\n]/;

/**
 * Fields may be quoted ("a;b", "say ""hi"""), and a quoted field may span lines; \r\n, \n and \r all end a
 * line. A quote opens a quoted field only as the field's first non-blank character; text after the closing
 * quote is kept as written. Every field is trimmed. Fields are sliced out of the text, never built a
 * character at a time.
 */
export function readRecords(text: string, delimiter: string): RecordReader {
  let unterminated: number | null = null;
  const n = text.length;

  /** Line ends in text[from, to), counted as the record reader counts them (\r\n once). */
  const lineEnds = (from: number, to: number): number => {
    let count = 0;
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c === 10 || (c === 13 && text.charCodeAt(k + 1) !== 10)) count += 1;
    }
    return count;
  };
  /** The first delimiter or line end at or after `from` (n when none). */
  const fieldEnd = (from: number): number => {
    let k = from;
    while (k < n) {
      const c = text[k];
      if (c === delimiter || c === '\r' || c === '\n') return k;
      k += 1;
    }
    return n;
  };

  function* records(): Generator<CsvRecord, void, undefined> {
    let i = 0;
    let line = 1;
    while (i < n) {
      const start = line;
      const fields: string[] = [];
      for (;;) {
        let j = i;
        while (j < n && BLANK.test(text[j]!)) j += 1;
        let value: string;
        if (text[j] === '"') {
          const opened = line;
          value = '';
          let k = j + 1;
          for (;;) {
            const q = text.indexOf('"', k);
            if (q < 0) {
              unterminated = opened;
              return;
            }
            value += text.slice(k, q);
            line += lineEnds(k, q);
            if (text[q + 1] !== '"') {
              k = q + 1;
              break;
            }
            value += '"';
            k = q + 2;
          }
          const end = fieldEnd(k);
          value += text.slice(k, end);
          i = end;
        } else {
          const end = fieldEnd(i);
          value = text.slice(i, end);
          i = end;
        }
        fields.push(value.trim());
        if (i < n && text[i] === delimiter) {
          i += 1;
          continue;
        }
        if (i < n) {
          i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
          line += 1;
        }
        break;
      }
      yield { line: start, fields };
    }
  }

  return { records: records(), unterminatedAt: () => unterminated };
}

/** The 1-based line of a character of the text (CR, LF and CRLF each end a line). */
export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line += 1;
  }
  return line;
}

/** The first line of the text, where the delimiter is sniffed from. */
export function headerLine(text: string): string {
  const end = text.search(/[\r\n]/);
  return end < 0 ? text : text.slice(0, end);
}
