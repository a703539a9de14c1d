// The one wrapper every transport runs a desk call through (Electron's ipcMain wrapper after its sender
// check, the e2e harness's page binding): unknown channel → forbidden, the operation's own parse → invalid,
// expected failures keep their code, anything else becomes a bare 'internal' so no stack or SQL text ever
// reaches the page (design.md "IPC": no raw errors cross).
import { isOperationError, OPERATIONS, type ServiceContext } from '../operations';
import { invokeOperation, type OperationTable } from '../operations/define';
import { StoreBusyError } from '../store/port';
import type { Logger } from '../util/logger';
import { isDeskChannel, type DeskError, type DeskResult } from './contract';

/** What the page is told when the data file stayed locked (the UI words `busy` itself). */
export const BUSY_MESSAGE =
  'The data file is busy: another program (an admin command or import) is writing to it. Try again.';

export async function dispatchDesk(
  ctx: ServiceContext,
  channel: string,
  raw: unknown,
  logger?: Logger,
  /** Tests swap in failing operations; every host runs the one table. */
  table: OperationTable = OPERATIONS,
): Promise<DeskResult<unknown>> {
  if (!isDeskChannel(channel)) return fail({ code: 'forbidden', message: 'Unknown desk channel.' });
  try {
    // A write that meets a lock held elsewhere is retried by the store itself, off the event loop (so the
    // window and the listener keep going), up to its bound; past it the desk hears "busy".
    const value = await invokeOperation(table, channel, raw, ctx);
    return { ok: true, value };
  } catch (error) {
    if (isOperationError(error)) return fail({ code: error.code, message: error.message });
    if (error instanceof StoreBusyError) return fail({ code: 'busy', message: BUSY_MESSAGE });
    const e = error instanceof Error ? error : new Error(String(error));
    logger?.error('desk operation failed', { channel, error: e.message, stack: e.stack });
    return fail({ code: 'internal', message: 'Unexpected error' });
  }
}

function fail(error: DeskError): DeskResult<never> {
  return { ok: false, error };
}
