// The one wrapper every transport runs a desk call through (Electron's ipcMain wrapper after its sender
// check, the e2e harness's page binding, the company server's desk gateway with a context per request):
// unknown channel → forbidden, a company desk user's role or a desk-local operation → forbidden before
// anything of the input is read (#20), the operation's own parse → invalid,
// expected failures keep their code, anything else becomes a bare 'internal' so no stack or SQL text ever
// reaches the page (design.md "IPC": no raw errors cross).
import { isOperationError, OPERATIONS, type ServiceContext } from '../operations';
import type { Actor } from '../operations/context';
import { invokeOperation, type OperationTable } from '../operations/define';
import { StoreBusyError } from '../store/port';
import type { Logger } from '../util/logger';
import {
  isDeskChannel,
  isDeskLocalOperation,
  roleAllows,
  type DeskChannel,
  type DeskError,
  type DeskResult,
} from './contract';

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
  const refused = roleRefusal(ctx.actor, channel);
  if (refused) return fail({ code: 'forbidden', message: refused });
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

/**
 * Why a company desk's user may not run `channel`, or null. Only a call with a role (a user signed in
 * through the gateway) is checked: this computer's desk and the CLI may run everything. A desk-local
 * operation (the desk's own company link, its /v1 listener) is never run by a company server for anyone.
 */
export function roleRefusal(actor: Actor | undefined, channel: DeskChannel): string | null {
  if (actor?.role === undefined) return null;
  if (isDeskLocalOperation(channel))
    return `${channel} is answered by the desk itself, never by the company server.`;
  if (!roleAllows(actor.role, channel))
    return `A ${actor.role} may not run ${channel}: an admin of the company server can.`;
  return null;
}

function fail(error: DeskError): DeskResult<never> {
  return { ok: false, error };
}
