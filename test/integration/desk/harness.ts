// A real rating service on a temp folder with the desk handlers on top, called the way every transport
// calls them (dispatchDesk), recording the events the desk pushes. The listener is configured through
// settings (port 0), not the CLI override, so listener:update can move it like in the app.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openDataFolder } from '../../../core/store/data-folder';
import {
  deskChannels,
  type DeskChannel,
  type DeskEvent,
  type DeskEventPayload,
  type DeskInput,
  type DeskOutput,
  type DeskResult,
} from '../../../core/desk/contract';
import { createRatingService, type RatingService } from '../../../core/service';
import type { Logger } from '../../../core/util/logger';

export interface RecordedEvent {
  event: DeskEvent;
  payload: unknown;
}

export interface DeskHarness {
  service: RatingService;
  dir: string;
  events: RecordedEvent[];
  logged: Array<{ message: string; fields?: Record<string, unknown> }>;
  /** Raw dispatch: any channel name, any input. */
  raw(channel: string, input: unknown): Promise<DeskResult<unknown>>;
  /** A call expected to succeed; its value is checked against the contract's output schema. */
  ok<C extends DeskChannel>(channel: C, input?: DeskInput<C>): Promise<DeskOutput<C>>;
  /** A call expected to fail; returns the error. */
  fail(channel: string, input: unknown): Promise<{ code: string; message: string }>;
  eventsOf<E extends DeskEvent>(event: E): Array<DeskEventPayload<E>>;
  port(): number;
  close(): Promise<void>;
}

export async function startDesk(settings: Record<string, string> = {}): Promise<DeskHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-desk-'));
  const store = openDataFolder(dir);
  await store.settings.write(
    Object.entries({ 'listener.port': '0', ...settings }).map(([name, value]) => ({ name, value })),
    new Date().toISOString(),
  );
  await store.close();
  const logged: DeskHarness['logged'] = [];
  const logger: Logger = {
    info() {},
    warn() {},
    error: (message, fields) => {
      logged.push(fields ? { message, fields } : { message });
    },
  };
  const service = await createRatingService({ dataDir: dir, logger, appVersion: '9.9.9-test' });
  const events: RecordedEvent[] = [];
  const emit = (event: DeskEvent, payload: unknown): void => {
    // What crosses a real transport is structured-cloned / JSON: prove every payload survives that.
    events.push({ event, payload: JSON.parse(JSON.stringify(payload)) });
  };
  const detach = service.desk.subscribe(emit);
  const raw = (channel: string, input: unknown) => service.desk.dispatch(channel, input);

  return {
    service,
    dir,
    events,
    logged,
    raw,
    async ok(channel, input) {
      const r = await raw(channel, input);
      if (!r.ok) throw new Error(`${channel} failed: ${r.error.code}: ${r.error.message}`);
      const parsed = deskChannels[channel].output.safeParse(r.value);
      expect(parsed.error?.issues ?? [], `${channel} output matches the contract`).toEqual([]);
      return r.value as DeskOutput<typeof channel>;
    },
    async fail(channel, input) {
      const r = await raw(channel, input);
      if (r.ok) throw new Error(`${channel} unexpectedly succeeded: ${JSON.stringify(r.value)}`);
      return r.error;
    },
    eventsOf: <E extends DeskEvent>(event: E) =>
      events.filter((e) => e.event === event).map((e) => e.payload as DeskEventPayload<E>),
    port: () => {
      const l = service.listener;
      if (!l) throw new Error('listener not running');
      return l.port;
    },
    async close() {
      detach();
      await service.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const SHIPMENT = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
};
