// DPD's limits are DPDgroup's (DPD Poland's page), not DPD Russia's (audit DP10): the data says so, for the
// Carriers screen's card («лимиты не подтверждены»).
import { describe, expect, it } from 'vitest';
import { DPD } from '../../../../../core/carriers/dpd/descriptor';
import { DPD_LIMITS, DPD_LIMITS_UNVERIFIED_REASON } from '../../../../../core/carriers/dpd/limits';

describe('DPD limits', () => {
  it('are marked unverified, with the reason in both UI languages naming the figures', () => {
    expect(DPD.limitsUnverified).toBe(DPD_LIMITS_UNVERIFIED_REASON);
    expect(DPD_LIMITS).toEqual({ maxWeightGrams: 31_500, maxLengthCm: 175, maxLengthPlusGirthCm: 300 });
    expect(DPD_LIMITS_UNVERIFIED_REASON.ru).toMatch(/31,5 кг.*175 см.*300 см/);
    expect(DPD_LIMITS_UNVERIFIED_REASON.en).toMatch(/31\.5 kg.*175 cm.*300 cm/);
  });
});
