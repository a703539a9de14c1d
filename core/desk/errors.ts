// A desk operation's expected failure, for cases core/admin's AdminError has no code for (forbidden) or
// that are not admin operations at all (a port in use). dispatchDesk passes its code and message on as is.
import type { DeskErrorCode } from './contract';

export class DeskFailure extends Error {
  override readonly name = 'DeskFailure';

  constructor(
    readonly code: Exclude<DeskErrorCode, 'internal'>,
    message: string,
  ) {
    super(message);
  }
}
