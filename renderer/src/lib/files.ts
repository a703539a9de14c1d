// Files between the page and the core, which exchange them as base64 (IPC and the e2e binding carry text
// safely, and a Uint8Array only through Electron's structured clone): a chosen file's bytes out, a file the
// core made back in, and the download that hands it to the person.

/** Bytes as base64, in slices: a 10 MB file spread into one String.fromCharCode call would overflow the stack. */
export function bytesToBase64(bytes: Uint8Array): string {
  const SLICE = 0x8000;
  let binary = '';
  for (let i = 0; i < bytes.length; i += SLICE) {
    binary += String.fromCharCode(...bytes.subarray(i, i + SLICE));
  }
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

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
