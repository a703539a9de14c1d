// The one place that hands a URL to the operating system (eslint bans shell.openExternal elsewhere).
// A URL the OS opens can start any registered handler (file:, smb:, custom app schemes), so only
// parsed http(s) links go out (Electron security checklist #15).
import { shell } from 'electron';
import { isSafeExternalUrl } from './trusted-url';

/** Opens `url` in the user's browser when it is a plain http(s) link; returns whether it was opened. */
export async function openExternal(url: string): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  // Re-serialised from the parser so the OS sees exactly the URL that was checked.
  await shell.openExternal(new URL(url).href);
  return true;
}
