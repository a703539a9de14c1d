// The audit log's words (#20): every operation the log records has a label in both languages (a new audited
// operation without one fails here), the filter's areas come from the role table, days are whole local days.
import { describe, expect, it } from 'vitest';
import { AUDIT_DESCRIBERS } from '../../../../../../core/operations/audit-log';
import {
  actionLabel,
  AUDIT_AREAS,
  detailText,
  targetText,
  toAuditFilter,
} from '../../../../../../renderer/src/features/settings/audit-logic';

describe('actionLabel', () => {
  it('words every audited operation in Russian and English', () => {
    for (const name of [...Object.keys(AUDIT_DESCRIBERS), 'devices:enrol']) {
      expect(actionLabel(name, 'ru'), name).not.toBe(name);
      expect(actionLabel(name, 'en'), name).not.toBe(name);
    }
    expect(actionLabel('keys:create', 'ru')).toBe('Создан API-ключ');
  });
  it('falls back to the raw name', () => {
    expect(actionLabel('future:thing', 'ru')).toBe('future:thing');
  });
});

describe('filter', () => {
  it('offers the areas with admin operations, not the log itself', () => {
    expect(AUDIT_AREAS).toEqual(
      expect.arrayContaining(['keys', 'accounts', 'carriers', 'users', 'warehouses']),
    );
    expect(AUDIT_AREAS).not.toContain('audit');
    expect(AUDIT_AREAS).not.toContain('quote');
  });
  it('sends whole local days, the last one inclusive', () => {
    const f = toAuditFilter({ actor: ' ivanova ', area: 'keys', from: '2026-11-01', to: '2026-11-02' });
    expect(f.actor).toBe('ivanova');
    expect(f.action).toBe('keys');
    expect(new Date(f.from!).getTime()).toBe(new Date(2026, 10, 1, 0, 0, 0, 0).getTime());
    expect(new Date(f.to!).getTime()).toBe(new Date(2026, 10, 2, 23, 59, 59, 999).getTime());
    expect(toAuditFilter({ actor: '', area: '', from: '', to: '' })).toEqual({});
  });
});

describe('detailText', () => {
  it('words known fields, numbers grouped, secrets only as changed, accounts by their names', () => {
    expect(
      detailText({ requests: 1500, account: 'default', client_secret: 'changed', odd: true }, 'ru'),
    ).toBe('запросов: 1\u202f500; счёт: Основной; секрет: изменён; odd: да');
  });
  it('words roles and dates', () => {
    expect(detailText({ role: 'admin', was: 'clerk' }, 'ru')).toBe('роль: администратор; было: кассир');
    expect(detailText({ expires_at: '2026-11-27T06:22:36.000Z' }, 'en')).not.toContain('T06:22');
  });
  it('names an account target as on screen', () => {
    const entry = {
      id: 1,
      at: '',
      actor_kind: 'desk',
      actor: '',
      action: 'accounts:topup',
      target: 'default',
      detail: {},
    } as const;
    expect(targetText(entry, 'en')).not.toBe('default');
    expect(targetText({ ...entry, action: 'keys:create', target: 'key_1' }, 'en')).toBe('key_1');
  });
});
