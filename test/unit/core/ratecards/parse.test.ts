// The rate-card reader: a good file in either delimiter, and every kind of bad line reported with its number.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MAX_LISTED_RATE_CARD_PROBLEMS,
  describeRateCardProblem,
  describeRateCardProblems,
  RATE_CARD_PROBLEM_KINDS,
  type RateCardProblem,
} from '../../../../core/contract/operations/ratecards';
import { cityKey } from '../../../../core/ratecards/cities';
import { parseDecimal, parseRateCard, parseWholeNumber } from '../../../../core/ratecards/parse';

const HEADER = 'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type';
const parse = (text: string) => parseRateCard(text, { cityKey: (name) => cityKey(name) });
const problems = (text: string) => parse(text).problems.map(({ line, kind }) => [line, kind]);

describe('a good file', () => {
  it('reads the example of docs/carriers.md (semicolons, quoted prices, spaces between thousands)', () => {
    const text = readFileSync(
      new URL('../../../../docs/examples/ratecard-example.csv', import.meta.url),
      'utf8',
    );
    const { rows, problems } = parse(text);
    expect(problems).toEqual([]);
    expect(rows).toHaveLength(10);
    expect(rows[3]).toEqual({
      line: 5,
      from: { kind: 'city', name: 'Москва' },
      to: { kind: 'any' },
      maxWeightGrams: 1000,
      priceKopecks: 115000,
      daysMin: 2,
      daysMax: 4,
      deliveryType: 'door',
      serviceCode: 'courier',
      serviceName: 'Курьер до двери',
      declaredValueBp: 50,
    });
    expect(rows.map((r) => r.priceKopecks)).toContain(169050);
    expect(rows.find((r) => r.line === 10)!.priceKopecks).toBe(109000);
    expect(rows.find((r) => r.line === 8)!.to).toEqual({ kind: 'prefix', prefix: '19' });
  });

  it('reads commas, a BOM, CRLF, blank and all-empty lines, upper-case headers, columns in any order', () => {
    const text =
      '\uFEFFDelivery_Type,TO,from,max_weight_grams,price_rub,days_min,days_max\r\n' +
      'door,"Казань",спб,"1 000","12,5",1,2\r\n' +
      '\r\n' +
      ',,,,,,\r\n' +
      'PICKUP_POINT,420,*,2000,7,0,0\r\n';
    const { rows, problems } = parse(text);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.line, r.from, r.to, r.maxWeightGrams, r.priceKopecks, r.deliveryType])).toEqual(
      [
        [2, { kind: 'city', name: 'спб' }, { kind: 'city', name: 'Казань' }, 1000, 1250, 'door'],
        [5, { kind: 'any' }, { kind: 'prefix', prefix: '420' }, 2000, 700, 'pickup_point'],
      ],
    );
  });

  it('takes delimiters and "" inside quotes; a row spanning lines is numbered from its start', () => {
    const ok = parse(`${HEADER},service_name\n*,*,1000,100,1,2,door,"Курьер, ""Плюс"""\n`);
    expect(ok.problems).toEqual([]);
    expect(ok.rows[0]!.serviceName).toBe('Курьер, "Плюс"');
    // A line break inside quotes is one field (refused: names are one line), and the next row is line 4.
    const text = `${HEADER},service_name\n*,*,1000,100,1,2,door,"Курьер\n""Плюс"""\n*,*,bad,100,1,2,door,x\n`;
    expect(problems(text)).toEqual([
      [2, 'bad_service_name'],
      [4, 'bad_weight'],
    ]);
  });

  it('ignores empty cells after the last column (spreadsheets add them)', () => {
    expect(parse(`${HEADER},\n*,*,1000,100,1,2,door,,\n`).problems).toEqual([]);
  });

  it('keeps money and percents in integers: never through a float', () => {
    expect(parseDecimal('0,29', 1e9)).toBe(29);
    expect(parseDecimal('1 234,50', 1e9)).toBe(123450);
    expect(parseDecimal('1\u00a0234.5', 1e9)).toBe(123450);
    expect(parseDecimal('8.255', 1e9)).toBeNull();
    expect(parseDecimal('12 ,5', 1e9)).toBeNull();
    expect(parseDecimal('-1', 1e9)).toBeNull();
    expect(parseDecimal('1e3', 1e9)).toBeNull();
    expect(parseDecimal('100,01', 10000)).toBeNull();
    expect(parseDecimal('100', 10000)).toBe(10000);
    expect(parseDecimal('9'.repeat(20), 1e9)).toBeNull();
    expect(parseWholeNumber('1 000', 1, 1e6)).toBe(1000);
    expect(parseWholeNumber('1.5', 0, 10)).toBeNull();
  });
});

