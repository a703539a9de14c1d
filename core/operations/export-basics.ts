// What every exported file shares: its language (the UI's) and how it writes dates. Apart from the
// spreadsheet writers, so the admin CLI's build (the audit export) does not carry the XLSX writer.
import type { StoreContext } from './context';

export type Language = 'ru' | 'en';

const pad = (n: number): string => String(n).padStart(2, '0');

/** Files are written in the UI's language (the setting the desk shows). */
export async function exportLanguage(ctx: StoreContext): Promise<Language> {
  return (await ctx.store.settings.get('ui.language')) === 'en' ? 'en' : 'ru';
}

/** The date part of a file name: 2025-03-14. */
export const stamp = (d: Date): string => d.toISOString().slice(0, 10);

/** Local time of this computer: the people reading the file think in it, not in UTC. */
export function localDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
