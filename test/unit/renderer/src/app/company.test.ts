// Company mode's visibility rule (#20): what the UI shows is derived from the one role table.
import { describe, expect, it } from 'vitest';
import { OPERATION_ROLES, type OperationName } from '../../../../../core/desk/contract';
import { canRun, LOCAL_STATUS, serverBlocked } from '../../../../../renderer/src/app/company-rules';

const company = (
  role: 'clerk' | 'admin' | null,
  connection: 'online' | 'offline' | 'refused' = 'online',
) => ({
  ...LOCAL_STATUS,
  mode: 'company' as const,
  url: 'https://rates.example.ru',
  user: 'ivanova',
  role,
  connection,
});

describe('canRun', () => {
  const names = Object.keys(OPERATION_ROLES) as OperationName[];
  it('a local desk may run everything', () => {
    for (const n of names) expect(canRun(LOCAL_STATUS, n)).toBe(true);
  });
  it('a clerk exactly what the table gives a clerk; an admin everything', () => {
    for (const n of names) {
      expect(canRun(company('clerk'), n), n).toBe(OPERATION_ROLES[n] === 'clerk');
      expect(canRun(company('admin'), n), n).toBe(true);
    }
  });
  it('before the status is read, only what a clerk may run (no admin tab flashes past a clerk)', () => {
    for (const n of names) {
      expect(canRun(LOCAL_STATUS, n, false), n).toBe(OPERATION_ROLES[n] === 'clerk');
      expect(canRun(company('admin'), n, false), n).toBe(OPERATION_ROLES[n] === 'clerk');
    }
  });
  it('an unknown role counts as a clerk', () => {
    expect(canRun(company(null), 'keys:create')).toBe(false);
    expect(canRun(company(null), 'quote:run')).toBe(true);
  });
});

describe('serverBlocked', () => {
  it('only in company mode while the server is not online', () => {
    expect(serverBlocked(LOCAL_STATUS)).toBe(false);
    expect(serverBlocked(company('clerk'))).toBe(false);
    expect(serverBlocked(company('clerk', 'offline'))).toBe(true);
    expect(serverBlocked(company('admin', 'refused'))).toBe(true);
  });
});
