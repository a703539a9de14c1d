// «Пакетный расчёт» (#21 item 6): a day's shipments from a CSV or Excel file. Choose the file → the columns
// (suggested by the core from the header, each changeable, the first rows under them, every bad row listed by
// its number) → quote every row with a progress bar and a stop → the results (cheapest, fastest, a service
// chosen per row) → save as CSV or Excel. The file is read and every row quoted by the core (bulk:*).
import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import {
  newQuoteKey,
  type AccountView,
  type BulkMapping,
  type BulkParseResult,
  type BulkRowResult,
  type BulkRunResult,
} from '../../../../core/desk/contract';
import { call, errorMessage } from '../../api/client';
import { useDeskEvent, useDeskQuery } from '../../api/hooks';
import { Banner, Button, EmptyState, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { bytesToBase64, downloadFile } from '../../lib/files';
import { formatDays, formatKg, formatMoney } from '../../lib/format';
import { BulkMappingPanel } from './BulkMappingPanel';
import { BulkResults } from './BulkResults';
import { choiceKey, defaultChoice, mergeRows } from './logic';
import './bulk.css';

type Run =
  | { state: 'idle' }
  | { state: 'running'; runKey: string; done: number; total: number }
  | { state: 'over'; result: BulkRunResult };

export function BulkScreen(): ReactNode {
  const t = useT('bulk');
  const { lang } = useLang();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [parsed, setParsed] = useState<BulkParseResult | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [originCity, setOriginCity] = useState('Москва');
  const [account, setAccount] = useState('');
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const [rows, setRows] = useState<BulkRowResult[]>([]);
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const accounts = useDeskQuery((api) => api.accounts.list(), []);

  useDeskEvent('bulk:progress', (e) => {
    setRun((r) =>
      r.state === 'running' && r.runKey === e.runKey ? { ...r, done: e.done, total: e.total } : r,
    );
    setRows((rs) => mergeRows(rs, e.row));
  });

  const parse = async (
    next: { name: string; content: string },
    mapping?: BulkMapping,
    city = originCity,
  ): Promise<void> => {
    setReading(true);
    setError(null);
    try {
      const origin = city.trim() ? { country: 'RU' as const, city: city.trim() } : undefined;
      setParsed(
        await call((api) =>
          api.bulk.parse({
            filename: next.name,
            content: next.content,
            ...(mapping ? { mapping } : {}),
            ...(origin ? { origin } : {}),
          }),
        ),
      );
    } catch (err) {
      setError(errorMessage(err, lang));
    } finally {
      setReading(false);
    }
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    const next = { name: f.name, content: bytesToBase64(new Uint8Array(await f.arrayBuffer())) };
    setFile(next);
    setRun({ state: 'idle' });
    setRows([]);
    setChosen({});
    await parse(next);
  };

  const start = async (): Promise<void> => {
    if (!parsed || parsed.shipments.length === 0) return;
    const runKey = newQuoteKey();
    setRows([]);
    setChosen({});
    setRun({ state: 'running', runKey, done: 0, total: parsed.shipments.length });
    try {
      const result = await call((api) =>
        api.bulk.run({ runKey, rows: parsed.shipments, ...(account ? { account } : {}) }),
      );
      setRows(result.rows);
      setRun({ state: 'over', result });
    } catch (err) {
      setRun({ state: 'idle' });
      setError(errorMessage(err, lang));
    }
  };

  const stop = async (): Promise<void> => {
    if (run.state !== 'running') return;
    await call((api) => api.bulk.cancel({ runKey: run.runKey })).catch(() => undefined);
  };

  const save = async (format: 'csv' | 'xlsx'): Promise<void> => {
    try {
      const withChoice = rows.map((r) => {
        const key = chosen[r.line];
        const fallback = defaultChoice(r);
        const pick = key ? r.rates.find((x) => choiceKey(x) === key) : undefined;
        return { ...r, chosen: pick ? { carrier: pick.carrier, service_code: pick.service_code } : fallback };
      });
      downloadFile(
        await call((api) => api.bulk.export({ format, rows: withChoice, problems: parsed?.problems ?? [] })),
      );
    } catch (err) {
      toast(errorMessage(err, lang), 'error');
    }
  };

  const running = run.state === 'running';
  const count = parsed?.shipments.length ?? 0;
  return (
    <section className="screen bulk" aria-labelledby="bulk-title">
      <header className="bulk-head">
        <h1 id="bulk-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <div className="bulk-file">
          <input
            ref={input}
            type="file"
            accept=".csv,.txt,.xlsx,.xls,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="sr-only"
            data-testid="bulk-file"
            onChange={(e) => void onFile(e)}
            tabIndex={-1}
          />
          <Button
            variant="primary"
            disabled={running}
            onClick={() => input.current?.click()}
            data-testid="bulk-choose"
          >
            {t('chooseFile')}
          </Button>
          {file && parsed ? (
            <span data-testid="bulk-file-line">
              {t('fileLine', { name: file.name, rows: parsed.total_rows })}
            </span>
          ) : null}
          {reading ? <span role="status">{t('reading')}</span> : null}
        </div>
      </header>
      {error ? <Banner tone="danger">{error}</Banner> : null}
      {!parsed && !reading ? <EmptyState title={t('intro')} data-testid="bulk-empty" /> : null}
      {parsed && file ? (
        <BulkMappingPanel
          parsed={parsed}
          disabled={running}
          originCity={originCity}
          onOriginCity={(city) => {
            setOriginCity(city);
            void parse(file, parsed.mapping, city);
          }}
          onMapping={(mapping) => void parse(file, mapping)}
        />
      ) : null}
      {parsed ? (
        <div className="bulk-run" aria-live="polite">
          <label className="bulk-account">
            <span>{t('account')}</span>
            <select
              value={account}
              disabled={running}
              onChange={(e) => setAccount(e.target.value)}
              data-testid="bulk-account"
            >
              <option value="">{t('accountNone')}</option>
              {(accounts.state.status === 'ready' ? accounts.state.data : []).map((a: AccountView) => (
                <option key={a.name} value={a.name}>
                  {a.name} ({a.limits.rps}/s)
                </option>
              ))}
            </select>
            <span className="muted">{t('accountHint')}</span>
          </label>
          {running ? (
            <div className="bulk-progress" data-testid="bulk-progress">
              <progress
                value={run.done}
                max={run.total}
                aria-label={t('progress', { done: run.done, total: run.total })}
              />
              <span>{t('progress', { done: run.done, total: run.total })}</span>
              <Button onClick={() => void stop()} data-testid="bulk-cancel">
                {t('cancel')}
              </Button>
            </div>
          ) : (
            <Button
              variant="primary"
              disabled={count === 0}
              onClick={() => void start()}
              data-testid="bulk-run"
            >
              {count === 0 ? t('nothingToRun') : t('run', { n: count })}
            </Button>
          )}
          {run.state === 'over' ? (
            <p role="status" data-testid="bulk-outcome">
              {run.result.state === 'cancelled'
                ? t('cancelled', { done: run.result.done, total: run.result.total })
                : t('finished', {
                    done: run.result.done,
                    seconds: (run.result.elapsed_ms / 1000).toFixed(1),
                  })}
            </p>
          ) : null}
        </div>
      ) : null}
      {rows.length > 0 ? (
        <BulkResults
          rows={rows}
          chosen={chosen}
          onChoose={(line, key) => setChosen((c) => ({ ...c, [line]: key }))}
          money={(k) => formatMoney(k, lang)}
          days={(a, b) => formatDays(a, b, lang)}
          kg={(g) => formatKg(g, lang)}
          canSave={!running}
          onSave={(f) => void save(f)}
        />
      ) : null}
    </section>
  );
}
