// The listener's test commands (#17 item 9), checked by the rules of the shell each is written for: bash runs
// its own (with curl replaced by a function that prints its arguments); cmd.exe and PowerShell are read by
// small readers written here from their documented rules (cmd: ^ and %VAR%, then the C runtime's
// CommandLineToArgvW; PowerShell: ' and " strings, ` continuation, @{} tables), independent of the builder.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  asciiJson,
  bashQuote,
  cmdArg,
  defaultShell,
  EXAMPLE_SHIPMENT,
  psQuote,
  shellExamples,
} from '../../../../../../renderer/src/features/settings/shell-commands';

const URL_V4 = 'http://127.0.0.1:8787';
const URL_V6 = 'http://[::1]:8787';
const KEY = 'rdk_TestKey123';
/** Every character some shell acts on, and Cyrillic. */
const HOSTILE = {
  from: { city: `Москва 100% & <b> | (x) ^! 'a' "b" \`c\` $HOME %PATH% \\ \\" end\\`, postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
};

// ---------------------------------------------------------------------------------------------------
// bash: the real one
// ---------------------------------------------------------------------------------------------------

function bashArgv(command: string): string[] {
  const script = `curl() { printf '%s\\0' "$@"; }\nexport RATEDESK_API_KEY='${KEY}'\n${command}\n`;
  const out = execFileSync('bash', ['-c', script], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('bash', () => {
  it('balance and rates reach curl as the intended arguments', () => {
    const ex = shellExamples(URL_V4, 'bash');
    expect(bashArgv(ex.balance)).toEqual([
      '-sS',
      '-H',
      `Authorization: Bearer ${KEY}`,
      `${URL_V4}/v1/balance`,
    ]);
    const argv = bashArgv(ex.rates);
    expect(argv.slice(0, -1)).toEqual([
      '-sS',
      '-X',
      'POST',
      `${URL_V4}/v1/rates`,
      '-H',
      `Authorization: Bearer ${KEY}`,
      '-H',
      'Content-Type: application/json',
      '--data-raw',
    ]);
    expect(JSON.parse(argv.at(-1)!)).toEqual(EXAMPLE_SHIPMENT);
    // Readable in bash: the Cyrillic is kept.
    expect(ex.rates).toContain('Москва');
  });

  it('keeps hostile text intact, and turns curl globbing off for an IPv6 host', () => {
    const argv = bashArgv(shellExamples(URL_V6, 'bash', HOSTILE).rates);
    expect(argv[0]).toBe('-sS');
    expect(argv[1]).toBe('-g');
    expect(argv).toContain(`${URL_V6}/v1/rates`);
    expect(JSON.parse(argv.at(-1)!)).toEqual(HOSTILE);
    expect(bashArgv(`curl ${bashQuote("it's")}`)).toEqual(["it's"]);
  });
});

// ---------------------------------------------------------------------------------------------------
// cmd.exe, then the C runtime
// ---------------------------------------------------------------------------------------------------

/**
 * What cmd.exe does to a typed command before starting a program: a ^ at a line's end joins the next line
 * (escaping its first character), %NAME% is replaced from the environment, and outside double quotes ^x
 * means a literal x while & | < > ( ) would be operators (refused here: none may appear unescaped).
 */
function cmdLine(text: string, env: Record<string, string>): string {
  let joined = '';
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (i < lines.length - 1) {
      expect(line.endsWith('^'), `line ${i + 1} continues with ^`).toBe(true);
      joined += line.slice(0, -1);
    } else joined += line;
  });
  const expanded = joined.replace(/%([A-Za-z_][A-Za-z0-9_]*)%/g, (whole, name: string) => env[name] ?? whole);
  let out = '';
  let quoted = false;
  for (let i = 0; i < expanded.length; i++) {
    const c = expanded[i]!;
    if (c === '"') quoted = !quoted;
    if (!quoted && c === '^') {
      out += expanded[++i] ?? '';
      continue;
    }
    if (!quoted && /[&|<>()]/.test(c)) throw new Error(`cmd would act on ${c} at ${i}: ${expanded}`);
    out += c;
  }
  return out;
}

/** CommandLineToArgvW: the program's arguments out of its command line (the program name dropped). */
function msvcrtArgv(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  const n = line.length;
  // The program name: up to the first space (no quotes in ours).
  while (i < n && line[i] !== ' ') i++;
  for (;;) {
    while (i < n && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i >= n) break;
    let arg = '';
    let quoted = false;
    while (i < n && (quoted || (line[i] !== ' ' && line[i] !== '\t'))) {
      if (line[i] === '\\') {
        let slashes = 0;
        while (line[i] === '\\') {
          slashes++;
          i++;
        }
        if (line[i] === '"') {
          arg += '\\'.repeat(Math.floor(slashes / 2));
          if (slashes % 2 === 1) {
            arg += '"';
            i++;
          }
        } else arg += '\\'.repeat(slashes);
        continue;
      }
      if (line[i] === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i += 2;
          continue;
        }
        quoted = !quoted;
        i++;
        continue;
      }
      arg += line[i++];
    }
    args.push(arg);
  }
  return args;
}

