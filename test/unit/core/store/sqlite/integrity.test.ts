// The integrity check's slice of the store (core/store/sqlite/integrity.ts) on a real data file, and the service
// refusing a file that fails it.
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRatingService } from '../../../../../core/service';
import { openStore } from '../../../../../core/store';
import { DATA_FILE_NAME } from '../../../../../core/store/data-folder';
import { freshFolder } from '../../../../helpers/store-fixtures';

const PAGE = 4096;

/** A data folder whose file opens and migrates, but has garbage in the middle of its location_cache rows. */
async function damagedFolder(): Promise<string> {
  const { store, dir } = freshFolder();
  for (let i = 0; i < 2000; i++) {
    await store.locationCache.put({
      namespace: 'cdek http://sim',
      want: 'cdek_city_code',
      key: `place ${i}`,
      value: String(i).padStart(40, '0'),
      nowMs: Date.parse('2026-01-01T00:00:00Z'),
      ttlMs: 1000,
    });
  }
  await store.close(); // checkpoints the WAL into the file
  const file = join(dir, DATA_FILE_NAME);
  const pages = statSync(file).size / PAGE;
  const fd = openSync(file, 'r+');
  try {
    // The last pages hold the rows just written (the schema and the earlier tables come first).
    for (const page of [pages - 3, pages - 2]) writeSync(fd, Buffer.alloc(PAGE, 0x5a), 0, PAGE, page * PAGE);
  } finally {
    closeSync(fd);
  }
  return dir;
}

describe('IntegrityCheckStore (SQLite)', () => {
  it('finds nothing wrong with a sound file', async () => {
    const { store } = freshFolder();
    expect(await store.integrityCheck()).toEqual({ ok: true });
  });

  it('names the problem in a damaged file, and the service refuses to start on it', async () => {
    const dir = await damagedFolder();
    const store = openStore(join(dir, DATA_FILE_NAME));
    try {
      const report = await store.integrityCheck();
      expect(report.ok).toBe(false);
      expect(report.ok ? '' : report.problem).toMatch(/\S/);
    } finally {
      await store.close();
    }
    await expect(createRatingService({ dataDir: dir, listen: false })).rejects.toThrow(
      /^The data file failed SQLite's integrity check: /,
    );
  });
});
