// The web-contents guards, the permission handlers, the window options and the one openExternal, run
// against stand-ins for Electron's objects (the electron module itself is mocked: no runtime here).
import { EventEmitter } from 'node:events';
import type { App, Session, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const shellOpen = vi.hoisted(() => vi.fn(async (_url: string) => undefined));
/** Records what the window factory asks Electron for. */
const windows = vi.hoisted(() => {
  const made: Array<{ options: Record<string, unknown>; loaded: string[]; shown: boolean }> = [];
  class BrowserWindow {
    readonly record: { options: Record<string, unknown>; loaded: string[]; shown: boolean };
    private readonly handlers = new Map<string, () => void>();
    constructor(options: Record<string, unknown>) {
      this.record = { options, loaded: [], shown: false };
      made.push(this.record);
    }
    once(event: string, handler: () => void): void {
      this.handlers.set(event, handler);
    }
    on(): void {}
    show(): void {
      this.record.shown = true;
    }
    async loadURL(url: string): Promise<void> {
      this.record.loaded.push(url);
      this.handlers.get('ready-to-show')?.();
    }
  }
  return { made, BrowserWindow };
});
vi.mock('electron', () => ({ shell: { openExternal: shellOpen }, BrowserWindow: windows.BrowserWindow }));

const { openExternal } = await import('../../../../electron/main/open-external');
const { denyPermissions, guardWebContents, installSecurityGuards, isPermissionAllowed } =
  await import('../../../../electron/main/security');
const { createMainWindow } = await import('../../../../electron/main/windows');

class FakeEvent {
  defaultPrevented = false;
  constructor(readonly url = '') {}
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler;
  }
}

function guarded(): FakeContents {
  const contents = new FakeContents();
  guardWebContents(contents as unknown as WebContents);
  return contents;
}

function navigate(contents: FakeContents, event: string, url: string): boolean {
  const e = new FakeEvent(url);
  contents.emit(event, e, url);
  return e.defaultPrevented;
}

beforeEach(() => shellOpen.mockClear());

describe('navigation', () => {
  const attempts = [
    'https://example.com/',
    'http://127.0.0.1:8787/v1/carriers',
    'file:///etc/passwd',
    'app://ratedesk.evil/index.html',
    'app://ratedesk@evil/',
    'javascript:alert(1)',
    'data:text/html,hi',
    'about:blank',
  ];

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])('%s: blocks every way out', (event) => {
    const contents = guarded();
    for (const url of attempts) expect(navigate(contents, event, url), url).toBe(true);
  });

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])(
    '%s: lets the app move within itself',
    (event) => {
      const contents = guarded();
      expect(navigate(contents, event, 'app://ratedesk/index.html')).toBe(false);
      expect(navigate(contents, event, 'app://ratedesk/')).toBe(false);
    },
  );

  it('never attaches a <webview>', () => {
    const contents = guarded();
    const e = new FakeEvent();
    contents.emit('will-attach-webview', e, {}, {});
    expect(e.defaultPrevented).toBe(true);
  });
});

describe('new windows', () => {
  it('denies every window; http(s) links go to the browser instead', async () => {
    const contents = guarded();
    expect(contents.openHandler!({ url: 'https://www.cdek.ru/ru/tracking' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(shellOpen).toHaveBeenCalledWith('https://www.cdek.ru/ru/tracking'));
  });

  it.each([
    'file:///etc/passwd',
    'app://ratedesk/index.html',
    'javascript:alert(1)',
    'smb://host/share',
    'about:blank',
  ])('denies %s and opens nothing', async (url) => {
    const contents = guarded();
    expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    await new Promise((r) => setTimeout(r, 5));
    expect(shellOpen).not.toHaveBeenCalled();
  });

  it('guards every web contents the app creates', () => {
    const app = new EventEmitter();
    installSecurityGuards(app as unknown as App);
    const contents = new FakeContents();
    app.emit('web-contents-created', {}, contents);
    expect(contents.openHandler).not.toBeNull();
    expect(contents.listenerCount('will-navigate')).toBe(1);
    expect(contents.listenerCount('will-attach-webview')).toBe(1);
  });
});

describe('openExternal', () => {
  it('opens a parsed http(s) URL and reports it', async () => {
    expect(await openExternal('https://pochta.ru/a b')).toBe(true);
    expect(shellOpen).toHaveBeenCalledWith('https://pochta.ru/a%20b');
  });

  it.each([
    'file:///C:/Windows/System32/calc.exe',
    'ms-msdt:/id PCWDiagnostic',
    'https://bank.ru@evil.example/',
    'nonsense',
    '',
  ])('refuses %s without calling the OS', async (url) => {
    expect(await openExternal(url)).toBe(false);
    expect(shellOpen).not.toHaveBeenCalled();
  });
});

describe('permissions', () => {
  type RequestHandler = (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: unknown,
  ) => void;
  type CheckHandler = (contents: unknown, permission: string, origin: string, details: unknown) => boolean;
  interface Recorded {
    request: RequestHandler | null;
    check: CheckHandler | null;
    device: ((details: unknown) => boolean) | null;
  }
  function session(): Recorded {
    const recorded: Recorded = { request: null, check: null, device: null };
    const fake = {
      setPermissionRequestHandler: (h: RequestHandler) => (recorded.request = h),
      setPermissionCheckHandler: (h: CheckHandler) => (recorded.check = h),
      setDevicePermissionHandler: (h: (details: unknown) => boolean) => (recorded.device = h),
    };
    denyPermissions(fake as unknown as Session);
    return recorded;
  }
  const page = (url: string) => ({ getURL: () => url });

  it.each([
    'media',
    'geolocation',
    'notifications',
    'openExternal',
    'clipboard-read',
    'display-capture',
    'hid',
    'usb',
    'serial',
    'fullscreen',
    'unknown',
  ])('denies %s to our own page too', (permission) => {
    const s = session();
    let granted: boolean | undefined;
    s.request!(page('app://ratedesk/index.html'), permission, (g) => (granted = g), {});
    expect(granted).toBe(false);
    expect(s.check!(page('app://ratedesk/index.html'), permission, 'app://ratedesk', {})).toBe(false);
  });

  it('allows only a sanitized clipboard write, and only to our page (the copy buttons)', () => {
    const s = session();
    let granted: boolean | undefined;
    s.request!(page('app://ratedesk/index.html'), 'clipboard-sanitized-write', (g) => (granted = g), {});
    expect(granted).toBe(true);
    s.request!(page('https://evil.example/'), 'clipboard-sanitized-write', (g) => (granted = g), {});
    expect(granted).toBe(false);
    expect(s.check!(null, 'clipboard-sanitized-write', 'app://ratedesk', {})).toBe(true);
    expect(s.check!(null, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);
    expect(s.device!({})).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://ratedesk.evil')).toBe(false);
  });
});

describe('the window factory', () => {
  it('holds the window to the security checklist and shows it once ready', () => {
    createMainWindow({ preload: '/app/dist/electron/preload.cjs', url: 'app://ratedesk/index.html' });
    const made = windows.made.at(-1)!;
    expect(made.options.webPreferences).toEqual({
      preload: '/app/dist/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(made.options).toMatchObject({ title: 'RateDesk', show: false, minWidth: 1100, minHeight: 720 });
    expect(made.options).not.toHaveProperty('icon');
    expect(made.loaded).toEqual(['app://ratedesk/index.html']);
    expect(made.shown).toBe(true);
  });
});
