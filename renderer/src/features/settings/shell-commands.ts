// The listener's test commands for the three shells an admin has at hand (#17 item 9): bash (Linux, macOS,
// Git Bash), Windows PowerShell / PowerShell 7 (Invoke-RestMethod), and cmd.exe (curl.exe, shipped with
// Windows 10 and later). Each is quoted by its own shell's rules; the key is always the RATEDESK_API_KEY
// environment variable, never a real key. Pure, unit-tested with a reading of each shell's rules
// (test/unit/renderer/src/features/settings/shell-commands.test.ts; bash itself runs the bash ones).

export type Shell = 'bash' | 'powershell' | 'cmd';
export const SHELLS: readonly Shell[] = ['bash', 'powershell', 'cmd'];

export interface ShellExamples {
  balance: string;
  rates: string;
  /** How to put a key into the variable first (`…` stands for the key). */
  setKey: string;
}

/** The example quote: the route and box of ux.md's quote screen. */
export const EXAMPLE_SHIPMENT = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
} as const;

/**
 * The JSON body in printable ASCII: Cyrillic and every character some shell would act on (% ! ^ & | < > ( )
 * ' ` $) become \uXXXX escapes, which any JSON reader decodes to the same text. Needed twice over: cmd hands
 * arguments to curl.exe in the console's code page (866 or 1251), not UTF-8, and Windows PowerShell 5.1 sends
 * a string body in ISO-8859-1; ASCII survives both. These characters appear only inside JSON strings, where
 * an escape is always allowed.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]|[%!^&|<>()'`$]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** bash: single quotes keep everything literal; a quote inside closes, escapes itself, reopens. */
export function bashQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** PowerShell: single quotes keep everything literal; a quote inside is doubled (typographic ones too). */
export function psQuote(text: string): string {
  return `'${text.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

/**
 * cmd.exe + curl.exe: the argument as the C runtime's command-line parser (CommandLineToArgvW rules) reads it
 * back: in double quotes, a quote inside as \", backslashes doubled only where a quote follows them. cmd
 * itself would still act on & | < > ^ ( ) wherever its own quote state (toggled by every ") is off, and on
 * %VAR% anywhere: the callers pass text free of those (asciiJson, a URL), which cmdArg checks.
 */
export function cmdArg(text: string): string {
  if (/[&|<>^()%!\r\n]/.test(text)) throw new Error(`cmdArg: text cmd.exe would act on: ${text}`);
  if (/^[\w:/.?=@-]+$/.test(text)) return text;
  let out = '"';
  let slashes = 0;
  for (const c of text) {
    if (c === '\\') {
      slashes += 1;
      continue;
    }
    if (c === '"') {
      out += '\\'.repeat(slashes * 2 + 1) + '"';
    } else {
      out += '\\'.repeat(slashes) + c;
    }
    slashes = 0;
  }
  return `${out}${'\\'.repeat(slashes * 2)}"`;
}

/** An IPv6 host ([::1]) would read as a curl URL glob without -g. */
function curlGlobOff(url: string): string[] {
  return url.includes('[') ? ['-g'] : [];
}

/** `shipment`: the body to send (the tests pass hostile text through every shell's quoting). */
export function shellExamples(
  baseUrl: string,
  shell: Shell,
  shipment: unknown = EXAMPLE_SHIPMENT,
): ShellExamples {
  const url = baseUrl.replace(/\/+$/, '');
  // bash passes UTF-8 through as it is, so its body stays readable; the Windows shells get asciiJson.
  const body = shell === 'bash' ? JSON.stringify(shipment) : asciiJson(shipment);
  switch (shell) {
    case 'bash':
      return {
        balance: [
          'curl -sS',
          ...curlGlobOff(url),
          '-H "Authorization: Bearer $RATEDESK_API_KEY"',
          bashQuote(`${url}/v1/balance`),
        ].join(' '),
        rates: [
          ['curl -sS', ...curlGlobOff(url), '-X POST', bashQuote(`${url}/v1/rates`)].join(' '),
          '  -H "Authorization: Bearer $RATEDESK_API_KEY"',
          "  -H 'Content-Type: application/json'",
          `  --data-raw ${bashQuote(body)}`,
        ].join(' \\\n'),
        setKey: 'export RATEDESK_API_KEY=…',
      };
    case 'powershell':
      // A backtick ends each continued line, with nothing after it; the header string is in double quotes
      // so that $env:RATEDESK_API_KEY is read, everything else in single quotes, as written.
      return {
        balance: [
          `Invoke-RestMethod -Uri ${psQuote(`${url}/v1/balance`)}`,
          '  -Headers @{ Authorization = "Bearer $env:RATEDESK_API_KEY" }',
        ].join(' `\n'),
        rates:
          [
            `Invoke-RestMethod -Method Post -Uri ${psQuote(`${url}/v1/rates`)}`,
            '  -Headers @{ Authorization = "Bearer $env:RATEDESK_API_KEY" }',
            "  -ContentType 'application/json'",
            `  -Body ${psQuote(body)}`,
          ].join(' `\n') + ' |\n  ConvertTo-Json -Depth 8',
        setKey: "$env:RATEDESK_API_KEY = '…'",
      };
    case 'cmd':
      // ^ at a line's end continues the command; curl.exe, not the PowerShell alias, is what cmd runs anyway.
      return {
        balance: [
          'curl.exe -sS',
          ...curlGlobOff(url),
          '-H "Authorization: Bearer %RATEDESK_API_KEY%"',
          cmdArg(`${url}/v1/balance`),
        ].join(' '),
        rates: [
          ['curl.exe -sS', ...curlGlobOff(url), '-X POST', cmdArg(`${url}/v1/rates`)].join(' '),
          '  -H "Authorization: Bearer %RATEDESK_API_KEY%"',
          '  -H "Content-Type: application/json"',
          `  --data-raw ${cmdArg(body)}`,
        ].join(' ^\n'),
        setKey: 'set RATEDESK_API_KEY=…',
      };
  }
}

/** The shell offered first: PowerShell on Windows (cmd is a click away), bash elsewhere. */
export function defaultShell(platform: string): Shell {
  return /^win/i.test(platform) ? 'powershell' : 'bash';
}
