/**
 * What makes two user or warehouse names the same (#20): Unicode case folding of the NFC form, so «Склад»
 * and «СКЛАД» collide as "Ivan" and "ivan" do. Both stores keep it in a unique name_key column: SQLite's
 * NOCASE folds ASCII only, and PostgreSQL's lower() depends on the database's locale.
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
