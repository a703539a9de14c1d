// Saves a file the core wrote (quote:export) through the browser's download: Electron shows its save
// dialog; the e2e test sees a Playwright download. The object URL outlives the click long enough for it.
import type { ExportedFile } from '../../../../core/desk/contract';
import { base64ToBytes } from '../history/logic';

export function saveExportedFile(file: ExportedFile): void {
  const url = URL.createObjectURL(new Blob([base64ToBytes(file.base64)], { type: file.mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
