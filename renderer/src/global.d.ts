import type { DeskApi } from '../../core/desk/contract';

declare global {
  interface Window {
    /** Installed by the Electron preload (contextBridge) or, in the e2e tests, by an init script. */
    readonly ratedesk?: DeskApi;
  }
}

export {};
