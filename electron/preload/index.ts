// Sandboxed preload (bundled into one CommonJS file by scripts/build-electron.mjs): it may use only
// contextBridge and ipcRenderer. The page gets one function per contract channel as window.ratedesk,
// never ipcRenderer itself (Electron context-isolation.md: "one method per IPC message").
import { contextBridge, ipcRenderer } from 'electron';
import { DESK_API_GLOBAL, type DeskApi } from '../../core/desk/contract';
import { createDeskBridge } from './desk-bridge';

const api = createDeskBridge(ipcRenderer) satisfies DeskApi;
contextBridge.exposeInMainWorld(DESK_API_GLOBAL, api);