describe('a bad file is refused whole, every bad line with its number', () => {
  it.each<[string, string, Array<[number, RateCardProblem['kind']]>]>([
    ['an empty file', ' \n \n', [[1, 'empty_file']]],
    ['a header only', `${HEADER}\n\n`, [[1, 'no_rows']]],
    [
      'header mistakes',
      'from,to,to,max_weight,price_rub,days_min,days_max,delivery_type\n*,*,1,1,1,1,door\n',
      [
        [1, 'duplicate_column'],
        [1, 'unknown_column'],
        [1, 'missing_column'],
      ],
    ],
    [
      'a text that was not UTF-8',
      `${HEADER}\n*,*,1000,100,1,2,door\nМ\uFFFDсква,*,1,1,1,1,door\n`,
      [[3, 'not_utf8']],
    ],
    [
      'a quote never closed',
      `${HEADER}\n*,*,1000,100,1,2,door\n"Москва,*,1,1,1,1,door\n`,
      [[3, 'unterminated_quote']],
    ],
    ['text beyond the last column', `${HEADER}\n*,*,1000,100,1,2,door,extra\n`, [[2, 'too_many_fields']]],
    ['an empty required value', `${HEADER}\n*,*,1000,,1,2,door\n`, [[2, 'empty_value']]],
    ['a postal prefix of 7 digits', `${HEADER}\n1234567,*,1000,100,1,2,door\n`, [[2, 'bad_place']]],
    [
      'a city the table does not know',
      `${HEADER}\n*,Нетакогограда,1000,100,1,2,door\n`,
      [[2, 'unknown_city']],
    ],
    ['weight 0', `${HEADER}\n*,*,0,100,1,2,door\n`, [[2, 'bad_weight']]],
    ['weight 1.5', `${HEADER}\n*,*,1.5,100,1,2,door\n`, [[2, 'bad_weight']]],
    ['weight over 1000 kg', `${HEADER}\n*,*,1000001,100,1,2,door\n`, [[2, 'bad_weight']]],
    ['three decimals', `${HEADER}\n*,*,1000,"12,345",1,2,door\n`, [[2, 'bad_price']]],
    ['a negative price', `${HEADER}\n*,*,1000,-5,1,2,door\n`, [[2, 'bad_price']]],
    ['a price with its currency', `${HEADER}\n*,*,1000,100 руб,1,2,door\n`, [[2, 'bad_price']]],
    ['fractional days', `${HEADER}\n*,*,1000,100,1.5,2,door\n`, [[2, 'bad_days']]],
    ['negative days', `${HEADER}\n*,*,1000,100,-1,2,door\n`, [[2, 'bad_days']]],
    ['days_min above days_max', `${HEADER}\n*,*,1000,100,5,2,door\n`, [[2, 'days_order']]],
    ['an unknown delivery type', `${HEADER}\n*,*,1000,100,1,2,courier\n`, [[2, 'bad_delivery_type']]],
    [
      'a percent over 100',
      `${HEADER},declared_value_percent\n*,*,1000,100,1,2,door,101\n`,
      [[2, 'bad_percent']],
    ],
    [
      'a percent with 3 decimals',
      `${HEADER},declared_value_percent\n*,*,1000,100,1,2,door,"0,125"\n`,
      [[2, 'bad_percent']],
    ],
    [
      'a service code with spaces',
      `${HEADER},service_code\n*,*,1000,100,1,2,door,my code\n`,
      [[2, 'bad_service_code']],
    ],
    [
      'a service name too long',
      `${HEADER},service_name\n*,*,1000,100,1,2,door,${'я'.repeat(121)}\n`,
      [[2, 'bad_service_name']],
    ],
    [
      'one service with two names and delivery types',
      `${HEADER},service_code,service_name\n*,*,1000,100,1,2,door,x,A\n*,*,2000,100,1,2,terminal,x,B\n`,
      [
        [3, 'service_mismatch'],
        [3, 'service_mismatch'],
      ],
    ],
    [
      'a duplicate band (the same city spelt two ways)',
      `${HEADER}\nМосква,Санкт-Петербург,1000,100,1,2,door\nмосква,спб,1000,120,1,2,door\n`,
      [[3, 'duplicate_row']],
    ],
  ])('%s', (_what, text, expected) => {
    const r = parse(text);
    expect(r.problems.map(({ line, kind }) => [line, kind])).toEqual(expected);
    expect(r.rows).toEqual([]);
  });

  it('lists every bad line of a file at once, in line order, good lines notwithstanding', () => {
    const text = [
      HEADER,
      '*,*,1000,100,1,2,door',
      '*,*,2000,"1,999",1,2,boat',
      '*,*,3000,100,1,2,door',
      'Нигдеград,*,4000,100,3,1,door',
    ].join('\n');
    expect(problems(text)).toEqual([
      [3, 'bad_price'],
      [3, 'bad_delivery_type'],
      [5, 'unknown_city'],
      [5, 'days_order'],
    ]);
  });

  it('stops at 100,000 rows', () => {
    const rows = Array.from({ length: 100_001 }, (_v, i) => `*,*,${i + 1},100,1,2,door`);
    expect(problems([HEADER, ...rows].join('\n'))).toEqual([[100_002, 'too_many_rows']]);
  });

  it('words every kind in English for the CLI, each line prefixed with its number', () => {
    for (const kind of RATE_CARD_PROBLEM_KINDS) {
      const text = describeRateCardProblem({ line: 2, kind, column: 'price_rub', value: 'x', other_line: 1 });
      expect(text.length, kind).toBeGreaterThan(5);
      expect(text, kind).not.toContain('undefined');
    }
    const result = parse(`${HEADER}\n*,*,0,"1,234",1,2,door\n*,*,1,1,1,1,x\n`);
    const message = describeRateCardProblems({
      problems: result.problems,
      more_problems: result.moreProblems,
      bad_lines: result.badLines,
    });
    expect(message.split('\n')).toEqual([
      'The rate card was refused and nothing was imported: 2 bad lines.',
      'line 2: max_weight_grams: "0" is not a whole number of grams from 1 to 1000000',
      'line 2: price_rub: "1,234" is not a price in roubles with at most 2 decimals (1234.50 or 1 234,50)',
      'line 3: delivery_type: "x" is not one of door, pickup_point, terminal, post_office, unknown',
    ]);
  });
});

