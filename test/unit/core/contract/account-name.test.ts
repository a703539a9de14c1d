// The default account's name on screen (issue #9): one rule for the renderer and the native notification.
import { describe, expect, it } from 'vitest';
import { accountLabel } from '../../../../core/contract/account-name';

describe('account names on screen', () => {
  it('names the default account in the UI language, others as they are', () => {
    expect(accountLabel('default', 'ru')).toBe('Основной');
    expect(accountLabel('default', 'en')).toBe('Main');
    expect(accountLabel('shop-42', 'ru')).toBe('shop-42');
  });
});
