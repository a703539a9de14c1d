/**
 * The core's only way to log. Hosts decide where lines go (stderr for `serve`, a file in Electron).
 * Nothing secret is ever passed here: callers log key ids and masked prefixes, never secrets or bodies.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export function consoleLogger(stream: NodeJS.WritableStream = process.stderr): Logger {
  const line = (level: string, message: string, fields?: Record<string, unknown>): void => {
    const extra = fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
    stream.write(`${new Date().toISOString()} ${level} ${message}${extra}\n`);
  };
  return {
    info: (m, f) => line('info ', m, f),
    warn: (m, f) => line('warn ', m, f),
    error: (m, f) => line('error', m, f),
  };
}
