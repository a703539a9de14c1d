// Pure helpers of the rate cards section (no DOM, no React): the import form's checks, the same rules as the
// core's schemas (imported from the contract, so they cannot drift), and how a refused file's problems are
// grouped for the screen.
import {
  columnLabel,
  MAX_RATE_CARD_FILE_BYTES,
  RATE_CARD_COLUMNS,
  RateCardCode,
  RateCardName,
  VolumetricDivisor,
  type RateCardColumn,
  type RateCardProblem,
} from '../../../../../core/desk/contract';

export interface CardForm {
  code: string;
  name: string;
  /** As typed; '' means the default. */
  divisor: string;
}

export interface CardFormProblems {
  code?: 'empty' | 'format';
  name?: 'empty' | 'length' | 'control';
  divisor?: 'format' | 'range';
}

/** The form before it is sent; an empty object when it may go. */
export function checkCardForm(form: CardForm): CardFormProblems {
  const problems: CardFormProblems = {};
  const code = form.code.trim();
  if (code === '') problems.code = 'empty';
  else if (!RateCardCode.safeParse(code).success) problems.code = 'format';
  const name = form.name.trim();
  if (name === '') problems.name = 'empty';
  else if (name.length > 64) problems.name = 'length';
  else if (!RateCardName.safeParse(name).success) problems.name = 'control';
  const divisor = form.divisor.trim().replace(/[\s\u00a0]/g, '');
  if (divisor !== '') {
    if (!/^\d+$/.test(divisor)) problems.divisor = 'format';
    else if (!VolumetricDivisor.safeParse(Number(divisor)).success) problems.divisor = 'range';
  }
  return problems;
}

export function hasProblems(p: CardFormProblems): boolean {
  return p.code !== undefined || p.name !== undefined || p.divisor !== undefined;
}

/** A code to start from, out of the file's name: "Курьер Плюс 2025.csv" → "2025", "city-courier.csv" → "city-courier". */
export function codeFromFileName(fileName: string): string {
  return fileName
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');
}

/** Files larger than the core accepts are refused before they are read into memory. */
export const MAX_FILE_BYTES = MAX_RATE_CARD_FILE_BYTES;

/**
 * Problems about the file as a whole (not a line of it): said in one sentence, without a line number or a
 * count of bad lines («это файл Excel 97–2003 — сохраните…», not "1 line has errors: line 1: …").
 */
const FILE_KINDS: ReadonlySet<RateCardProblem['kind']> = new Set(['empty_file', 'old_excel', 'bad_xlsx']);

export function fileLevelProblem(problems: readonly RateCardProblem[]): RateCardProblem | null {
  const only = problems.length === 1 ? problems[0]! : null;
  return only && FILE_KINDS.has(only.kind) ? only : null;
}

/** The lines of a refused file, each with its problems, in line order (the core sends them so). */
export function problemsByLine(
  problems: readonly RateCardProblem[],
): Array<[line: number, RateCardProblem[]]> {
  const lines = new Map<number, RateCardProblem[]>();
  for (const p of problems) {
    const list = lines.get(p.line);
    if (list) list.push(p);
    else lines.set(p.line, [p]);
  }
  return [...lines.entries()];
}

/**
 * Parameters of a problem's sentence (the i18n catalogue's {column}, {value}, {other}). A column is named as
 * the file names it («цена, ₽» or price_rub); one the file lacks, in the UI language's words.
 */
export function problemParams(p: RateCardProblem, lang: 'ru' | 'en'): Record<string, string | number> {
  const known = (RATE_CARD_COLUMNS as readonly string[]).includes(p.column ?? '');
  const column = p.header ?? (known ? columnLabel(p.column as RateCardColumn, lang) : (p.column ?? ''));
  return { column, value: p.value ?? '', other: p.other_line ?? '', line: p.line };
}
