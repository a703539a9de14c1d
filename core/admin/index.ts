// Admin operations, shared by the `admin` CLI and (later) the desktop UI over IPC.
export * from './errors';
export * from './common';
export * from './data-folder';
export * from './accounts';
export * from './keys';
export * from './settings';
export * from './notifications';