const cmdArgv = (command: string): string[] =>
  msvcrtArgv(cmdLine(command, { RATEDESK_API_KEY: KEY, PATH: 'C:\\Windows' }));

describe('cmd.exe with curl.exe', () => {
  it('balance and rates reach curl.exe as the intended arguments', () => {
    const ex = shellExamples(URL_V4, 'cmd');
    expect(ex.balance.startsWith('curl.exe ')).toBe(true);
    expect(cmdArgv(ex.balance)).toEqual([
      '-sS',
      '-H',
      `Authorization: Bearer ${KEY}`,
      `${URL_V4}/v1/balance`,
    ]);
    const argv = cmdArgv(ex.rates);
    expect(argv.slice(0, -1)).toEqual([
      '-sS',
      '-X',
      'POST',
      `${URL_V4}/v1/rates`,
      '-H',
      `Authorization: Bearer ${KEY}`,
      '-H',
      'Content-Type: application/json',
      '--data-raw',
    ]);
    expect(JSON.parse(argv.at(-1)!)).toEqual(EXAMPLE_SHIPMENT);
  });

  it('sends the body in ASCII (the console code page is not UTF-8), hostile text intact', () => {
    const ex = shellExamples(URL_V6, 'cmd', HOSTILE);
    expect(ex.rates).toMatch(/^[\x20-\x7e\n]*$/);
    const argv = cmdArgv(ex.rates);
    expect(argv[1]).toBe('-g');
    expect(JSON.parse(argv.at(-1)!)).toEqual(HOSTILE);
  });

  it('quotes by the C runtime rules, and refuses text cmd.exe itself would act on', () => {
    for (const text of ['plain', 'two words', 'a"b', 'a\\"b', 'ends\\', 'x\\\\"y', '{"a":"b\\\\"}']) {
      expect(msvcrtArgv(`p ${cmdArg(text)}`)).toEqual([text]);
    }
    expect(() => cmdArg('100%')).toThrow();
    expect(() => cmdArg('a & b')).toThrow();
  });
});

// ---------------------------------------------------------------------------------------------------
// PowerShell
// ---------------------------------------------------------------------------------------------------

type PsValue = string | Record<string, string>;

/**
 * Reads the subset of PowerShell the commands use: a command name, -Parameter value pairs, '…' literal
 * strings ('' is one quote), "…" strings with $env:NAME expanded, @{ Name = "…" } tables, a ` at a line's
 * very end (nothing after it) continuing the line, and a | before a line break continuing the pipeline.
 */
