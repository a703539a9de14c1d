// App-wide state other screens may read: app info (sandbox, version, listener URL), the theme, and the
// default account's balance for the footer.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AppInfo } from '../../../core/desk/contract';
import { call, hasDeskApi } from '../api/client';

export type Theme = 'system' | 'light' | 'dark';
const THEME_STORAGE_KEY = 'ratedesk.theme';

export function readStoredTheme(): Theme {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

const darkQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
let current: Theme = 'system';

/** data-scheme is what the CSS reads: the chosen theme, or the OS's for 'system' (kept in step with it). */
function applyScheme(): void {
  const dark = current === 'dark' || (current === 'system' && darkQuery?.matches === true);
  document.documentElement.dataset['scheme'] = dark ? 'dark' : 'light';
}
darkQuery?.addEventListener('change', applyScheme);

/** data-theme records the user's choice ('system' removes it); data-scheme is the resolved one. */
export function applyTheme(theme: Theme): void {
  current = theme;
  if (theme === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = theme;
  applyScheme();
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not fatal: the setting in the core still holds.
  }
}

interface AppState {
  info: AppInfo | null;
  /** Reads app:info again (after switching sandbox/live, changing the listener…). */
  refreshInfo: () => Promise<void>;
  theme: Theme;
  /** Switches the theme now and stores it in settings (ui.theme). */
  setTheme: (theme: Theme) => void;
}

const AppContext = createContext<AppState>({
  info: null,
  refreshInfo: async () => {},
  theme: 'system',
  setTheme: () => {},
});

export function useApp(): AppState {
  return useContext(AppContext);
}

export function AppProvider(props: { children: ReactNode; onInfo?: (info: AppInfo) => void }): ReactNode {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [theme, setThemeState] = useState<Theme>(readStoredTheme);
  const { onInfo } = props;

  const refreshInfo = useCallback(async () => {
    if (!hasDeskApi()) return;
    try {
      const next = await call((api) => api.app.info());
      setInfo(next);
      onInfo?.(next);
    } catch {
      // The shell still works without it (no sandbox badge until the next refresh).
    }
  }, [onInfo]);

  useEffect(() => {
    void refreshInfo();
  }, [refreshInfo]);

  // The core's ui.theme wins at start-up and after every refresh (localStorage only avoids a flash).
  useEffect(() => {
    if (!info) return;
    setThemeState(info.theme);
    applyTheme(info.theme);
  }, [info]);

  const setTheme = useCallback((next: Theme) => {
    setThemeState(next);
    applyTheme(next);
    if (hasDeskApi()) void call((api) => api.settings.set({ name: 'ui.theme', value: next })).catch(() => {});
  }, []);

  const value = useMemo(() => ({ info, refreshInfo, theme, setTheme }), [info, refreshInfo, theme, setTheme]);
  return <AppContext.Provider value={value}>{props.children}</AppContext.Provider>;
}
