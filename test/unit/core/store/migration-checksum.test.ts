import { describe, expect, it } from 'vitest';
import { canonicalSql, shortChecksum, sqlChecksum } from '../../../../core/store/migration-checksum';
import { migrations } from '../../../../core/store/sqlite/migrations';

describe('canonicalSql', () => {
  it('ignores comments, indentation and line breaks', () => {
    const a = `
      -- the accounts
      CREATE TABLE t (
        a INTEGER NOT NULL, /* why a */
        b TEXT
      ) STRICT;`;
    const b = 'CREATE TABLE t(a INTEGER NOT NULL,b TEXT)STRICT;';
    expect(canonicalSql(a)).toBe(b);
    expect(sqlChecksum(a)).toBe(sqlChecksum(b));
    expect(canonicalSql('SELECT  1\t--x\n+\n\n2 ;')).toBe('SELECT 1 + 2;');
  });

  it('keeps quoted text byte for byte, comment markers and doubled quotes included', () => {
    expect(canonicalSql('SELECT \'a  -- b /* c */\'  ,  "odd  name", [x  y], `z  w`')).toBe(
      'SELECT \'a  -- b /* c */\',"odd  name",[x  y],`z  w`',
    );
    expect(canonicalSql("SELECT 'it''s  --  fine' -- gone\n")).toBe("SELECT 'it''s  --  fine'");
  });

  it.each([
    ['a column name', 'CREATE TABLE t (a INTEGER)', 'CREATE TABLE t (b INTEGER)'],
    ['a type', 'CREATE TABLE t (a INTEGER)', 'CREATE TABLE t (a TEXT)'],
    ['a constraint', 'CREATE TABLE t (a INTEGER CHECK (a >= 0))', 'CREATE TABLE t (a INTEGER CHECK (a > 0))'],
    ['a default', "CREATE TABLE t (a TEXT DEFAULT '100')", "CREATE TABLE t (a TEXT DEFAULT '1000')"],
    ['whitespace inside a literal', "SELECT RAISE(ABORT, 'x y')", "SELECT RAISE(ABORT, 'x  y')"],
    ['a token split in two', 'CREATE TABLE t (ab INTEGER)', 'CREATE TABLE t (a b INTEGER)'],
    [
      'a dropped statement',
      'CREATE TABLE t (a INTEGER); CREATE INDEX i ON t(a);',
      'CREATE TABLE t (a INTEGER);',
    ],
  ])('changes with %s', (_what, before, after) => {
    expect(sqlChecksum(after)).not.toBe(sqlChecksum(before));
  });

  it('rejects an unterminated quote or comment instead of hashing half a script', () => {
    expect(() => canonicalSql("SELECT 'a")).toThrow(/unterminated/);
    expect(() => canonicalSql('SELECT 1 /* a')).toThrow(/unterminated/);
  });

  it('gives 64 lowercase hex digits, shown as 12', () => {
    const sum = sqlChecksum('SELECT 1');
    expect(sum).toMatch(/^[0-9a-f]{64}$/);
    expect(shortChecksum(sum)).toBe(sum.slice(0, 12));
  });
});

describe('shipped migrations', () => {
  // Every data folder in the field holds these values. If this fails, a shipped migration (or the
  // canonical form) was edited, and every existing data folder would be refused at start-up: undo the
  // edit and put the change in a new migration instead.
  it('keep the checksums they shipped with', () => {
    expect(migrations.map((m) => [m.version, sqlChecksum(m.sql)])).toEqual([
      [1, 'a5ca69de4ed1e68677fc02f032e7d7d0ae9a3467bd301dd5215a24b6a79505ff'],
      [2, '34fe32a635c0441e065103520e38582981083705cc9da362c5ca7c8391402f5f'],
      [3, '68ae254b0167004da4d3e8c0f6efe3aa6980d83fb1c6299a154a7760282f1e94'],
      [4, '6c68288030104ae302a1037dd917fd6f7e4268f777c51fe805db4c6220cee343'],
      [5, 'bc5135f89e1b44a0b53418d64efdabc8f05f8f38990205ff303e48f22a8c332e'],
      [6, 'f1767cb6233df2638883b77c1291d734cf310b4ad93dd0896f53935ae03bfb27'],
      [7, 'c44784865c84b8ab467df6aca860b9c46ad81dc0f2ec1cac9779746fbf1e099e'],
      [8, '324b1efb2d897339ecc5aab360fb9574344e26558f9ca10686b6466e209739af'],
      [9, '49675f6c17d1cbfaab91e06825b1f3866915ed3c419d68f81d07ba37f19f8361'],
      [10, 'e1705cd50bdb4fbfa5dc14bc96b69cb202f29f2496dd0c1357954d436b07ba60'],
    ]);
  });

  it('are numbered 1, 2, 3, … with no gap', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_m, i) => i + 1));
  });

  it('0004 back-fills exactly the checksums of 0001–0003', () => {
    const backfill = migrations.find((m) => m.version === 4)!.sql;
    for (const m of migrations.filter((x) => x.version < 4)) {
      expect(backfill).toContain(`(${m.version}, '${m.name}', '${sqlChecksum(m.sql)}', NULL)`);
    }
  });
});
