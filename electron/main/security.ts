// Guards every web contents the app creates (Electron security checklist #5, #11–#14): no navigation away
// from the renderer, no new windows, no <webview>, and no web permission granted to anyone.
import type { App, Session, WebContents } from 'electron';
import { openExternal } from './open-external';
import { isSafeExternalUrl, isTrustedRendererUrl } from './trusted-url';

interface Preventable {
  preventDefault(): void;
}

function blockUnlessTrusted(event: Preventable, url: string): void {
  if (!isTrustedRendererUrl(url)) event.preventDefault();
}

export function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => blockUnlessTrusted(event, event.url));
  // will-navigate sees only the main frame; a frame the page might create is held to the same rule.
  contents.on('will-frame-navigate', (event) => blockUnlessTrusted(event, event.url));
  contents.on('will-redirect', (event) => blockUnlessTrusted(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // A link with target=_blank is the user's wish to read it: in their browser, never in a window of ours.
    if (isSafeExternalUrl(url)) void openExternal(url).catch(() => undefined);
    return { action: 'deny' };
  });
}

/**
 * Electron grants every permission unless told otherwise. The one exception is writing to the clipboard
 * from our own page: the copy buttons (a new API key's secret, a quote as curl) need it, and a sanitized
 * write reads nothing back.
 */
export function isPermissionAllowed(permission: string, requestingUrl: string): boolean {
  return permission === 'clipboard-sanitized-write' && isTrustedRendererUrl(requestingUrl);
}

export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((contents, permission, callback) => {
    callback(isPermissionAllowed(permission, contents.getURL()));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin),
  );
  session.setDevicePermissionHandler(() => false);
}

/** Call once, before the first window. */
export function installSecurityGuards(app: App): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
}