describe('a hostile file (#16 item 6)', () => {
  it('lists the first 100 problems and counts the rest, in the message too', () => {
    const rows = Array.from({ length: 5_000 }, () => 'x,y,z,w,v,u,t');
    const result = parse([HEADER, ...rows].join('\n'));
    expect(result.problems).toHaveLength(MAX_LISTED_RATE_CARD_PROBLEMS);
    expect(result.problems.at(-1)!.line).toBeLessThan(100);
    // Per line: from and to unknown, and bad weight, price, days ×2, delivery type: 7 problems.
    expect(result.moreProblems).toBe(5_000 * 7 - MAX_LISTED_RATE_CARD_PROBLEMS);
    expect(result.badLines).toBe(5_000);
    const message = describeRateCardProblems({
      problems: result.problems,
      more_problems: result.moreProblems,
      bad_lines: result.badLines,
    });
    const lines = message.split('\n');
    expect(lines[0]).toBe('The rate card was refused and nothing was imported: 5000 bad lines.');
    expect(lines).toHaveLength(1 + MAX_LISTED_RATE_CARD_PROBLEMS + 1);
    expect(lines.at(-1)).toBe(`… and ${5_000 * 7 - MAX_LISTED_RATE_CARD_PROBLEMS} more problems.`);
  });

  it('reads millions of blank lines without keeping them (memory follows rows, not lines)', () => {
    const before = process.memoryUsage().heapUsed;
    const text = `${HEADER}\n*,*,1000,100,1,2,door\n${'\n'.repeat(5_000_000)}*,*,2000,200,1,2,door\n`;
    const result = parse(text);
    expect(result.problems).toEqual([]);
    expect(result.rows.map((r) => r.line)).toEqual([2, 5_000_003]);
    // The text itself is 5 MB (one byte a character); before #16 the records array took > 500 MB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('reads a 5 MB field in one slice, not a character at a time', () => {
    const long = 'a'.repeat(5_000_000);
    const result = parse(`${HEADER}\n"${long}",*,1000,100,1,2,door\n`);
    expect(result.problems).toEqual([
      { line: 2, kind: 'unknown_city', column: 'from', header: 'from', value: `${'a'.repeat(59)}…` },
    ]);
  });
});
