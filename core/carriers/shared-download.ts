// One download of a whole directory (Boxberry's city list, 5Post's catalogue), shared by everyone who wants it
// while it runs: the quotes, and the service's warm-up (core/platform/warm-up.ts).
//
// - A quote that joins keeps the download going whatever happens to the quote itself: its timeout must not
//   fail the others, and the next quote wants the result. Each caller stops waiting at its own signal.
// - A download only the warm-up asked for is dropped when the warm-up stops (a real quote started, or the
//   service is closing), unless a quote joined it by then: a quote that does not need this directory must
//   not wait behind its parsing. The decision waits one turn of the event loop, so the quote that stopped the
//   warm-up can join first when it does need it. A quote that comes after the drop starts a new download.
// - A dropped download is nobody's failure: `run` sees `dropped(signal)` and records nothing.

/** The reason a dropped download's signal carries. */
export class DownloadDropped extends Error {
  constructor() {
    super('download dropped: the warm-up that asked for it stopped');
    this.name = 'DownloadDropped';
  }
}

/** Whether `signal` (the one `run` was given) ended because the download was dropped. */
export function dropped(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof DownloadDropped;
}

interface Flight<T> {
  result: Promise<T>;
  drop: AbortController;
  /** A quote joined (or it was started on a quote's behalf): never dropped. */
  forQuote: boolean;
}

export class SharedDownload<T> {
  private flight: Flight<T> | null = null;

  /**
   * `run` does the whole download and records its outcome (unless dropped); it must settle, never hang,
   * once its signal fires. `boundMs`: the download's own time limit, longer than any quote waits.
   */
  constructor(
    private readonly run: (signal: AbortSignal) => Promise<T>,
    private readonly boundMs: number,
  ) {}

  /** Whether a download is running. */
  get running(): boolean {
    return this.flight !== null;
  }

  /**
   * The running download's result (starting one when none runs), for as long as `signal` allows. `ahead`: the
   * warm-up is asking; the download is dropped once `signal` fires unless a quote has joined.
   */
  join(signal: AbortSignal, ahead = false): Promise<T> {
    const flight = this.current();
    if (!ahead) flight.forQuote = true;
    else {
      const maybeDrop = (): void => {
        setImmediate(() => {
          if (!flight.forQuote) flight.drop.abort(new DownloadDropped());
        });
      };
      if (signal.aborted) maybeDrop();
      else signal.addEventListener('abort', maybeDrop, { once: true });
    }
    return untilAborted(flight.result, signal);
  }

  /** Starts (or joins) a download nobody waits for, on a quote's behalf (a background refresh). */
  start(): Promise<T> {
    const flight = this.current();
    flight.forQuote = true;
    return flight.result;
  }

  private current(): Flight<T> {
    if (this.flight && !this.flight.drop.signal.aborted) return this.flight;
    const drop = new AbortController();
    const result = this.run(AbortSignal.any([AbortSignal.timeout(this.boundMs), drop.signal])).finally(() => {
      if (this.flight?.result === result) this.flight = null;
    });
    const flight: Flight<T> = { result, drop, forQuote: false };
    this.flight = flight;
    return flight;
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // Nobody else may wait for the download: its failure must not become an unhandled rejection.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}
