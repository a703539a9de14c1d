// The Electron main process: one instance, the rating core running here on the user's data folder, the
// renderer served from app://ratedesk/, every desk operation reachable only through the IPC wrapper.
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Notification, safeStorage, session } from 'electron';
import type { DeskEventPayload } from '../../core/desk/contract';
import { createDeskRouter } from '../../core/desk/router';
import type { RatingService } from '../../core/service';
import { consoleLogger, type Logger } from '../../core/util/logger';
import { appLayout, dataFolder, PRODUCT_NAME } from './app-paths';
import { keychainSecrets } from './credentials';
import { pushTo, registerDeskIpc } from './ipc';
import { ABI_HELP, findNativeBinding, isAbiMismatch } from './native-sqlite';
import { lowBalanceFromDesk, lowBalanceNotifier } from './notifications';
import { registerAppScheme, serveRenderer } from './protocol';
import { startRatingService } from './rating-service';
import { denyPermissions, installSecurityGuards } from './security';
import { APP_ENTRY_URL } from './trusted-url';
import { createMainWindow } from './windows';

// Before anything asks for a path: in development the app would otherwise be called "ratedesk" (package.json
// name) and keep its data in a different folder from the packaged app and from `npm run serve`.
app.setName(PRODUCT_NAME);
const dataDir = dataFolder(process.env, app.getPath('appData'));
app.setPath('userData', dataDir);
app.setAppLogsPath(join(dataDir, 'logs'));

registerAppScheme();
installSecurityGuards(app);

let service: RatingService | null = null;
let mainWindow: BrowserWindow | null = null;
const disposers: Array<() => void> = [];

function fileLogger(): Logger {
  const dir = app.getPath('logs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return consoleLogger(createWriteStream(join(dir, 'main.log'), { flags: 'a', mode: 0o600 }));
}

function showWindow(): void {
  if (!mainWindow || mainWindow.isDestroyed()) {
    if (service) openWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function openWindow(): void {
  const layout = appLayout(app.getAppPath());
  mainWindow = createMainWindow({ preload: layout.preload, url: APP_ENTRY_URL, icon: layout.icon });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
}

async function start(logger: Logger): Promise<void> {
  denyPermissions(session.defaultSession);
  const layout = appLayout(app.getAppPath());
  serveRenderer(session.defaultSession, layout.rendererRoot);

  const nativeBinding = findNativeBinding({
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
    isPackaged: app.isPackaged,
  });
  const secrets = keychainSecrets(safeStorage, process.platform, logger);
  logger.info('carrier secrets', { encrypted: secrets.encrypting });
  const started = await startRatingService({
    dataDir,
    logger,
    secrets,
    appVersion: app.getVersion(),
    // The desk may join a company server (#20): its link resumes a stored one at start.
    companyDesk: true,
    ...(nativeBinding ? { open: { nativeBinding } } : {}),
  });
  service = started.service;
  const running = service;

  // The core gives the desk whole: one dispatch for every operation, one subscription for every event. The
  // router sends them to the local service or, in company mode, to the company server (core/desk/router.ts).
  const router = createDeskRouter(running.desk, running.company!);
  disposers.push(() => router.close());
  disposers.push(registerDeskIpc(ipcMain, (channel, raw) => router.dispatch(channel, raw)));
  disposers.push(router.subscribe(pushTo(() => mainWindow?.webContents ?? null)));

  const notify = lowBalanceNotifier({
    notifications: { isSupported: () => Notification.isSupported(), create: (o) => new Notification(o) },
    language: () => (running.settings.get('ui.language') === 'en' ? 'en' : 'ru'),
    onClick: showWindow,
  });
  // From the router's balance:low, so that a company server's low balance is notified too (#20).
  disposers.push(
    router.subscribe((event, payload) => {
      if (event === 'balance:low') notify(lowBalanceFromDesk(payload as DeskEventPayload<'balance:low'>));
    }),
  );

  openWindow();
  if (started.listenerError) {
    void dialog.showMessageBox({
      type: 'warning',
      title: PRODUCT_NAME,
      message: 'The local /v1 API is not running',
      detail: `${started.listenerError}\n\nEverything in the window works without it. To serve /v1, choose another port under Settings → Listener; it starts at once.`,
    });
  }
}

async function fail(error: unknown, logger: Logger): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  logger.error('start-up failed', { error: message });
  dialog.showErrorBox(
    `${PRODUCT_NAME} could not start`,
    isAbiMismatch(error) ? `${message}\n\n${ABI_HELP}` : message,
  );
  // A core that did start (the failure came later) still releases its folder lock.
  const running = service;
  service = null;
  await running?.close().catch(() => undefined);
  app.exit(1);
}

if (!app.requestSingleInstanceLock()) {
  // The first instance owns the data folder and the listener port; it gets focused instead.
  app.quit();
} else {
  app.on('second-instance', showWindow);
  const logger = fileLogger();
  app.whenReady().then(
    () => start(logger).catch((error: unknown) => fail(error, logger)),
    (error: unknown) => fail(error, logger),
  );

  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open brings one back.
    if (service && BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed || !service) return;
    // Flush pending commits, stop the listener and release the folder lock before the process ends.
    event.preventDefault();
    const running = service;
    service = null;
    for (const dispose of disposers.splice(0)) dispose();
    running
      .close()
      .catch((error: unknown) => logger.error('close failed', { error: String(error) }))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}
