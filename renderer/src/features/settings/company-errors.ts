// A failed company:* call as a sentence in the UI language: the link's refusals in company words
// (company-logic.ts), anything else in the shared wording of api/client.ts.
import { useCallback } from 'react';
import { DeskCallError, errorMessage } from '../../api/client';
import { useLang, useT } from '../../i18n';
import { companyErrorKey } from './company-logic';

export function useExplainCompany(): (err: unknown) => string {
  const t = useT('company');
  const { lang } = useLang();
  return useCallback(
    (err: unknown) => {
      const key = err instanceof DeskCallError ? companyErrorKey(err.code, err.detail) : null;
      return key ? t(key) : errorMessage(err, lang);
    },
    [t, lang],
  );
}
