import { describe, expect, it } from 'vitest';
import {
  JWT_FORM_BODY,
  jwtUrl,
  pointsPageBody,
  pointsPageUrl,
} from '../../../../../core/carriers/fivepost/request';
import { fivePostErrorText } from '../../../../../core/carriers/fivepost/schema';
import { jwtLifetimeMs } from '../../../../../core/carriers/fivepost/token';

describe('5Post requests (protocols.md §8.2)', () => {
  it('JWT: apikey in the query, subject/audience as a form', () => {
    expect(jwtUrl('https://api-omni.x5.ru', 'k&y')).toBe(
      'https://api-omni.x5.ru/jwt-generate-claims/rs256/1?apikey=k%26y',
    );
    expect(new URLSearchParams(JWT_FORM_BODY).get('subject')).toBe('OpenAPI');
    expect(new URLSearchParams(JWT_FORM_BODY).get('audience')).toBe('A122019!');
  });

  it('catalogue: pageSize 1..2000, pages from 0', () => {
    expect(pointsPageUrl('https://api-omni.x5.ru')).toBe('https://api-omni.x5.ru/api/v1/pickuppoints/query');
    expect(pointsPageBody(0, 500)).toEqual({ pageSize: 500, pageNumber: 0 });
    expect(() => pointsPageBody(0, 2001)).toThrow(RangeError);
    expect(() => pointsPageBody(0, 0)).toThrow(RangeError);
  });
});

describe('5Post error forms', () => {
  it('reads the gateway fault, the API error and the unsuccessful answer', () => {
    expect(fivePostErrorText({ fault: { faultstring: 'Invalid ApiKey', detail: { errorcode: 'x' } } })).toBe(
      'Invalid ApiKey',
    );
    expect(fivePostErrorText({ error: 'Bad Request', message: 'pageSize', status: 400 })).toBe(
      'Bad Request: pageSize',
    );
    expect(fivePostErrorText({ success: false, errorCode: 400, errorMsg: 'bad order' })).toBe('bad order');
    expect(fivePostErrorText({ jwt: 'a.b.c' })).toBeUndefined();
    expect(fivePostErrorText(undefined)).toBeUndefined();
  });
});

describe('JWT lifetime', () => {
  const jwt = (claims: unknown) =>
    ['e30', Buffer.from(JSON.stringify(claims)).toString('base64url'), 'sig'].join('.');
  it('comes from exp when readable', () => {
    expect(jwtLifetimeMs(jwt({ exp: 1_000 + 3600 }), 1_000_000)).toBe(3_600_000);
  });
  it('is unknown for an opaque token, a past exp or no exp', () => {
    expect(jwtLifetimeMs('opaque', 0)).toBeNull();
    expect(jwtLifetimeMs(jwt({ exp: 1 }), 10_000)).toBeNull();
    expect(jwtLifetimeMs(jwt({ sub: 'x' }), 0)).toBeNull();
    expect(jwtLifetimeMs('a.!!!.c', 0)).toBeNull();
  });
});
