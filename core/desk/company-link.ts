// The desk's link to its company server (#20): joining (a code traded for this desk's device token over a
// connection that passed the pinned fingerprint or the company CA), the connection state, and leaving. Its
// settings (company.*) live in the desk's own store, the token through the host's SecretStore (the OS
// keychain in Electron); the local data is never touched, so leaving returns to it as it was. Every change
// of state is told as a company:status event.
import { X509Certificate } from 'node:crypto';
import type { CompanyStatus, OperationParsedInput, ServerCertificate } from '../contract/operations';
import type { CompanyLink } from '../operations/context';
import { OperationError } from '../operations/errors';
import type { SettingName } from '../settings/schema';
import type { SettingsStore } from '../store/port';
import type { WallClock } from '../util/clock';
import type { Logger } from '../util/logger';
import type { DeskEvent, DeskResult } from './contract';
import { enrolDesk, normaliseFingerprint, probeServer, RemoteDesk, type ServerTrust } from './remote';

export const LOCAL_STATUS: CompanyStatus = {
  mode: 'local',
  url: null,
  user: null,
  role: null,
  device: null,
  fingerprint: null,
  connection: 'local',
  reason: null,
};

const LINK_SETTINGS = [
  'company.url',
  'company.fingerprint',
  'company.ca_pem',
  'company.token',
  'company.device_name',
  'company.user',
  'company.role',
] as const satisfies readonly SettingName[];

interface Joined {
  url: string;
  trust: ServerTrust;
  token: string;
  user: string;
  role: 'clerk' | 'admin';
  device: string;
}

export interface CompanyLinkOptions {
  /** The desk's own store's settings (never the server's). */
  settings: SettingsStore;
  clock: WallClock;
  logger: Logger;
  /** company:status to the window, on every change. */
  emitStatus(status: CompanyStatus): void;
  /** Tests: a shorter reconnect back-off. */
  retry?: { firstMs: number; maxMs: number };
}

export class DeskCompanyLink implements CompanyLink {
  private joined: Joined | null = null;
  private remote: RemoteDesk | null = null;
  /** Why the stored link cannot be used (a token the keychain cannot open here). */
  private broken: string | null = null;
  private readonly listeners = new Set<(event: DeskEvent, payload: unknown) => void>();

  constructor(private readonly o: CompanyLinkOptions) {}

  /** Company mode: the window's calls go to the server (core/desk/router.ts). */
  get companyMode(): boolean {
    return this.joined !== null || this.broken !== null;
  }

  /** Reads the stored link and connects when the desk had joined (at the host's start). */
  async resume(): Promise<void> {
    const s = await this.o.settings.all();
    const url = s.get('company.url') ?? '';
    if (url === '') return;
    const token = s.get('company.token') ?? '';
    const trust = trustOf(s.get('company.fingerprint') ?? '', s.get('company.ca_pem') ?? '');
    const role = s.get('company.role') === 'admin' ? 'admin' : 'clerk';
    this.joined = {
      url,
      trust: trust ?? { kind: 'pin', fingerprint: '' },
      token,
      user: s.get('company.user') ?? '',
      role,
      device: s.get('company.device_name') ?? '',
    };
    if (token === '' || !trust) {
      // Another OS account, a reset keychain: the token is gone for this desk. It must join again.
      this.broken = 'the device token cannot be read on this computer: leave and join again';
      this.o.logger.warn('company link stored but unusable', { url, reason: this.broken });
      this.o.emitStatus(this.current());
      return;
    }
    this.connect();
  }

  async status(): Promise<CompanyStatus> {
    return this.current();
  }

  async probe(url: string): Promise<ServerCertificate> {
    try {
      return await probeServer(url);
    } catch (error) {
      throw new OperationError('offline', `The server cannot be reached: ${(error as Error).message}`);
    }
  }