function psCommand(
  text: string,
  env: Record<string, string>,
): { name: string; params: Record<string, PsValue>; pipe: string } {
  const lines = text.split('\n');
  let joined = '';
  lines.forEach((line, i) => {
    if (i === lines.length - 1) joined += line;
    else if (line.endsWith('`')) joined += line.slice(0, -1);
    else if (line.endsWith('|')) joined += line;
    else throw new Error(`line ${i + 1} neither continues nor ends the command: ${JSON.stringify(line)}`);
  });
  let i = 0;
  const skip = (): void => {
    while (joined[i] === ' ') i++;
  };
  const single = (): string => {
    let out = '';
    i++;
    for (;;) {
      const c = joined[i++];
      if (c === undefined) throw new Error('unterminated single-quoted string');
      if ("'\u2018\u2019\u201a\u201b".includes(c)) {
        const next = joined[i];
        if (next !== undefined && "'\u2018\u2019\u201a\u201b".includes(next)) {
          out += joined[i++];
          continue;
        }
        return out;
      }
      out += c;
    }
  };
  const double = (): string => {
    let out = '';
    i++;
    for (;;) {
      const c = joined[i++];
      if (c === undefined) throw new Error('unterminated double-quoted string');
      if (c === '"') return out;
      if (c === '`') throw new Error('escapes are not expected in our double-quoted strings');
      if (c === '$') {
        const m = /^env:([A-Za-z_]\w*)/.exec(joined.slice(i));
        if (!m) throw new Error(`unexpected $ at ${i}`);
        out += env[m[1]!] ?? '';
        i += m[0].length;
        continue;
      }
      out += c;
    }
  };
  const word = (): string => {
    const m = /^[^\s'"|@]+/.exec(joined.slice(i));
    if (!m) throw new Error(`unexpected ${joined[i]} at ${i}`);
    i += m[0].length;
    return m[0];
  };
  const value = (): PsValue => {
    skip();
    if (joined[i] === "'") return single();
    if (joined[i] === '"') return double();
    if (joined.startsWith('@{', i)) {
      i += 2;
      const table: Record<string, string> = {};
      for (;;) {
        skip();
        if (joined[i] === '}') {
          i++;
          return table;
        }
        const key = word();
        skip();
        expect(joined[i]).toBe('=');
        i++;
        skip();
        const v = value();
        if (typeof v !== 'string') throw new Error('nested table');
        table[key] = v;
        skip();
        if (joined[i] === ';') i++;
      }
    }
    return word();
  };
  skip();
  const name = word();
  const params: Record<string, PsValue> = {};
  for (;;) {
    skip();
    if (i >= joined.length) return { name, params, pipe: '' };
    if (joined[i] === '|') return { name, params, pipe: joined.slice(i + 1).trim() };
    const p = word();
    expect(p.startsWith('-')).toBe(true);
    params[p.slice(1)] = value();
  }
}

describe('PowerShell with Invoke-RestMethod', () => {
  const env = { RATEDESK_API_KEY: KEY };

  it('balance: the URL and the header with the key from the environment', () => {
    const cmd = psCommand(shellExamples(URL_V4, 'powershell').balance, env);
    expect(cmd).toEqual({
      name: 'Invoke-RestMethod',
      params: { Uri: `${URL_V4}/v1/balance`, Headers: { Authorization: `Bearer ${KEY}` } },
      pipe: '',
    });
  });

  it('rates: POST, JSON, the body in ASCII (Windows PowerShell 5.1 sends strings as ISO-8859-1)', () => {
    const text = shellExamples(URL_V4, 'powershell').rates;
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    const cmd = psCommand(text, env);
    expect(cmd.name).toBe('Invoke-RestMethod');
    expect(cmd.params).toMatchObject({
      Method: 'Post',
      Uri: `${URL_V4}/v1/rates`,
      Headers: { Authorization: `Bearer ${KEY}` },
      ContentType: 'application/json',
    });
    expect(JSON.parse(cmd.params.Body as string)).toEqual(EXAMPLE_SHIPMENT);
    expect(cmd.pipe).toBe('ConvertTo-Json -Depth 8');
  });

  it('keeps hostile text intact, typographic quotes included', () => {
    const cmd = psCommand(shellExamples(URL_V6, 'powershell', HOSTILE).rates, env);
    expect(JSON.parse(cmd.params.Body as string)).toEqual(HOSTILE);
    expect(cmd.params.Uri).toBe(`${URL_V6}/v1/rates`);
    expect(psCommand(`Write-Output -x ${psQuote("it’s a 'test'")}`, env).params.x).toBe("it’s a 'test'");
  });
});

describe('shared', () => {
  it('asciiJson is the same JSON in printable ASCII', () => {
    const text = asciiJson(HOSTILE);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(text).not.toMatch(/[%!^&|<>()'`$]/);
    expect(JSON.parse(text)).toEqual(HOSTILE);
  });

  it('offers PowerShell first on Windows, bash elsewhere', () => {
    expect(defaultShell('Win32')).toBe('powershell');
    expect(defaultShell('MacIntel')).toBe('bash');
    expect(defaultShell('Linux x86_64')).toBe('bash');
  });

  it('tells how to set the variable in each shell', () => {
    expect(shellExamples(URL_V4, 'bash').setKey).toBe('export RATEDESK_API_KEY=…');
    expect(shellExamples(URL_V4, 'powershell').setKey).toBe("$env:RATEDESK_API_KEY = '…'");
    expect(shellExamples(URL_V4, 'cmd').setKey).toBe('set RATEDESK_API_KEY=…');
  });
});
