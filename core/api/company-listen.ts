// The company-network mode of the /v1 listener (`serve --listen HOST:PORT`, issue #19): what it needs before it
// binds a network address, which public host names it answers to, and what it believes of a reverse proxy.
// The rules are here once; the CLI (core/cli/listen-options.ts) only turns flags into these options.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { isLoopback } from '../settings/loopback';
import { headerValues } from './headers';
import type { TlsMaterial } from './tls-material';

export interface CompanyListen {
  /** Normalised by parsePublicHost: `name`, `name:port`, `[v6]`, `[v6]:port`, lower case. */
  publicHosts: readonly string[];
  /** Plain HTTP from a TLS-terminating reverse proxy: X-Forwarded-Proto must say https. */
  trustProxy: boolean;
  /** Read and checked at start (tls-material.ts); null: the listener speaks plain HTTP. */
  tls: TlsMaterial | null;
}

export type BindScope = 'loopback' | 'private' | 'unspecified' | 'public';

/** Networks that do not route on the internet: RFC 1918, CGNAT (RFC 6598), link-local, IPv6 ULA. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/** Where a bind address can be reached from. `host` is an IP literal (no brackets) or `localhost`. */
export function bindScope(host: string): BindScope {
  if (isLoopback(host)) return 'loopback';
  const family = isIP(host);
  if (host === '0.0.0.0' || (family === 6 && /^[0:]+$/.test(host))) return 'unspecified';
  if (family === 4 && PRIVATE.check(host, 'ipv4')) return 'private';
  if (family === 6 && PRIVATE.check(host, 'ipv6')) return 'private';
  return 'public';
}

export interface CompanyListenCheck {
  /** Why the listener must not start, in words the operator can act on; null when it may. */
  refusal: string | null;
  warnings: string[];
}

/** The rules of the mode (docs/api.md "The company-network listener"). */
export function checkCompanyListen(host: string, port: number, c: CompanyListen): CompanyListenCheck {
  const scope = bindScope(host);
  const warnings: string[] = [];
  const refuse = (refusal: string): CompanyListenCheck => ({ refusal, warnings });
  if (scope === 'loopback') return { refusal: null, warnings };
  if (!c.tls && !c.trustProxy) {
    return refuse(
      `Refusing to listen on ${host} without TLS: API keys would cross the network in plain text. ` +
        'Give --tls-cert FILE --tls-key FILE, or put a TLS-terminating reverse proxy in front and pass --trust-proxy.',
    );
  }
  if (c.publicHosts.length === 0) {
    return refuse(
      `Listening on ${host} needs the host names clients use to reach this service: ` +
        '--public-host NAME (repeatable) or RATEDESK_PUBLIC_HOSTS=name1,name2. ' +
        'A request naming any other host is refused (403 invalid_host), which stops DNS-rebinding attacks.',
    );
  }
  if (c.trustProxy && !c.tls) {
    // Whoever reaches the port directly can claim X-Forwarded-Proto: https and send a key in plain text.
    if (scope === 'public') {
      return refuse(
        `Refusing --trust-proxy on the public address ${host}: clients could bypass the proxy and send ` +
          'their keys in plain text. Bind the private or loopback address the proxy connects to, or use ' +
          '--tls-cert/--tls-key.',
      );
    }
    warnings.push(
      `--trust-proxy on ${host}:${port}: only the reverse proxy should reach this port ` +
        '(a firewall rule or a private container network); the listener cannot tell it from other clients.',
    );
  }
  return { refusal: null, warnings };
}

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const PORT = /^[1-9][0-9]{0,4}$/;

/**
 * One public host name as given to --public-host or RATEDESK_PUBLIC_HOSTS: a DNS name, an IPv4 address or a
 * bracketed IPv6 address, optionally with `:port`; lower-cased. Throws with a message naming the value.
 */
export function parsePublicHost(text: string): string {
  const value = text.trim().toLowerCase();
  const bad = (why: string): Error =>
    new Error(`Public host "${text}" ${why}. Give a name like rates.example.com or rates.example.com:8443.`);
  // A scheme, path, user, wildcard or space: a URL or a pattern where a name was wanted.
  if (!/^[a-z0-9.:[\]-]+$/.test(value)) throw bad('is not a host name');
  let name: string;
  let port: string | undefined;
  const v6 = /^\[([^\]]*)\](?::(.*))?$/.exec(value);
  if (v6) {
    name = v6[1]!;
    port = v6[2];
    if (isIP(name) !== 6) throw bad('is not a valid bracketed IPv6 address');
  } else {
    const colon = value.indexOf(':');
    name = colon === -1 ? value : value.slice(0, colon);
    port = colon === -1 ? undefined : value.slice(colon + 1);
    // An IPv4 address passes the name pattern too; a trailing dot or an empty label does not.
    if (!HOST_NAME.test(name)) throw bad('is not a host name');
    if (/^[0-9.]+$/.test(name) && isIP(name) !== 4) throw bad('is not a valid IPv4 address');
  }
  if (port !== undefined && (!PORT.test(port) || Number(port) > 65535)) {
    throw bad('has an invalid port (1 to 65535)');
  }
  return value;
}

/** A parsePublicHost value → its name (brackets kept for IPv6) and its port, if given. */
export function splitHostPort(entry: string): { name: string; port: string | undefined } {
  const at = entry.startsWith('[') ? entry.indexOf(']') + 1 : entry.indexOf(':');
  if (at <= 0 || at >= entry.length) return { name: entry, port: undefined };
  return { name: entry.slice(0, at), port: entry.slice(at + 1) };
}

/** X-Forwarded-Proto, one header saying https: the client reached the proxy over TLS. */
export function forwardedOverHttps(req: IncomingMessage): boolean {
  const values = headerValues(req, 'x-forwarded-proto');
  return values?.length === 1 && values[0]!.trim().toLowerCase() === 'https';
}
