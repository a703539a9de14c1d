// Pure helpers of the settings screen (no DOM): what an imported text is, the listener's port
// and the box-preset editor's checks. Unit-testable in Node.
import { FOREIGN_KEY_PATTERN, KEY_PREFIX } from '../../../../core/contract/key-shape';
import { KeyName } from '../../../../core/contract/operations/keys';
import { MIN_LISTENER_PORT } from '../../../../core/contract/operations/settings';
import { parseCm } from '../../lib/parse';

// ---------------------------------------------------------------------------------------------------
// Key import
// ---------------------------------------------------------------------------------------------------

/** The shape of a RateDesk key: the core's pattern (the checksum itself is checked by the core). */
const RATEDESK_KEY = /^rdk_[0-9A-Za-z]{38,}$/;

export type ImportProblem = 'empty' | 'multiline' | 'notExport' | 'rdkShape' | 'foreignShape';

export type ImportClass =
  | { kind: 'document'; text: string; count: number }
  | { kind: 'secret'; secret: string; ratedesk: boolean }
  | { kind: 'invalid'; problem: ImportProblem };

/**
 * What a pasted text or a chosen file holds: a key export document (JSON with format "ratedesk-keys"),
 * one secret (trailing newline and spaces trimmed, like `admin keys import`), or something else.
 * The messages built from the result never repeat the secret.
 */
export function classifyImport(raw: string): ImportClass {
  const text = raw.replace(/^\uFEFF/, '').trim();
  if (text === '') return { kind: 'invalid', problem: 'empty' };
  if (text.startsWith('{') || text.startsWith('[')) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return { kind: 'invalid', problem: 'notExport' };
    }
    if (
      doc &&
      typeof doc === 'object' &&
      !Array.isArray(doc) &&
      (doc as { format?: unknown }).format === 'ratedesk-keys'
    ) {
      const keys = (doc as { keys?: unknown }).keys;
      return { kind: 'document', text, count: Array.isArray(keys) ? keys.length : 0 };
    }
    return { kind: 'invalid', problem: 'notExport' };
  }
  if (/[\r\n]/.test(text)) return { kind: 'invalid', problem: 'multiline' };
  if (text.startsWith(KEY_PREFIX)) {
    return RATEDESK_KEY.test(text)
      ? { kind: 'secret', secret: text, ratedesk: true }
      : { kind: 'invalid', problem: 'rdkShape' };
  }
  return FOREIGN_KEY_PATTERN.test(text)
    ? { kind: 'secret', secret: text, ratedesk: false }
    : { kind: 'invalid', problem: 'foreignShape' };
}

/** "legacy-key.txt" → "legacy-key": a reasonable default name for a key read from a file. */
export function nameFromFile(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, '').trim();
  return (base || fileName).slice(0, 64);
}

/** Key names: the core's KeyName schema itself (trimmed, 1–64, no control characters), its issue as a problem. */
/** `taken`: the core refused it, another active key of the account has it (#17 item 9, sameKeyName). */
export type KeyNameProblem = 'empty' | 'length' | 'control' | 'taken';
export function checkKeyName(name: string): KeyNameProblem | null {
  const issue = KeyName.safeParse(name).error?.issues[0];
  if (!issue) return null;
  if (issue.code === 'too_small') return 'empty';
  if (issue.code === 'too_big') return 'length';
  return 'control';
}

// ---------------------------------------------------------------------------------------------------
// Listener
// ---------------------------------------------------------------------------------------------------

export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'] as const;

/**
 * A port as typed: a whole number from MIN_LISTENER_PORT (1024: below it a port needs administrator rights,
 * and 80 or 443 belong to other programs) to 65535, or 0 for any free port; the core's ListenerPort rule.
 */
export function parsePort(text: string): { ok: true; value: number } | { ok: false } {
  const t = text.trim();
  if (!/^\d{1,5}$/.test(t)) return { ok: false };
  const n = Number(t);
  return n === 0 || (n >= MIN_LISTENER_PORT && n <= 65_535) ? { ok: true, value: n } : { ok: false };
}

// ---------------------------------------------------------------------------------------------------
// Box presets (ui.box_presets)
// ---------------------------------------------------------------------------------------------------

export interface PresetDraft {
  /** Stable React key for a row while it is edited. */
  id: number;
  name: string;
  length: string;
  width: string;
  height: string;
}

export type PresetField = 'name' | 'length' | 'width' | 'height';
export type PresetProblem = 'empty' | 'length' | 'duplicate' | 'format' | 'range' | 'precision';
export type PresetErrors = Record<number, Partial<Record<PresetField, PresetProblem>>>;

export const MAX_PRESETS = 50;

export interface BoxPresetValue {
  name: string;
  length_cm: number;
  width_cm: number;
  height_cm: number;
}

/**
 * Checks every row; returns the JSON to store when all are fine. Names must be unique (the quote form
 * picks a box by name) and 1–40 characters; sides as the quote form reads them (parseCm).
 */
export function checkPresets(rows: readonly PresetDraft[]): {
  errors: PresetErrors;
  value: BoxPresetValue[] | null;
} {
  const errors: PresetErrors = {};
  const value: BoxPresetValue[] = [];
  const seen = new Set<string>();
  const put = (id: number, field: PresetField, p: PresetProblem): void => {
    (errors[id] ??= {})[field] = p;
  };
  for (const row of rows) {
    const name = row.name.trim();
    if (name === '') put(row.id, 'name', 'empty');
    else if (name.length > 40) put(row.id, 'name', 'length');
    else if (seen.has(name.toLowerCase())) put(row.id, 'name', 'duplicate');
    seen.add(name.toLowerCase());
    const sides: number[] = [];
    for (const f of ['length', 'width', 'height'] as const) {
      const r = parseCm(row[f]);
      if (r.ok) sides.push(r.value);
      else
        put(
          row.id,
          f,
          r.error === 'empty'
            ? 'empty'
            : r.error === 'precision'
              ? 'precision'
              : r.error === 'range'
                ? 'range'
                : 'format',
        );
    }
    if (sides.length === 3)
      value.push({ name, length_cm: sides[0]!, width_cm: sides[1]!, height_cm: sides[2]! });
  }
  return { errors, value: Object.keys(errors).length === 0 ? value : null };
}
