// The audit log (port: AuditStore, #20): appended, never changed, searched newest first by actor, by action
// or its area, and by an inclusive period.
import { describe, expect, it } from 'vitest';
import type { AuditQuery, NewAudit } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { useStore } from './harness';

function entry(at: string, actor: string, action: string, overrides: Partial<NewAudit> = {}): NewAudit {
  return {
    at,
    actor_kind: 'user',
    actor,
    action,
    target: 'acme',
    detail_json: '{"changed":true,"name":"Склад"}',
    ...overrides,
  };
}

const ENTRIES: NewAudit[] = [
  entry('2025-03-01T09:00:00.000Z', 'anna', 'keys:create'),
  entry('2025-03-01T23:59:59.999Z', 'ivan', 'keys:revoke'),
  entry('2025-03-02T00:00:00.000Z', 'anna', 'users:add', { target: 'ivan' }),
  entry('2025-03-02T12:00:00.000Z', '', 'settings:write', { actor_kind: 'desk' }),
  entry('2025-03-03T08:00:00.000Z', 'root', 'keysx:odd', { actor_kind: 'cli' }),
  entry('2025-03-03T08:00:00.000Z', 'anna', 'keys:create', { target: 'beta' }),
];

describe.each(STORE_IMPLEMENTATIONS)('audit ($name)', (impl) => {
  const fx = useStore(impl);

  const search = async (filter: Partial<AuditQuery>) =>
    (await fx.store.audit.search({ limit: 100, offset: 0, ...filter })).map(
      (r) => `${r.actor}/${r.action}/${r.at}`,
    );
  const label = (e: NewAudit) => `${e.actor}/${e.action}/${e.at}`;
  const [created, revoked, added, settings, odd, later] = ENTRIES.map(label) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];

  it('appends entries and gives them back whole, newest first', async () => {
    for (const e of ENTRIES) await fx.store.audit.append(e);
    const all = await fx.store.audit.search({ limit: 100, offset: 0 });
    expect(all.map((r) => `${r.actor}/${r.action}/${r.at}`)).toEqual([
      later,
      odd,
      settings,
      added,
      revoked,
      created,
    ]);
    expect(all[0]).toEqual({ id: expect.any(Number), ...ENTRIES[5] });
    expect(all[2]).toMatchObject({ actor_kind: 'desk', actor: '' });
  });

  it('filters by actor, by action or its area, and by an inclusive period', async () => {
    for (const e of ENTRIES) await fx.store.audit.append(e);
    expect(await search({ actor: 'anna' })).toEqual([later, added, created]);
    expect(await search({ action: 'keys:create' })).toEqual([later, created]);
    // An area: `keys` is keys:…, and not keysx:….
    expect(await search({ action: 'keys' })).toEqual([later, revoked, created]);
    expect(await search({ action: 'users' })).toEqual([added]);
    expect(await search({ actor: 'anna', action: 'keys' })).toEqual([later, created]);
    // A date alone: `from` from its start, `to` to its end.
    expect(await search({ from: '2025-03-02' })).toEqual([later, odd, settings, added]);
    expect(await search({ to: '2025-03-01' })).toEqual([revoked, created]);
    expect(await search({ from: '2025-03-02', to: '2025-03-02' })).toEqual([settings, added]);
    // Timestamps are inclusive bounds too, in any offset.
    expect(await search({ from: '2025-03-01T23:59:59.999Z', to: '2025-03-02T12:00:00Z' })).toEqual([
      settings,
      added,
      revoked,
    ]);
    expect(await search({ to: '2025-03-02T03:00:00+03:00' })).toEqual([added, revoked, created]);
    expect(await search({ actor: 'nobody' })).toEqual([]);
  });

  it('pages', async () => {
    for (const e of ENTRIES) await fx.store.audit.append(e);
    expect(await search({ limit: 2, offset: 0 })).toEqual([later, odd]);
    expect(await search({ limit: 2, offset: 2 })).toEqual([settings, added]);
    expect(await search({ limit: 2, offset: 4 })).toEqual([revoked, created]);
    expect(await search({ limit: 2, offset: 6 })).toEqual([]);
    expect(await search({ action: 'keys', limit: 1, offset: 1 })).toEqual([revoked]);
  });

  it('keeps entries across a reopen', async () => {
    await fx.store.audit.append(ENTRIES[0]!);
    const store = await fx.opened.reopen();
    expect(await store.audit.search({ limit: 10, offset: 0 })).toEqual([
      { id: expect.any(Number), ...ENTRIES[0] },
    ]);
  });
});
