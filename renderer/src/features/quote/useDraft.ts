// The form as typed, kept in localStorage so a half-filled form survives a restart. Numbers follow the UI
// language's decimal separator: after a language switch and on load, "1,2" becomes "1.2" in English and
// back (issue #9); either separator is accepted while typing.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLang } from '../../i18n';
import { readJson, writeJson } from '../../lib/storage';
import { localiseDraft, restoreDraft, type QuoteDraft } from './logic';

const DRAFT_KEY = 'ratedesk.quote.draft';

export interface DraftState {
  draft: QuoteDraft;
  setDraft: (next: QuoteDraft | ((d: QuoteDraft) => QuoteDraft)) => void;
  update: (patch: Partial<QuoteDraft>) => void;
  /** True when no draft was stored (the settings' default carriers may then preselect). */
  fresh: boolean;
}

export function useDraft(): DraftState {
  const { lang } = useLang();
  const stored = useRef(readJson(DRAFT_KEY));
  const [draft, setDraft] = useState<QuoteDraft>(() => localiseDraft(restoreDraft(stored.current), lang));

  useEffect(() => writeJson(DRAFT_KEY, draft), [draft]);
  useEffect(() => setDraft((d) => localiseDraft(d, lang)), [lang]);

  const update = useCallback((patch: Partial<QuoteDraft>) => setDraft((d) => ({ ...d, ...patch })), []);
  return { draft, setDraft, update, fresh: stored.current === null };
}
