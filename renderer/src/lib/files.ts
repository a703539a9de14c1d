// Files between the page and the core, which exchange them as base64 (IPC and the e2e binding carry text
// safely, and a Uint8Array only through Electron's structured clone): a chosen file's bytes out, a file the
// core made back in (base64.ts, DOM-free), and the download that hands it to the person.
import { base64ToBytes, bytesToBase64 } from './base64';

export { base64ToBytes, bytesToBase64 };

/**
 * Saves a file the core made ({ filename, mime, base64 }) through the browser's download: Electron shows
 * its save dialog, the e2e tests see a Playwright download. The object URL is released once handled.
 */
export function downloadFile(file: { filename: string; mime: string; base64: string }): void {
  const url = URL.createObjectURL(new Blob([base64ToBytes(file.base64)], { type: file.mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
