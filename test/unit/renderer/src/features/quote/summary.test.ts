// #17 item 7: the summary line names the cheapest and the fastest option (the badges' options).
import { describe, expect, it } from 'vitest';
import type { Rate } from '../../../../../../core/contract/v1';
import { summaryOf } from '../../../../../../renderer/src/features/quote/summary';

function rate(code: string, price: number, min: number | null, max: number | null): Rate {
  return {
    carrier: code.split(':')[0]!,
    carrier_name: code.split(':')[0]!,
    service_code: code,
    service_name: code,
    delivery_type: 'door',
    price_kopecks: price,
    currency: 'RUB',
    days_min: min,
    days_max: max,
    price_type: 'public',
  };
}

describe('summaryOf', () => {
  it('is null without options', () => {
    expect(summaryOf([])).toBeNull();
  });

  it('names the cheapest and the fastest', () => {
    const s = summaryOf([rate('a:1', 50000, 5, 7), rate('b:1', 32000, 9, 9), rate('c:1', 143520, 2, 2)]);
    expect(s?.cheapest.service_code).toBe('b:1');
    expect(s?.fastest?.service_code).toBe('c:1');
    expect(s?.same).toBe(false);
  });

  it('takes the fastest of equally cheap options and the cheapest of equally fast ones', () => {
    const s = summaryOf([
      rate('a:slow', 32000, 9, 9),
      rate('a:quick', 32000, 5, 7),
      rate('d:dear', 227540, 2, 2),
      rate('d:cheaper', 192540, 2, 2),
      rate('y:one', 143520, 1, 2),
    ]);
    expect(s?.cheapest.service_code).toBe('a:quick');
    // 2 days at most for all three; the one that may come in 1 day is the fastest (as the badge says).
    expect(s?.fastest?.service_code).toBe('y:one');
  });

  it('says it once when one option is both', () => {
    const s = summaryOf([rate('a:1', 10000, 1, 2), rate('b:1', 20000, 3, 4)]);
    expect(s).toMatchObject({ same: true });
    expect(s?.fastest).toBe(s?.cheapest);
  });

  it('has no fastest when no option states its days', () => {
    const s = summaryOf([rate('a:1', 10000, null, null), rate('b:1', 9000, null, null)]);
    expect(s?.cheapest.service_code).toBe('b:1');
    expect(s?.fastest).toBeNull();
    expect(s?.same).toBe(false);
  });
});
