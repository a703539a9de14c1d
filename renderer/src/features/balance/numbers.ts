// Number wording shared by the account sections: "10 000" requests per second, "2,5", and the message for a
// number outside its bounds.
import type { ScopedT } from '../../i18n';
import { formatDecimal, formatInteger, type Lang } from '../../lib/format';
import type { NumberProblem } from './logic';

/** 10000 → "10 000", 2.5 → "2,5". */
export function formatRps(rps: number, lang: Lang): string {
  return Number.isInteger(rps) ? formatInteger(rps, lang) : formatDecimal(rps, lang);
}

export function numberError(
  t: ScopedT<'balance'>,
  p: NumberProblem | null,
  min: number,
  max: number,
  lang: Lang,
): string | null {
  return p ? t(`num.${p}`, { min: formatInteger(min, lang), max: formatInteger(max, lang) }) : null;
}
