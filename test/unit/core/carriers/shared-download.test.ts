import { describe, expect, it } from 'vitest';
import { DownloadDropped, dropped, SharedDownload } from '../../../../core/carriers/shared-download';

/** A download that runs until released or until its signal fires (then it settles as dropped or aborted). */
function controllable() {
  const runs: Array<{ signal: AbortSignal; release: (v: string) => void }> = [];
  const shared = new SharedDownload<string>(
    (signal) =>
      new Promise<string>((resolve) => {
        runs.push({ signal, release: resolve });
        signal.addEventListener('abort', () => resolve(dropped(signal) ? 'dropped' : 'aborted'));
      }),
    60_000,
  );
  return { shared, runs };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('SharedDownload', () => {
  it('quotes share one download; a quote that gives up does not stop it', async () => {
    const { shared, runs } = controllable();
    const first = new AbortController();
    const a = shared.join(first.signal);
    const b = shared.join(new AbortController().signal);
    expect(runs).toHaveLength(1);
    first.abort(new Error('quote timeout'));
    await expect(a).rejects.toThrow('quote timeout');
    await turn();
    expect(runs[0]!.signal.aborted).toBe(false);
    runs[0]!.release('list');
    await expect(b).resolves.toBe('list');
    expect(shared.running).toBe(false);
  });

  it("the warm-up's download is dropped when the warm-up stops and no quote joined", async () => {
    const { shared, runs } = controllable();
    const warmUp = new AbortController();
    const waiting = shared.join(warmUp.signal, true);
    warmUp.abort(new Error('warm-up stopped'));
    await expect(waiting).rejects.toThrow('warm-up stopped');
    expect(runs[0]!.signal.aborted).toBe(false); // one turn for the quote that stopped it to join
    await turn();
    expect(runs[0]!.signal.reason).toBeInstanceOf(DownloadDropped);
    expect(dropped(runs[0]!.signal)).toBe(true);
  });

  it('a quote joining in the same turn as the stop keeps the download', async () => {
    const { shared, runs } = controllable();
    const warmUp = new AbortController();
    void shared.join(warmUp.signal, true).catch(() => {});
    warmUp.abort();
    const quote = shared.join(new AbortController().signal);
    await turn();
    await turn();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.signal.aborted).toBe(false);
    runs[0]!.release('list');
    await expect(quote).resolves.toBe('list');
  });

  it('a quote after the drop starts a new download', async () => {
    const { shared, runs } = controllable();
    const warmUp = new AbortController();
    void shared.join(warmUp.signal, true).catch(() => {});
    warmUp.abort();
    await turn();
    const quote = shared.join(new AbortController().signal);
    expect(runs).toHaveLength(2);
    runs[1]!.release('list');
    await expect(quote).resolves.toBe('list');
  });

  it('a background refresh is never dropped', async () => {
    const { shared, runs } = controllable();
    const warmUp = new AbortController();
    void shared.start();
    void shared.join(warmUp.signal, true).catch(() => {});
    warmUp.abort();
    await turn();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.signal.aborted).toBe(false);
  });

  it('a caller already aborted when it joins leaves no unhandled rejection behind when the download fails', async () => {
    const unheard: unknown[] = [];
    const listen = (reason: unknown): void => void unheard.push(reason);
    process.on('unhandledRejection', listen);
    try {
      let fail: (e: Error) => void = () => undefined;
      const shared = new SharedDownload<string>(
        () => new Promise<string>((_, reject) => (fail = reject)),
        60_000,
      );
      const gone = new AbortController();
      gone.abort(new Error('warm-up stopped'));
      await expect(shared.join(gone.signal, true)).rejects.toThrow('warm-up stopped');
      fail(new Error('HTTP 502'));
      await turn();
      await turn();
      expect(unheard).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });
});
