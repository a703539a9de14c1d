// The app:// scheme that serves the renderer build. A custom scheme instead of file:// gives the page a
// real origin to check IPC senders and navigations against, and keeps file:// (with its extra privileges)
// out of the app entirely (Electron security checklist #18).
import { protocol, type Session } from 'electron';
import { serveRendererRequest } from './renderer-server';
import { APP_SCHEME } from './trusted-url';

/** Must run before app 'ready': Chromium fixes scheme privileges at start-up. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // standard: real origin and relative URLs; secure: treated like https (no mixed-content downgrade).
      // No bypassCSP, no corsEnabled, no stream: the page needs none of them.
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    },
  ]);
}

/** Serves `root` (dist/renderer) on app://ratedesk/ in the given session. */
export function serveRenderer(session: Session, root: string): void {
  session.protocol.handle(APP_SCHEME, (request) => serveRendererRequest(root, request));
}