  async join(input: OperationParsedInput<'company:join'>): Promise<CompanyStatus> {
    if (this.companyMode)
      throw new OperationError('conflict', 'This desk is already in company mode: leave first.');
    const trust = trustFromInput(input.fingerprint, input.ca_pem);
    const enrolled = await enrolDesk(input.url, trust, input.code, input.device_name);
    if (!enrolled.ok) throw new OperationError(enrolled.code, enrolled.message);
    const { token, user, role } = enrolled.value;
    const values: Record<(typeof LINK_SETTINGS)[number], string> = {
      'company.url': input.url,
      'company.fingerprint': trust.kind === 'pin' ? trust.fingerprint : '',
      'company.ca_pem': trust.kind === 'ca' ? trust.pem : '',
      'company.token': token,
      'company.device_name': input.device_name,
      'company.user': user,
      'company.role': role,
    };
    await this.o.settings.write(
      LINK_SETTINGS.map((name) => ({ name, value: values[name] })),
      this.o.clock.now().toISOString(),
    );
    this.joined = { url: input.url, trust, token, user, role, device: input.device_name };
    this.broken = null;
    this.o.logger.info('joined a company server', {
      url: input.url,
      user,
      role,
      device: enrolled.value.device_id,
    });
    this.connect();
    return this.current();
  }

  async leave(): Promise<CompanyStatus> {
    const remote = this.remote;
    this.remote = null;
    this.joined = null;
    this.broken = null;
    await remote?.close();
    await this.o.settings.write(
      LINK_SETTINGS.map((name) => ({ name, value: null })),
      this.o.clock.now().toISOString(),
    );
    this.o.logger.info('left the company server: back to the local data');
    this.o.emitStatus(LOCAL_STATUS);
    return LOCAL_STATUS;
  }

  /** A call for the company server; `offline` at once while it is away or the link is unusable. */
  dispatch(channel: string, raw: unknown): Promise<DeskResult<unknown>> {
    if (!this.remote) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unauthorized', message: this.broken ?? 'This desk has not joined a company server.' },
      });
    }
    return this.remote.dispatch(channel, raw);
  }

  /** The server's events (balances, carriers, this desk's quote progress). */
  onRemoteEvent(listener: (event: DeskEvent, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    const remote = this.remote;
    this.remote = null;
    await remote?.close();
  }

  private connect(): void {
    const joined = this.joined!;
    const remote: RemoteDesk = new RemoteDesk({
      url: joined.url,
      trust: joined.trust,
      token: joined.token,
      onEvent: (event, payload) => {
        if (this.remote !== remote) return;
        for (const listener of this.listeners) listener(event, payload);
      },
      onConnection: (connection, reason) => {
        if (this.remote !== remote) return;
        if (connection !== 'online') this.o.logger.warn('company server connection', { connection, reason });
        else this.o.logger.info('company server connection', { connection });
        this.o.emitStatus(this.current());
      },
      ...(this.o.retry ? { retry: this.o.retry } : {}),
    });
    this.remote = remote;
    this.o.emitStatus(this.current());
  }

  private current(): CompanyStatus {
    const joined = this.joined;
    if (!joined) return LOCAL_STATUS;
    return {
      mode: 'company',
      url: joined.url,
      user: joined.user,
      role: joined.role,
      device: joined.device,
      fingerprint: joined.trust.kind === 'pin' ? joined.trust.fingerprint : null,
      connection: this.broken ? 'refused' : (this.remote?.connection ?? 'connecting'),
      reason: this.broken ?? this.remote?.reason ?? null,
    };
  }
}

function trustOf(fingerprint: string, caPem: string): ServerTrust | undefined {
  if (caPem !== '') return { kind: 'ca', pem: caPem };
  const pin = normaliseFingerprint(fingerprint);
  return pin ? { kind: 'pin', fingerprint: pin } : undefined;
}

function trustFromInput(fingerprint: string | undefined, caPem: string | undefined): ServerTrust {
  if (caPem !== undefined && caPem.trim() !== '') {
    try {
      new X509Certificate(caPem);
    } catch {
      throw new OperationError('invalid', 'ca_pem: not a PEM certificate.');
    }
    return { kind: 'ca', pem: caPem };
  }
  if (fingerprint !== undefined) {
    const pin = normaliseFingerprint(fingerprint);
    if (!pin)
      throw new OperationError('invalid', 'fingerprint: must be the SHA-256 fingerprint (64 hex digits).');
    return { kind: 'pin', fingerprint: pin };
  }
  throw new OperationError(
    'invalid',
    "Confirm the server certificate's fingerprint (company:probe), or give the company CA file.",
  );
}
