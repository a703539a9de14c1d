// Which of a point's rates a shipper pays (audit F6; 5Post integration guide §4.1, §4.4).
import { describe, expect, it } from 'vitest';
import { DEFAULT_HUB, hubOfSender, hubPrice, isHubRate } from '../../../../../core/carriers/fivepost/hub';
import type { PointRate } from '../../../../../core/carriers/fivepost/points';

function rate(rateType: string, rateTypeCode: string | null, baseKopecks: number): PointRate {
  return { rateType, rateTypeCode, baseKopecks, extraPerKgKopecks: 3600, vat: 22 };
}
const base = (r: PointRate): number => r.baseKopecks;

describe('the sender’s hub', () => {
  it.each([
    ['101000', 'HUB_MOSCOW'],
    ['125009', 'HUB_MOSCOW'],
    ['141402', 'HUB_MOSCOW'], // Химки, Московская область
    ['190000', 'HUB_SPB'],
    ['188300', 'HUB_SPB'], // Гатчина, Ленинградская область
    ['620000', 'HUB_EKB'],
    ['420000', DEFAULT_HUB],
    ['', DEFAULT_HUB],
  ])('%s → %s', (postal, hub) => {
    expect(hubOfSender(postal)).toBe(hub);
  });
  it('is Moscow without an index', () => {
    expect(hubOfSender(null)).toBe('HUB_MOSCOW');
  });
});

describe('a rate of a hub', () => {
  it('is known by its name however 5Post spells it, or by its code when the name is empty', () => {
    expect(isHubRate(rate('HUB_MOSCOW', '10', 1), 'HUB_MOSCOW')).toBe(true);
    expect(isHubRate(rate('Hub Moscow', null, 1), 'HUB_MOSCOW')).toBe(true); // the guide's callback "HUB Moscow"
    expect(isHubRate(rate('HUB_SPB', '20', 1), 'HUB_MOSCOW')).toBe(false);
    // The 2021 capture: rateType empty, rateTypeCode 10.
    expect(isHubRate(rate('', '10', 1), 'HUB_MOSCOW')).toBe(true);
    expect(isHubRate(rate('', '20', 1), 'HUB_SPB')).toBe(true);
    // A name that says another hub wins over a code that would match.
    expect(isHubRate(rate('Hub_Bogorodsk', '10', 1), 'HUB_MOSCOW')).toBe(false);
  });
});

describe('the price at a point', () => {
  const two = [rate('HUB_SPB', '20', 19_999), rate('HUB_MOSCOW', '10', 25_000)];
  it('is the only rate, whatever it is called (most partners see one, guide §4.4)', () => {
    expect(hubPrice([rate('HUB_SPB', '20', 45_750)], 'HUB_MOSCOW', base)).toBe(45_750);
    expect(hubPrice([rate('', null, 23_900)], 'HUB_EKB', base)).toBe(23_900);
  });
  it('is the hub’s among several, not the cheapest', () => {
    expect(hubPrice(two, 'HUB_MOSCOW', base)).toBe(25_000);
    expect(hubPrice(two, 'HUB_SPB', base)).toBe(19_999);
  });
  it('is the dearest when none of several is the hub’s: a guess never underquotes', () => {
    expect(hubPrice(two, 'HUB_EKB', base)).toBe(25_000);
  });
  it('is none when the hub’s rate gives no price for the parcel', () => {
    expect(
      hubPrice(two, 'HUB_MOSCOW', (r) => (r.rateType === 'HUB_MOSCOW' ? null : r.baseKopecks)),
    ).toBeNull();
    expect(hubPrice([], 'HUB_MOSCOW', base)).toBeNull();
  });
});
