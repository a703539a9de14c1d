// Settings (every known setting with its effective value, secrets masked), the app's own facts, and the /v1
// listener's switch, port and bind address.
import { z } from 'zod';
import { NoInput } from './common';

export const SettingView = z.object({
  name: z.string(),
  /** Effective value (stored or default); a secret is masked. */
  value: z.string(),
  default: z.string(),
  /** True when a value other than the default is stored. */
  is_set: z.boolean(),
  secret: z.boolean(),
  doc: z.string(),
});
export type SettingView = z.output<typeof SettingView>;

export const AppInfo = z.object({
  version: z.string(),
  sandbox: z.boolean(),
  dataDir: z.string(),
  language: z.enum(['ru', 'en']),
  theme: z.enum(['system', 'light', 'dark']),
  listenerUrl: z.string().nullable(),
});
export type AppInfo = z.output<typeof AppInfo>;

export const ListenerStatus = z.object({
  enabled: z.boolean(),
  host: z.string(),
  port: z.number(),
  running: z.boolean(),
  url: z.string().nullable(),
});
export type ListenerStatus = z.output<typeof ListenerStatus>;

/**
 * The desktop app never serves /v1 beyond this computer; `npm run serve --allow-remote` is the only way to
 * do that. Same set as isLoopback() in core/settings/loopback.ts, which the operation checks again.
 */
export const LoopbackHost = z
  .string()
  .regex(
    /^(?:localhost|::1|127\.(?:\d{1,3})\.(?:\d{1,3})\.(?:\d{1,3}))$/,
    'the desktop app serves /v1 on this computer only: use 127.0.0.1, localhost or ::1',
  );

/** Ports below 1024 need administrator rights on every desktop OS; 0 lets the system pick a free one. */
export const MIN_LISTENER_PORT = 1024;
export const ListenerPort = z
  .int()
  .max(65_535, 'a port is at most 65535')
  .refine(
    (p) => p === 0 || p >= MIN_LISTENER_PORT,
    'choose a port from 1024 to 65535 (or 0 for any free port)',
  );

const SettingName = z.string().min(1).max(100);

export const settingOperations = {
  'app:info': { input: NoInput, output: AppInfo },
  'settings:get': { input: NoInput, output: z.array(SettingView) },
  'settings:get-one': { input: z.strictObject({ name: SettingName }), output: SettingView },
  /**
   * Stores the canonical form of a valid value (a value equal to the default removes the row). The desk may
   * not set listener.* here: listener:update restarts the listener and refuses non-loopback hosts.
   */
  'settings:set': {
    input: z.strictObject({ name: SettingName, value: z.string().max(10_000) }),
    output: SettingView,
  },
  'settings:reset': { input: z.strictObject({ name: SettingName }), output: SettingView },
  'listener:status': { input: NoInput, output: ListenerStatus },
  'listener:update': {
    input: z.strictObject({
      enabled: z.boolean().optional(),
      port: ListenerPort.optional(),
      host: LoopbackHost.optional(),
    }),
    output: ListenerStatus,
  },
} as const;
