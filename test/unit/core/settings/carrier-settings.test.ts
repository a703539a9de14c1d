// The settings every carrier gets, and which host a live carrier is asked (#10 item 1).
import { describe, expect, it } from 'vitest';
import { carrierSettings, liveBaseUrl } from '../../../../core/settings/carrier-settings';
import { CDEK } from '../../../../core/carriers/cdek/descriptor';
import { SETTINGS } from '../../../../core/settings/schema';

describe('carrierSettings', () => {
  it('gives a carrier its switch, endpoint, host, timeout and account fields', () => {
    const s = carrierSettings({
      code: 'acme',
      production: 'https://api.acme.test',
      credentials: { token: { secret: true, doc: 'Acme token.' } },
    });
    expect(Object.keys(s).sort()).toEqual([
      'carriers.acme.base_url',
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
    for (const name of Object.keys(carrierSettings({ code: CDEK.code, ...CDEK.settings })))
      expect(SETTINGS).toHaveProperty([name]);
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
