// Settings → «Сервер компании» (#20): the fingerprint as read aloud, and every refusal of joining said in the
// UI's words — from the messages the desk's link and the gateway really send (imported, so a reworded
// message that the UI no longer recognises fails here).
import { describe, expect, it } from 'vitest';
import { ENROL_REFUSALS } from '../../../../../../core/desk/gateway/enrol';
import { OFFLINE_MESSAGE } from '../../../../../../core/desk/remote';
import {
  companyErrorKey,
  fingerprintLines,
  looksLikePem,
  normaliseCodeInput,
  parseCompanyUrl,
} from '../../../../../../renderer/src/features/settings/company-logic';
import { company } from '../../../../../../renderer/src/i18n/company';

const FP = Array.from({ length: 32 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0')).join(':');
const t = (key: keyof typeof company.ru): string => key;
const explain = companyErrorKey;

describe('fingerprintLines', () => {
  it('splits a SHA-256 fingerprint into four lines of eight bytes, colons kept', () => {
    const lines = fingerprintLines(FP);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('00:01:02:03:04:05:06:07');
    expect(lines[3]).toBe('18:19:1A:1B:1C:1D:1E:1F');
    expect(lines.join(':')).toBe(FP);
  });
  it('accepts lower case and other separators', () => {
    expect(fingerprintLines(FP.toLowerCase().replaceAll(':', ' '))).toEqual(fingerprintLines(FP));
  });
});

describe('inputs', () => {
  it('takes https addresses only', () => {
    expect(parseCompanyUrl(' https://rates.example.ru:8443 ')).toBe('https://rates.example.ru:8443');
    expect(parseCompanyUrl('http://rates.example.ru')).toBeNull();
    expect(parseCompanyUrl('rates.example.ru')).toBeNull();
  });
  it('upper-cases the code and drops what cannot be in it', () => {
    expect(normaliseCodeInput('abcd-efgh jkmn!')).toBe('ABCD-EFGH JKMN');
  });
  it('recognises a PEM certificate', () => {
    expect(looksLikePem('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')).toBe(true);
    expect(looksLikePem('MIIB')).toBe(false);
  });
});

describe('explainCompanyError', () => {
  it('words each enrolment refusal of the gateway', () => {
    expect(explain('forbidden', ENROL_REFUSALS.used)).toBe(t('err.codeUsed'));
    expect(explain('forbidden', ENROL_REFUSALS.expired)).toBe(t('err.codeExpired'));
    expect(explain('forbidden', ENROL_REFUSALS.unknown)).toBe(t('err.codeUnknown'));
    expect(explain('forbidden', ENROL_REFUSALS.disabled)).toBe(t('err.userDisabled'));
  });
  it('words the link failures: wrong certificate, unreachable, not RateDesk', () => {
    expect(
      explain(
        'forbidden',
        "The server's certificate is not the trusted one: fingerprint AB:CD does not match",
      ),
    ).toBe(t('err.certificate'));
    // A certificate that has expired is about the certificate, not the code.
    expect(
      explain('forbidden', "The server's certificate is not the trusted one: certificate has expired"),
    ).toBe(t('err.certificate'));
    expect(explain('offline', 'The company server cannot be reached (ECONNREFUSED).')).toBe(
      t('err.unreachable'),
    );
    expect(explain('offline', OFFLINE_MESSAGE)).toBe(t('err.unreachable'));
    expect(explain('invalid', 'This server did not answer as a RateDesk company server.')).toBe(
      t('err.notRatedesk'),
    );
  });
  it('leaves anything else to the shared wording', () => {
    expect(explain('internal', 'Unexpected error')).toBeNull();
  });
  it('has each of those messages in Russian and English', () => {
    for (const key of ['err.codeUsed', 'err.codeExpired', 'err.codeUnknown', 'err.userDisabled'] as const) {
      expect(company.ru[key]).toMatch(/[а-я]/);
      expect(company.en[key]).toMatch(/[a-z]/);
    }
  });
});
