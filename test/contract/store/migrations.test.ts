// Opening stored data whose record of applied migrations differs from this build's: refused with
// DataFileRefusedError, never read or migrated further. How the record is damaged is the implementation's
// (implementations.ts: tamper).
import { describe, expect, it } from 'vitest';
import { DataFileRefusedError } from '../../../core/store';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { NOW, unique, useStore } from './harness';

describe.each(STORE_IMPLEMENTATIONS)('migrations ($name)', (impl) => {
  const fx = useStore(impl);

  it('opens its own data again with everything in it', async () => {
    const acc = await fx.store.accounts.create(unique('kept'), 12, NOW);
    const reopened = await fx.opened.reopen();
    expect(await reopened.accounts.byId(acc.id)).toEqual(acc);
    expect(await reopened.integrityCheck()).toEqual({ ok: true });
  });

  it('refuses data whose recorded migration checksum was tampered with', async ({ skip }) => {
    const { opened } = fx;
    if (!opened.tamper) return skip(`${impl.name} cannot tamper with its own data`);
    await opened.store.accounts.create(unique('before'), 1, NOW);
    await opened.tamper();
    await expect(opened.reopen()).rejects.toBeInstanceOf(DataFileRefusedError);
    // Refused again, every time: the refusal did not "repair" anything.
    await expect(opened.reopen()).rejects.toBeInstanceOf(DataFileRefusedError);
    await expect(opened.openSecond()).rejects.toBeInstanceOf(DataFileRefusedError);
  });
});
