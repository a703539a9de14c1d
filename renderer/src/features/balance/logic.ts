// Pure helpers of the balance screen (no DOM): parsing what an administrator types, checked against the
// core's own rules (core/contract), imported, never copied, so the form says what the core would refuse.
import { MAX_BURST, MAX_REQUESTS, MAX_RPS } from '../../../../core/contract/limits';
import {
  DEFAULT_BALANCE,
  isLow,
  THRESHOLD_VALUES,
  thresholdRequests,
} from '../../../../core/contract/low-balance';
import { AccountName } from '../../../../core/contract/operations/accounts';

export { DEFAULT_BALANCE, isLow, MAX_BURST, MAX_REQUESTS, MAX_RPS, THRESHOLD_VALUES, thresholdRequests };

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

export type NameProblem = 'empty' | 'chars' | 'length' | 'taken';

export function checkAccountName(name: string, existing: readonly string[]): NameProblem | null {
  const n = name.trim();
  if (n === '') return 'empty';
  if (n.length > 64) return 'length';
  if (!AccountName.safeParse(n).success) return 'chars';
  if (existing.includes(n)) return 'taken';
  return null;
}

/** Quick amounts offered next to the top-up field. */
export const TOPUP_PRESETS = [1000, 5000, 10_000, 50_000] as const;
