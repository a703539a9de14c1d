// Where the desktop app finds its pieces and keeps its data. Pure, so a test can pin the layout that
// scripts/build-electron.mjs, vite.config.ts and build/electron-builder.yml all agree on.
import { join, resolve } from 'node:path';

export const PRODUCT_NAME = 'RateDesk';

export interface AppLayout {
  /** dist/electron/preload.cjs */
  preload: string;
  /** dist/renderer: served on app://ratedesk/ */
  rendererRoot: string;
  /** The window icon on Linux (Windows and macOS take it from the executable). */
  icon: string;
}

/** `appPath` is app.getAppPath(): the project folder in development, …/resources/app.asar when packaged. */
export function appLayout(appPath: string): AppLayout {
  return {
    preload: join(appPath, 'dist', 'electron', 'preload.cjs'),
    rendererRoot: join(appPath, 'dist', 'renderer'),
    icon: join(appPath, 'dist', 'electron', 'icon.png'),
  };
}

/**
 * The data folder: RATEDESK_DATA_DIR when set (tests, portable installs), else Electron's userData, which
 * index.ts pins to <appData>/RateDesk: the folder `npm run serve` and `npm run admin` use by default
 * (core/admin/data-folder.ts defaultDataDir), so all three share one data file.
 */
export function dataFolder(env: Readonly<Record<string, string | undefined>>, appData: string): string {
  const override = env.RATEDESK_DATA_DIR;
  return override ? resolve(override) : join(appData, PRODUCT_NAME);
}
