// What a migration's checksum covers. The hash is stored with every applied migration and compared with the
// code's at every open, so a file whose history differs from this build's is refused instead of being
// read (or migrated further) by code that assumes another schema.
import { createHash } from 'node:crypto';

/**
 * The migration's SQL as SQLite would tokenise it: comments dropped, whitespace outside quoted text collapsed
 * to one space (none next to `( ) , ;`), quoted text ('…', "…", `…`, […]) byte for byte.
 *
 * Hashing the exact text would refuse a user's data over a reworded comment or a re-indented line, which
 * changes nothing SQLite builds. Hashing the schema a migration produces would need a scratch database at
 * every start (and, in Electron, the app's own native binding for it). Hashing `up.toString()` would change
 * with every transpiler and bundler. Tokens are what SQLite executes: any change to a name, a type, a
 * constraint, a default or a literal's contents changes the hash; so does the case of a keyword, which is
 * harmless but not worth a keyword list to forgive.
 */
export function canonicalSql(sql: string): string {
  let out = '';
  // A space is owed when whitespace or a comment separated two tokens; it is written only before the next
  // token, and only when neither neighbour is punctuation that already separates tokens.
  let pendingSpace = false;
  const emit = (text: string): void => {
    if (pendingSpace && out !== '' && !TIGHT.has(out[out.length - 1]!) && !TIGHT.has(text[0]!)) out += ' ';
    pendingSpace = false;
    out += text;
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      pendingSpace = true;
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      pendingSpace = true;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end === -1) throw new Error('unterminated /* comment in migration SQL');
      i = end + 2;
      pendingSpace = true;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k === -1) throw new Error(`unterminated ${c} quote in migration SQL`);
        // A doubled quote is an escaped quote inside the text (brackets have no escape).
        if (close !== ']' && sql[k + 1] === close) {
          j = k + 2;
          continue;
        }
        j = k + 1;
        break;
      }
      emit(sql.slice(i, j));
      i = j;
    } else {
      let j = i + 1;
      while (j < sql.length && !endsToken(sql, j)) j++;
      emit(sql.slice(i, j));
      i = j;
    }
  }
  return out;
}

/** Characters next to which a separating space carries no meaning. */
const TIGHT = new Set(['(', ')', ',', ';']);
/** Whether a bare run of token characters ends at sql[j]: whitespace, a quote, punctuation, a comment. */
function endsToken(sql: string, j: number): boolean {
  const c = sql[j]!;
  if (/[\s'"`[();,]/.test(c)) return true;
  return (c === '-' && sql[j + 1] === '-') || (c === '/' && sql[j + 1] === '*');
}

/** Lowercase hex SHA-256 of the canonical SQL (64 characters); the stored form. */
export function sqlChecksum(sql: string): string {
  return createHash('sha256').update(canonicalSql(sql), 'utf8').digest('hex');
}

/** The first 12 hex digits: enough to tell two checksums apart in a message. */
export function shortChecksum(checksum: string): string {
  return checksum.slice(0, 12);
}
