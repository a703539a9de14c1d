// What every desk handler module receives: the running service and what the host (Electron main, the e2e
// harness) provides. Handlers get narrow parameters, never Electron objects (aesthetics.md §8.3 rule 2).
import type { WallClock } from '../admin/common';
import type { RatingService } from '../service';
import type { QuoteRow } from '../store/quotes';
import type { DeskChannel, DeskEvent, DeskEventPayload, DeskOutput, DeskParsedInput } from './contract';

export interface DeskHost {
  /** Pushes an event to the UI (Electron: webContents.send; e2e: the page binding). */
  emit<E extends DeskEvent>(event: E, payload: DeskEventPayload<E>): void;
  appVersion: string;
  dataDir: string;
}

export interface DeskContext {
  service: RatingService;
  host: DeskHost;
  /** The service's wall clock, in the shape core/admin operations take. */
  clock: WallClock;
  /** History search, newest first. */
  searchQuotes: (text: string, limit: number, offset: number) => QuoteRow[];
}

/** Handlers receive input already parsed by the contract (defaults filled in). */
export type DeskHandlers = {
  [C in DeskChannel]: (input: DeskParsedInput<C>) => Promise<DeskOutput<C>>;
};

export type HandlersOf<C extends DeskChannel> = Pick<DeskHandlers, C>;
