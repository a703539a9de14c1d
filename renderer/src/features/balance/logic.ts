// Pure helpers of the balance screen (no DOM): parsing what an administrator types, and the rules the
// core applies, repeated as plain code so the form can say what is wrong before anything is sent.
import type { AccountView } from '../../../../core/desk/contract';

/** Same bound as core/admin/accounts.ts MAX_REQUESTS. */
export const MAX_REQUESTS = 1_000_000_000;
export const MAX_RPS = 10_000;
export const MAX_BURST = 100_000;

export type NumberProblem = 'empty' | 'format' | 'whole' | 'min' | 'max';
export type ParsedNumber = { ok: true; value: number } | { ok: false; problem: NumberProblem };

const SPACES = /[\s\u00a0\u202f\u2009']/g;

/** "5 000" → 5000. Only digits (grouping spaces allowed); a decimal is refused, not rounded. */
export function parseWhole(text: string, min: number, max: number): ParsedNumber {
  const t = text.replace(SPACES, '');
  if (t === '') return { ok: false, problem: 'empty' };
  if (/^-?\d+[.,]\d*$/.test(t)) return { ok: false, problem: 'whole' };
  if (/^-\d+$/.test(t)) return { ok: false, problem: 'min' };
  if (!/^\d+$/.test(t)) return { ok: false, problem: 'format' };
  if (t.length > 12) return { ok: false, problem: 'max' };
  const n = Number(t);
  if (n < min) return { ok: false, problem: 'min' };
  if (n > max) return { ok: false, problem: 'max' };
  return { ok: true, value: n };
}

/** Requests per second: a positive decimal ("2,5" or "2.5"), at most MAX_RPS. */
export function parseRps(text: string): ParsedNumber {
  const t = text.replace(SPACES, '').replace(',', '.');
  if (t === '') return { ok: false, problem: 'empty' };
  if (/^-/.test(t)) return { ok: false, problem: 'min' };
  if (!/^\d*\.?\d+$|^\d+\.$/.test(t)) return { ok: false, problem: 'format' };
  const n = Number(t);
  if (!Number.isFinite(n)) return { ok: false, problem: 'format' };
  if (n <= 0) return { ok: false, problem: 'min' };
  if (n > MAX_RPS) return { ok: false, problem: 'max' };
  return { ok: true, value: n };
}

/** Same rule as core/admin/accounts.ts AccountName. */
export const ACCOUNT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export type NameProblem = 'empty' | 'chars' | 'length' | 'taken';

export function checkAccountName(name: string, existing: readonly string[]): NameProblem | null {
  const n = name.trim();
  if (n === '') return 'empty';
  if (n.length > 64) return 'length';
  if (!ACCOUNT_NAME.test(n)) return 'chars';
  if (existing.includes(n)) return 'taken';
  return null;
}

/**
 * The number of requests at which a low-balance notice fires, or null when it never will (off, or auto
 * before the first purchase). Auto is 10 % of the last package, rounded up (docs/api.md).
 */
export function thresholdRequests(account: Pick<AccountView, 'threshold' | 'last_package'>): number | null {
  switch (account.threshold) {
    case 'off':
      return null;
    case 'auto':
      return account.last_package ? Math.ceil(account.last_package / 10) : null;
    default:
      return Number(account.threshold);
  }
}

/** True when the balance is at or below an active threshold. */
export function isLow(account: Pick<AccountView, 'threshold' | 'last_package' | 'balance'>): boolean {
  const limit = thresholdRequests(account);
  return limit !== null && account.balance <= limit;
}

/** Quick amounts offered next to the top-up field. */
export const TOPUP_PRESETS = [1000, 5000, 10_000, 50_000] as const;
