// The route of the warm-up's throwaway quote (warm-up.ts): where this desk ships from and to, read off its
// latest quotes. A clerk ships from one warehouse all day, so warming that origin's directories (CDEK's city
// code, Yandex's drop-off point, Dellin's terminal …) is what the next quote profits from; the destination of
// the last quote is the best guess for the next one. Without history: Москва → Санкт-Петербург, the two
// largest towns (every simulator serves them).
import { ALL_TRIGGER_CODES } from '../carriers/sandbox-triggers';
import { normaliseCityName } from '../locations/cities';

export interface WarmUpPlace {
  city: string;
  postal_code: string | null;
}

export interface PastRoute {
  source: 'desk' | 'api';
  from: { city: string; postal_code?: string | null };
  to: { city: string; postal_code?: string | null };
}

export const DEFAULT_WARM_UP_ORIGIN: WarmUpPlace = { city: 'Москва', postal_code: '101000' };
/** In order: the first that is not the origin's town. */
const FALLBACK_DESTINATIONS: readonly WarmUpPlace[] = [
  { city: 'Санкт-Петербург', postal_code: '190000' },
  { city: 'Москва', postal_code: '101000' },
];

/**
 * `recent`: the latest quotes first. The desk's own quotes win over /v1 ones (another tool's routes say less
 * about this desk). A place carrying a sandbox trigger code (a deliberate timeout or failure) is never used:
 * the throwaway quote would only wait for it.
 */
export function warmUpRoute(recent: Iterable<PastRoute>): { from: WarmUpPlace; to: WarmUpPlace } {
  let chosen: PastRoute | undefined;
  for (const route of recent) {
    if (!usable(route.from) || !usable(route.to)) continue;
    if (route.source === 'desk') {
      chosen = route;
      break;
    }
    chosen ??= route;
  }
  const from = chosen ? place(chosen.from) : DEFAULT_WARM_UP_ORIGIN;
  const sameTown = (p: WarmUpPlace): boolean => normaliseCityName(p.city) === normaliseCityName(from.city);
  const to =
    chosen && !sameTown(place(chosen.to))
      ? place(chosen.to)
      : (FALLBACK_DESTINATIONS.find((d) => !sameTown(d)) ?? FALLBACK_DESTINATIONS[0]!);
  return { from, to };
}

function usable(p: PastRoute['from']): boolean {
  return p.city.trim() !== '' && !(p.postal_code && ALL_TRIGGER_CODES.has(p.postal_code));
}

function place(p: PastRoute['from']): WarmUpPlace {
  return { city: p.city, postal_code: p.postal_code ?? null };
}
