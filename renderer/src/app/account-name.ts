// How an account is named on screen. The account every data folder starts with is called `default` in the
// core, the CLI and the /v1 API; a clerk reads it in the UI language instead («Основной», "Main"; issue #9).
// Other accounts are named by the people who created them, so they are shown as they are.
// The rule and the words are core/contract/account-name.ts, shared with the desktop's native notification.
import { useCallback } from 'react';
import { accountLabel, DEFAULT_ACCOUNT_NAME } from '../../../core/contract/account-name';
import { useLang } from '../i18n';

export { accountLabel };
export const DEFAULT_ACCOUNT = DEFAULT_ACCOUNT_NAME;

export function useAccountLabel(): (name: string) => string {
  const { lang } = useLang();
  return useCallback((name: string) => accountLabel(name, lang), [lang]);
}
