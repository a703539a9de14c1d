// The gateway's event streams (text/event-stream), one per desk connection. Balance and carrier events go to
// every stream; a quote's progress only to the streams of the device whose call it belongs to. Every
// SSE_KEEPALIVE_MS a comment line keeps the stream open through proxies, and each stream's device is looked
// up again, so a revoked device or a disabled user stops hearing events within that time.
import type { ServerResponse } from 'node:http';
import type { DeviceAuthRow } from '../../store/port';
import type { Logger } from '../../util/logger';
import { SSE_KEEPALIVE_MS, sseFrame } from '../wire';

/** A stream that cannot keep up (its socket buffer past this) is ended; the desk reconnects. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

interface Stream {
  res: ServerResponse;
  device: DeviceAuthRow;
  /** The SHA-256 of its token (never the token), to look the device up again. */
  tokenDigest: string;
}

export class EventStreams {
  private readonly streams = new Set<Stream>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    /** Whether the device still may listen (its token not revoked, its user enabled). */
    private readonly stillAllowed: (tokenDigest: string) => Promise<boolean>,
    private readonly logger: Logger,
    keepAliveMs = SSE_KEEPALIVE_MS,
  ) {
    this.timer = setInterval(() => void this.keepAlive(), keepAliveMs);
    this.timer.unref();
  }

  get size(): number {
    return this.streams.size;
  }

  /** Answers the request with a stream that stays open until the desk or the server closes it. */
  open(res: ServerResponse, headers: string[], device: DeviceAuthRow, tokenDigest: string): void {
    headers.push(
      'Content-Type',
      'text/event-stream; charset=utf-8',
      // A buffering proxy (nginx) would hold events back; this asks it not to.
      'X-Accel-Buffering',
      'no',
    );
    res.writeHead(200, headers);
    // The first bytes tell the desk at once that it is connected (it shows "online" from here).
    res.write(': connected\n\n');
    const stream: Stream = { res, device, tokenDigest };
    this.streams.add(stream);
    res.once('close', () => this.streams.delete(stream));
  }

  broadcast(event: string, payload: unknown): void {
    const frame = sseFrame(event, payload);
    for (const stream of this.streams) this.write(stream, frame);
  }

  toDevice(deviceId: string, event: string, payload: unknown): void {
    const frame = sseFrame(event, payload);
    for (const stream of this.streams) if (stream.device.device_id === deviceId) this.write(stream, frame);
  }

  close(): void {
    clearInterval(this.timer);
    for (const stream of this.streams) stream.res.end();
    this.streams.clear();
  }

  private write(stream: Stream, frame: string): void {
    const { res } = stream;
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      this.logger.warn('desk event stream too slow: closed', { device: stream.device.device_id });
      res.destroy();
      this.streams.delete(stream);
      return;
    }
    res.write(frame);
  }

  private async keepAlive(): Promise<void> {
    const checked = new Map<string, Promise<boolean>>();
    for (const stream of [...this.streams]) {
      const id = stream.tokenDigest;
      let allowed = checked.get(id);
      if (!allowed) {
        // A store that cannot answer now keeps the stream: the next round asks again.
        allowed = this.stillAllowed(id).catch(() => true);
        checked.set(id, allowed);
      }
      if (await allowed) this.write(stream, ': keep-alive\n\n');
      else {
        stream.res.end();
        this.streams.delete(stream);
      }
    }
  }
}
