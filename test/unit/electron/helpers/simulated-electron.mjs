// Runs the BUILT dist/electron/main.cjs in plain Node with a simulated `electron` module, since this machine
// has no Electron binary. Everything above the Electron API is real: the bundle, the core on a temp data
// folder, the app:// handler, the IPC wrapper and the desk handlers. Prints one JSON report on stdout.
// Usage: RATEDESK_DATA_DIR=<tmp> node simulated-electron.mjs <project root>
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/* global Request -- a web-standard global in Node 20, missing from the lint config's short list */
// main.cjs is CommonJS: it is loaded, and `electron` is planted, through the CommonJS loader.
const require = createRequire(import.meta.url);

const root = process.argv[2];
const record = { schemes: [], windows: [], sent: [], dialogs: [], permissionHandlers: 0, opened: [] };
const ipcHandlers = new Map();
let protocolHandler = null;
const appData = mkdtempSync(join(tmpdir(), 'ratedesk-appdata-'));
const paths = { appData };

class FakeWebContents extends EventEmitter {
  constructor() {
    super();
    this.destroyed = false;
  }
  isDestroyed() {
    return this.destroyed;
  }
  send(channel, payload) {
    record.sent.push([channel, payload]);
  }
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
  }
  getURL() {
    return 'app://ratedesk/index.html';
  }
}

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new FakeWebContents();
    record.windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows() {
    return record.windows;
  }
  loadURL(url) {
    this.url = url;
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  show() {
    this.shown = true;
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  focus() {}
  restore() {}
  setTitle(t) {
    this.title = t;
  }
}

const app = Object.assign(new EventEmitter(), {
  name: 'ratedesk',
  setName(n) {
    this.name = n;
  },
  getPath(name) {
    if (!(name in paths)) throw new Error(`no path ${name}`);
    return paths[name];
  },
  setPath(name, p) {
    paths[name] = p;
  },
  setAppLogsPath(p) {
    paths.logs = p;
  },
  getAppPath: () => root,
  getVersion: () => '0.1.0',
  isPackaged: false,
  requestSingleInstanceLock: () => true,
  whenReady: () => Promise.resolve(),
  quit() {
    const e = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.emit('will-quit', e);
    if (!e.defaultPrevented) record.quitDone = true;
  },
  exit(code) {
    record.exitCode = code;
  },
});

const session = {
  protocol: {
    handle(scheme, handler) {
      protocolHandler = { scheme, handler };
    },
  },
  setPermissionRequestHandler() {
    record.permissionHandlers++;
  },
  setPermissionCheckHandler() {
    record.permissionHandlers++;
  },
  setDevicePermissionHandler() {
    record.permissionHandlers++;
  },
};

const electron = {
  app,
  BrowserWindow,
  session: { defaultSession: session },
  protocol: {
    registerSchemesAsPrivileged(schemes) {
      record.schemes.push(...schemes);
    },
  },
  ipcMain: {
    handle(channel, fn) {
      if (ipcHandlers.has(channel)) throw new Error(`second handler for ${channel}`);
      ipcHandlers.set(channel, fn);
    },
    removeHandler(channel) {
      ipcHandlers.delete(channel);
    },
  },
  Notification: Object.assign(
    class {
      on() {}
      show() {}
    },
    { isSupported: () => false },
  ),
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (s) => Buffer.from(`sealed:${s}`),
    decryptString: (b) => b.toString().replace(/^sealed:/, ''),
  },
  dialog: {
    showErrorBox(title, message) {
      record.dialogs.push({ title, message });
    },
    showMessageBox(options) {
      record.dialogs.push(options);
      return Promise.resolve({ response: 0 });
    },
  },
  shell: {
    openExternal(url) {
      record.opened.push(url);
      return Promise.resolve();
    },
  },
};

// Electron defines it for every process; plain Node does not.
process.resourcesPath = join(appData, 'resources');

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'electron' ? 'electron' : resolveFilename.call(this, request, ...rest);
};
require.cache.electron = { id: 'electron', filename: 'electron', loaded: true, exports: electron };

const TOP = { parent: null, url: 'app://ratedesk/index.html' };
const invoke = (channel, input, frame = TOP) =>
  ipcHandlers.get(channel)({ senderFrame: frame, sender: {} }, input);

async function waitFor(predicate, what) {
  for (let i = 0; i < 200; i++) {
    if (predicate()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}; dialogs: ${JSON.stringify(record.dialogs)}`);
}

await (async () => {
  require(join(root, 'dist', 'electron', 'main.cjs'));
  await waitFor(() => record.windows.length > 0, 'the window');
  const win = record.windows[0];
  await waitFor(() => win.shown, 'ready-to-show');

  const page = await protocolHandler.handler(new Request('app://ratedesk/'));
  const traversal = await protocolHandler.handler(new Request('app://ratedesk/..%2f..%2fpackage.json'));
  const info = await invoke('app:info', undefined);
  const forbidden = await invoke('app:info', undefined, { parent: null, url: 'https://evil.example/' });
  const invalid = await invoke('accounts:topup', { account: 'default', requests: 0 });
  const quote = await invoke('quote:run', {
    quoteKey: 'sim',
    shipment: {
      from: { city: 'Москва', postal_code: '101000' },
      to: { city: 'Казань', postal_code: '420000' },
      parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    },
  });
  const secret = await invoke('carriers:update', { code: 'cdek', client_secret: 'simulated-secret-4321' });
  const navigate = {
    defaultPrevented: false,
    url: 'https://example.com/',
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
  win.webContents.emit('will-navigate', navigate, navigate.url);
  const windowOpen = win.webContents.openHandler({ url: 'https://www.cdek.ru/' });

  const channels = [...ipcHandlers.keys()];
  const lockFile = join(process.env.RATEDESK_DATA_DIR, 'serve.lock');
  const lockedWhileRunning = existsSync(lockFile);
  app.quit();
  await waitFor(() => record.quitDone, 'service.close() on quit');

  process.stdout.write(
    JSON.stringify({
      schemes: record.schemes,
      permissionHandlers: record.permissionHandlers,
      protocolScheme: protocolHandler.scheme,
      window: {
        options: win.options,
        url: win.url,
        preloadExists: existsSync(win.options.webPreferences.preload),
      },
      channels,
      channelsAfterQuit: ipcHandlers.size,
      page: { status: page.status, csp: page.headers.get('content-security-policy') },
      traversalStatus: traversal.status,
      info,
      forbidden,
      invalid,
      quote: quote.ok ? { ok: true, sandbox: quote.value.sandbox, rates: quote.value.rates.length } : quote,
      progressEvents: record.sent.filter(([c]) => c === 'quote:progress').length,
      secretMasked: secret.ok ? secret.value.credentials.client_secret_masked : secret,
      navigationBlocked: navigate.defaultPrevented,
      windowOpen,
      opened: record.opened,
      dialogs: record.dialogs,
      userData: paths.userData,
      logs: paths.logs,
      lockedWhileRunning,
      lockReleased: !existsSync(lockFile),
      exitCode: record.exitCode ?? null,
    }),
  );
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
