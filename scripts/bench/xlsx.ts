// XLSX read and write, 1,000 and 10,000 rows of a shipments sheet: exceljs against the hand-written writer
// (core/operations/xlsx.ts) and reader (core/ratecards/xlsx-read.ts), in the same run. Each case runs in a
// child process of its own, so its peak RSS and the library's load time are its own, not the runner's.
// `npx tsx scripts/bench/xlsx.ts` alone, or part of `npm run bench` (BENCH_ONLY=xlsx).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type XlsxImpl = 'hand' | 'exceljs';
export type XlsxOp = 'write' | 'read';

interface Figure {
  loadMs: number;
  ms: number;
  peakRssMb: number;
  bytes: number;
}

const HEADER = [
  'откуда',
  'индекс откуда',
  'куда',
  'индекс куда',
  'вес, г',
  'Д',
  'Ш',
  'В',
  'мест',
  'ценность, ₽',
];
function rows(n: number): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (let i = 0; i < n; i++)
    out.push([
      'Москва',
      '101000',
      i % 2 ? 'Казань' : 'Санкт-Петербург',
      '420000',
      500 + i,
      30,
      20,
      10,
      1,
      1500.5,
    ]);
  return out;
}

async function child(impl: XlsxImpl, op: XlsxOp, n: number): Promise<Figure> {
  const data = rows(n);
  let loadMs: number;
  let write: (r: (string | number)[][]) => Promise<Buffer>;
  let read: (b: Buffer) => Promise<number>;
  if (impl === 'hand') {
    const t = performance.now();
    const { writeXlsx } = await import('../../core/operations/xlsx');
    const { readXlsxRecords } = await import('../../core/ratecards/xlsx-read');
    loadMs = performance.now() - t;
    write = async (r) => writeXlsx({ name: 'Отправления', header: HEADER, rows: r });
    read = async (b) => readXlsxRecords(b).length;
  } else {
    const t = performance.now();
    const ExcelJS = (await import('exceljs')).default;
    loadMs = performance.now() - t;
    write = async (r) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Отправления');
      ws.addRow(HEADER);
      for (const row of r) ws.addRow(row);
      return Buffer.from(await wb.xlsx.writeBuffer());
    };
    read = async (b) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(b as unknown as ArrayBuffer);
      let count = 0;
      wb.worksheets[0]!.eachRow(() => count++);
      return count;
    };
  }
  // The file read is always the same bytes (the hand-written writer's, with inline strings, and exceljs's
  // shared strings would differ only in size); what is measured is the operation itself.
  const { writeXlsx } = await import('../../core/operations/xlsx');
  const input = op === 'read' ? writeXlsx({ name: 'Отправления', header: HEADER, rows: data }) : null;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t = performance.now();
  let bytes: number;
  if (op === 'write') bytes = (await write(data)).length;
  else {
    const count = await read(input!);
    if (count !== n + 1) throw new Error(`read ${count} rows of ${n + 1}`);
    bytes = input!.length;
  }
  const ms = performance.now() - t;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { loadMs, ms, peakRssMb: peak / 1e6, bytes };
}

function run(impl: XlsxImpl, op: XlsxOp, n: number): Figure {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), impl, op, String(n)],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Figure;
}

export async function benchXlsx(): Promise<void> {
  console.log('XLSX (a child process per case; load = importing the code, peak RSS of the whole child):');
  for (const n of [1_000, 10_000]) {
    for (const op of ['write', 'read'] as const) {
      const hand = run('hand', op, n);
      const lib = run('exceljs', op, n);
      const line = (name: string, f: Figure): string =>
        `  ${name.padEnd(8)} ${op.padEnd(5)} ${String(n).padStart(6)} rows  ${f.ms.toFixed(0).padStart(6)} ms  ` +
        `(+ load ${f.loadMs.toFixed(0).padStart(4)} ms)  peak RSS ${f.peakRssMb.toFixed(0).padStart(4)} MB  ` +
        `${(f.bytes / 1024).toFixed(0)} KiB`;
      console.log(line('hand', hand));
      console.log(`${line('exceljs', lib)}  → ${(lib.ms / hand.ms).toFixed(1)}× the hand-written time`);
    }
  }
  console.log('');
}

const [, , implArg, opArg, nArg] = process.argv;
if (implArg === 'hand' || implArg === 'exceljs') {
  child(implArg, opArg as XlsxOp, Number(nArg)).then(
    (f) => console.log(JSON.stringify(f)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  void benchXlsx();
}
