// The desk operations the UI calls, as one object keyed by channel (design.md "IPC"). Transport-agnostic:
// Electron's main process and the e2e harness both register these through dispatchDesk.
import type { RatingService } from '../service';
import type { DeskContext, DeskHandlers, DeskHost } from './context';
import { accountHandlers } from './handlers/accounts';
import { carrierHandlers } from './handlers/carriers';
import { historyHandlers } from './handlers/history';
import { keyHandlers } from './handlers/keys';
import { listenerHandlers } from './handlers/listener';
import { quoteHandlers } from './handlers/quote';
import { settingsHandlers } from './handlers/settings';

export { dispatchDesk, type DispatchOptions } from './dispatch';
export { attachDeskEvents } from './events';
export { DeskFailure } from './errors';
export type { DeskContext, DeskHandlers, DeskHost } from './context';

export function createDeskHandlers(service: RatingService, host: DeskHost): DeskHandlers {
  const ctx: DeskContext = {
    service,
    host,
    clock: { now: () => service.clock.now() },
    searchQuotes: (text, limit, offset) => service.store.quotes.search(text, limit, offset),
  };
  // The annotation makes a channel without a handler a compile error (the unit test checks the reverse).
  const handlers: DeskHandlers = {
    ...settingsHandlers(ctx),
    ...quoteHandlers(ctx),
    ...historyHandlers(ctx),
    ...carrierHandlers(ctx),
    ...accountHandlers(ctx),
    ...keyHandlers(ctx),
    ...listenerHandlers(ctx),
  };
  return handlers;
}
