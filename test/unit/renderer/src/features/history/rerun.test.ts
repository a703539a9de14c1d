// History's list and re-run in words (#17 item 8): a partial answer counted, «без изменений» once, and a
// carrier that failed named once instead of each of its services «gone».
import { describe, expect, it } from 'vitest';
import type { PriceChange } from '../../../../../../core/desk/contract';
import { answeredOf, summariseRerun } from '../../../../../../renderer/src/features/history/logic';

const change = (carrier: string, code: string, before: number | null, after: number | null): PriceChange => ({
  carrier,
  service_code: code,
  service_name: code,
  before_kopecks: before,
  after_kopecks: after,
});

describe('answeredOf', () => {
  it('counts who answered of everyone asked', () => {
    expect(answeredOf({ carriers: ['pek', 'dellin', 'cdek'], failures: [] })).toEqual({
      answered: 3,
      asked: 3,
    });
    expect(
      answeredOf({
        carriers: ['pek'],
        failures: [
          { carrier: 'dpd', kind: 'exceeds_limits' },
          { carrier: 'cdek', kind: 'timeout' },
        ],
      }),
    ).toEqual({ answered: 1, asked: 3 });
  });
});

describe('summariseRerun', () => {
  const changes = [
    change('pek', 'a', 100, 110),
    change('pek', 'b', 200, 190),
    change('pek', 'c', 300, 300),
    change('dellin', 'd', 400, 400),
    change('dellin', 'e', null, 500),
    change('dellin', 'f', 600, null),
    change('cdek', 'g', 700, null),
    change('cdek', 'h', 800, null),
  ];

  it('lists only what changed and counts the rest once', () => {
    const s = summariseRerun(changes, []);
    expect(s.changed.map((c) => [c.service_code, c.kind, c.delta])).toEqual([
      ['a', 'up', 10],
      ['b', 'down', -10],
      ['e', 'new', null],
      ['f', 'gone', null],
      ['g', 'gone', null],
      ['h', 'gone', null],
    ]);
    expect(s.unchanged).toBe(2);
  });

  it('a carrier that failed this time is named once, not each of its services as gone', () => {
    const s = summariseRerun(changes, [{ carrier: 'cdek', kind: 'temporarily_skipped' }]);
    expect(s.changed.map((c) => c.service_code)).toEqual(['a', 'b', 'e', 'f']);
    expect(s.failures).toEqual([{ carrier: 'cdek', kind: 'temporarily_skipped' }]);
  });
});
