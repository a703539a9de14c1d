// A tiny i18n: Russian first, English switchable. Catalogues are registered in ./catalogues.ts.
//
//   const t = useT();                 t('common.nav.quote')            — any namespace, fully typed
//   const t = useT('carriers');       t('title'), t('common.cancel')   — bare keys of one namespace,
//                                                                       `namespace.key` still works
//   const { lang, setLang } = useLang();
//
// A key missing in the current language falls back to Russian, then to the key itself (never blank).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Lang } from '../lib/format';
import * as catalogues from './catalogues';
import { render, type Catalogue, type Message, type Params } from './define';

export { defineMessages, plural, type Params } from './define';
export type { Lang };

type Catalogues = typeof catalogues;
export type Namespace = keyof Catalogues;
type KeysOf<N extends Namespace> = Catalogues[N] extends Catalogue<infer K> ? K : never;
/** Every message key of every namespace, as `namespace.key`. */
export type MessageKey = { [N in Namespace]: `${N}.${KeysOf<N>}` }[Namespace];

export type TFunction = (key: MessageKey, params?: Params) => string;
export type ScopedT<N extends Namespace> = (key: KeysOf<N> | MessageKey, params?: Params) => string;

const LANG_STORAGE_KEY = 'ratedesk.lang';

function lookup(lang: Lang, key: string): Message | undefined {
  const dot = key.indexOf('.');
  if (dot <= 0) return undefined;
  const ns = key.slice(0, dot);
  const name = key.slice(dot + 1);
  if (!Object.hasOwn(catalogues, ns)) return undefined;
  const cat = (catalogues as unknown as Record<string, Catalogue>)[ns]!;
  return Object.hasOwn(cat[lang], name)
    ? cat[lang][name]
    : Object.hasOwn(cat.ru, name)
      ? cat.ru[name]
      : undefined;
}

/** Translates outside React (tests, pure helpers that are handed a language). */
export function translate(lang: Lang, key: MessageKey, params?: Params): string {
  const message = lookup(lang, key);
  return message === undefined ? key : render(message, params);
}

let activeLang: Lang = readStoredLang();

/** The language on screen now, for code outside React (error messages built in api/client.ts). */
export function getActiveLang(): Lang {
  return activeLang;
}

export function readStoredLang(): Lang {
  try {
    const v = globalThis.localStorage?.getItem(LANG_STORAGE_KEY);
    return v === 'en' ? 'en' : 'ru';
  } catch {
    return 'ru';
  }
}

interface LangState {
  lang: Lang;
  /** The user's choice: switches the UI, remembers it locally and calls the provider's onChange. */
  setLang: (lang: Lang) => void;
  /** A language read from settings at start-up: switches the UI without writing it back. */
  applyLang: (lang: Lang) => void;
}

const LangContext = createContext<LangState>({ lang: 'ru', setLang: () => {}, applyLang: () => {} });

export function I18nProvider(props: {
  children: ReactNode;
  /** Called after the user changes the language (the app stores it in settings: ui.language). */
  onChange?: (lang: Lang) => void;
  initial?: Lang;
}): ReactNode {
  const { onChange } = props;
  const [lang, setLangState] = useState<Lang>(props.initial ?? readStoredLang());
  activeLang = lang;
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const setLang = useCallback(
    (next: Lang) => {
      setLangState(next);
      try {
        localStorage.setItem(LANG_STORAGE_KEY, next);
      } catch {
        // Storage full or blocked: the choice still holds for this session and in settings.
      }
      onChange?.(next);
    },
    [onChange],
  );
  const applyLang = useCallback((next: Lang) => {
    setLangState(next);
    try {
      localStorage.setItem(LANG_STORAGE_KEY, next);
    } catch {
      // See above.
    }
  }, []);
  const value = useMemo(() => ({ lang, setLang, applyLang }), [lang, setLang, applyLang]);
  return <LangContext.Provider value={value}>{props.children}</LangContext.Provider>;
}

export function useLang(): LangState {
  return useContext(LangContext);
}

export function useT(): TFunction;
export function useT<N extends Namespace>(namespace: N): ScopedT<N>;
export function useT(namespace?: Namespace): (key: string, params?: Params) => string {
  const { lang } = useContext(LangContext);
  return useCallback(
    (key: string, params?: Params) => {
      const message = (namespace ? lookup(lang, `${namespace}.${key}`) : undefined) ?? lookup(lang, key);
      return message === undefined ? key : render(message, params);
    },
    [lang, namespace],
  );
}
