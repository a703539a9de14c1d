// The same closed-loop load as load.ts, driven by wrk (Debian's `wrk`) when it is installed: a C client
// leaves more of the 2 cores to the server, which is how research/feasibility.md measured its anchors
// (bare node:http ≈ 58.8k req/s, one fsync per request ≈ 4.4k req/s). Keys rotate through a Lua script.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './load';

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

export interface WrkSpec {
  port: number;
  method: 'GET' | 'POST';
  path: string;
  keys: string[];
  body?: string;
  connections: number;
  durationMs: number;
}

export function runWrk(spec: WrkSpec): LoadResult {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-wrk-'));
  const script = join(dir, 'req.lua');
  const lua = [
    `local keys = {${spec.keys.map((k) => JSON.stringify(k)).join(',')}}`,
    'local i = 0',
    `local body = ${spec.body ? JSON.stringify(spec.body) : 'nil'}`,
    'request = function()',
    '  i = i + 1',
    `  local h = { ["Host"] = "127.0.0.1:${spec.port}" }`,
    '  if #keys > 0 then h["Authorization"] = "Bearer " .. keys[(i % #keys) + 1] end',
    '  if body then h["Content-Type"] = "application/json" end',
    `  return wrk.format("${spec.method}", "${spec.path}", h, body)`,
    'end',
    'done = function(summary, latency, requests)',
    '  io.write(string.format("RESULT %d %f %f %f %d\\n", summary.requests, summary.duration / 1e6,',
    '    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))',
    'end',
  ].join('\n');
  writeFileSync(script, lua);
  const seconds = Math.max(1, Math.round(spec.durationMs / 1000));
  const r = spawnSync(
    'wrk',
    [
      '-t1',
      `-c${spec.connections}`,
      `-d${seconds}s`,
      '-s',
      script,
      `http://127.0.0.1:${spec.port}${spec.path}`,
    ],
    { encoding: 'utf8' },
  );
  const m = /RESULT (\d+) ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stdout);
  if (!m) throw new Error(`wrk failed: ${r.stderr || r.stdout}`);
  const requests = Number(m[1]);
  const secs = Number(m[2]);
  const non2xx = Number(m[5]);
  return {
    requests,
    seconds: secs,
    rps: requests / secs,
    p50Ms: Number(m[3]),
    p99Ms: Number(m[4]),
    statuses: non2xx ? { 'non-2xx/3xx': non2xx, other: requests - non2xx } : { '2xx': requests },
  };
}
