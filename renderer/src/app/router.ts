// A hash router for six screens: #/quote, #/history, #/history/42, #/carriers, #/balance, #/settings/keys, #/bulk.
// The hash survives a reload (Electron's app:// page and the test server alike) and needs no server rules.
import { useEffect, useState } from 'react';

export const SCREENS = ['quote', 'history', 'carriers', 'balance', 'settings', 'bulk'] as const;
export type Screen = (typeof SCREENS)[number];

export interface Route {
  screen: Screen;
  /** The rest of the path: ['42'] for #/history/42, ['keys'] for #/settings/keys. */
  params: string[];
}

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const first = parts[0];
  const screen = (SCREENS as readonly string[]).includes(first ?? '') ? (first as Screen) : 'quote';
  return { screen, params: screen === first ? parts.slice(1) : [] };
}

export function hrefFor(screen: Screen, ...params: (string | number)[]): string {
  return `#/${[screen, ...params.map((p) => encodeURIComponent(String(p)))].join('/')}`;
}

export function navigate(screen: Screen, ...params: (string | number)[]): void {
  const href = hrefFor(screen, ...params);
  if (location.hash !== href) location.hash = href;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = (): void => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
