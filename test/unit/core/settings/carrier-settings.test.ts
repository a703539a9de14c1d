// The settings every carrier gets, and which host a live carrier is asked (#10 item 1).
import { describe, expect, it } from 'vitest';
import { carrierSettings, cutoffHour, liveBaseUrl } from '../../../../core/settings/carrier-settings';
import { CARRIER_DESCRIPTORS } from '../../../../core/carriers/built-in';
import { CDEK } from '../../../../core/carriers/cdek/descriptor';
import { SETTINGS } from '../../../../core/settings/schema';

describe('carrierSettings', () => {
  it('gives a carrier its switch, endpoint, host, timeout and account fields', () => {
    const s = carrierSettings(
      {
        code: 'acme',
        production: 'https://api.acme.test',
        credentials: { token: { secret: true, doc: 'Acme token.' } },
      },
      { kind: 'working', cutoff: '15:00' },
    );
    expect(Object.keys(s).sort()).toEqual([
      'carriers.acme.base_url',
      'carriers.acme.cutoff',
      'carriers.acme.days_kind',
      'carriers.acme.enabled',
      'carriers.acme.endpoint',
      'carriers.acme.timeout_ms',
      'carriers.acme.token',
    ]);
    expect(s['carriers.acme.token'].secret).toBe(true);
    expect(s['carriers.acme.endpoint'].schema.safeParse('simulator').success).toBe(true);
    expect(s['carriers.acme.timeout_ms'].schema.safeParse('60001').success).toBe(false);
  });

  it('is what the settings schema holds for the built-in carriers', () => {
    for (const name of Object.keys(carrierSettings({ code: CDEK.code, ...CDEK.settings }, CDEK.days)))
      expect(SETTINGS).toHaveProperty([name]);
  });

  it("starts each carrier's kind of days and cut-off from its descriptor (#21)", () => {
    for (const d of CARRIER_DESCRIPTORS) {
      const s = carrierSettings({ code: d.code, ...d.settings }, d.days);
      expect(s[`carriers.${d.code}.days_kind`].default).toBe(d.days.kind);
      expect(s[`carriers.${d.code}.cutoff`].default).toBe(d.days.cutoff ?? '');
    }
    const acme = carrierSettings(
      { code: 'acme', production: 'https://a' },
      { kind: 'working', cutoff: '15:00' },
    );
    expect(acme['carriers.acme.days_kind'].default).toBe('working');
    expect(acme['carriers.acme.cutoff'].default).toBe('15:00');
    const cutoff = acme['carriers.acme.cutoff'].schema;
    for (const ok of ['', '00:00', '09:30', '23:59']) expect(cutoff.safeParse(ok).success).toBe(true);
    for (const bad of ['24:00', '9:30', '15', '15:60', 'noon'])
      expect(cutoff.safeParse(bad).success).toBe(false);
    expect(acme['carriers.acme.days_kind'].schema.safeParse('business').success).toBe(false);
  });

  it('reads a cut-off as an hour with minutes as a fraction; none is 24', () => {
    expect(cutoffHour('17:30')).toBe(17.5);
    expect(cutoffHour('00:00')).toBe(0);
    expect(cutoffHour('')).toBe(24);
  });
});

describe('liveBaseUrl', () => {
  const spec = { production: 'https://p', test: 'https://t' };
  it.each([
    ['production', 'https://p', 'https://p'],
    ['test', 'https://p', 'https://t'],
    ['simulator', 'https://p', null],
    ['custom', 'https://c', 'https://c'],
    // Before #10 base_url alone chose the host: a folder that set it keeps it.
    ['production', 'https://proxy', 'https://proxy'],
  ])('%s with base_url %s → %s', (endpoint, baseUrl, expected) => {
    expect(liveBaseUrl(spec, endpoint, baseUrl)).toBe(expected);
  });
  it('test without a test host is the production host', () => {
    expect(liveBaseUrl({ production: 'https://p' }, 'test', 'https://p')).toBe('https://p');
  });
});
