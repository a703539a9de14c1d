// The one wrapper every transport runs a desk call through (Electron's ipcMain wrapper after its sender
// check, the e2e harness's page binding): unknown channel → forbidden, contract parse → invalid, call,
// expected failures keep their code, anything else becomes a bare 'internal' so no stack or SQL text
// ever reaches the page (design.md "IPC": no raw errors cross).
import { describeIssues, isAdminError } from '../admin/errors';
import type { Logger } from '../util/logger';
import { deskChannels, isDeskChannel, type DeskError, type DeskResult } from './contract';
import type { DeskHandlers } from './context';
import { DeskFailure } from './errors';

export interface DispatchOptions {
  logger?: Logger;
}

export async function dispatchDesk(
  handlers: DeskHandlers,
  channel: string,
  raw: unknown,
  options: DispatchOptions = {},
): Promise<DeskResult<unknown>> {
  if (!isDeskChannel(channel)) return fail({ code: 'forbidden', message: 'Unknown desk channel.' });
  const parsed = deskChannels[channel].input.safeParse(raw);
  if (!parsed.success) return fail({ code: 'invalid', message: describeIssues(parsed.error) });
  // A correlated union TypeScript cannot follow: the handler of `channel` takes the parse of `channel`.
  const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
  try {
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    if (isAdminError(error) || error instanceof DeskFailure) {
      return fail({ code: error.code, message: error.message });
    }
    const e = error instanceof Error ? error : new Error(String(error));
    options.logger?.error('desk operation failed', { channel, error: e.message, stack: e.stack });
    return fail({ code: 'internal', message: 'Unexpected error' });
  }
}

function fail(error: DeskError): DeskResult<never> {
  return { ok: false, error };
}
