// The results of a bulk run (#21 item 6): a row per shipment with its cheapest and fastest rate and a select
// of its services (the cheapest to start with), and the saves as CSV or Excel with the choices.
import type { ReactNode } from 'react';
import type { BulkRowResult } from '../../../../core/desk/contract';
import type { QuoteRate } from '../../../../core/contract/quote-ext';
import { Badge, Button } from '../../components';
import { useT } from '../../i18n';
import { choiceKey, defaultChoice } from './logic';

export function BulkResults(props: {
  rows: readonly BulkRowResult[];
  chosen: Record<number, string>;
  onChoose: (line: number, key: string) => void;
  money: (kopecks: number) => string;
  days: (min: number | null | undefined, max: number | null | undefined) => string;
  kg: (grams: number) => string;
  canSave: boolean;
  onSave: (format: 'csv' | 'xlsx') => void;
}): ReactNode {
  const t = useT('bulk');
  const rate = (r: QuoteRate | undefined): ReactNode =>
    r ? (
      <>
        <span className="bulk-carrier">{r.carrier_name}</span> {props.money(r.price_kopecks)} ·{' '}
        {props.days(r.days_min, r.days_max)}
      </>
    ) : (
      '—'
    );
  const sandbox = props.rows.some((r) => r.sandbox);
  return (
    <section className="bulk-results" aria-labelledby="bulk-results-title">
      <div className="bulk-results-head">
        <h2 id="bulk-results-title">{t('results')}</h2>
        {sandbox ? <Badge tone="warn">{t('sandbox')}</Badge> : null}
        <span className="spacer" />
        <Button disabled={!props.canSave} onClick={() => props.onSave('csv')} data-testid="bulk-save-csv">
          {t('exportCsv')}
        </Button>
        <Button disabled={!props.canSave} onClick={() => props.onSave('xlsx')} data-testid="bulk-save-xlsx">
          {t('exportXlsx')}
        </Button>
      </div>
      <div className="bulk-scroll">
        <table className="table" data-testid="bulk-results">
          <thead>
            <tr>
              <th scope="col">{t('line')}</th>
              <th scope="col">{t('colRef')}</th>
              <th scope="col">{t('colTo')}</th>
              <th scope="col">{t('colWeight')}</th>
              <th scope="col">{t('colCheapest')}</th>
              <th scope="col">{t('colFastest')}</th>
              <th scope="col">{t('colChosen')}</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => {
              const start = defaultChoice(row);
              const value = props.chosen[row.line] ?? (start ? choiceKey(start) : '');
              return (
                <tr key={row.line} data-line={row.line}>
                  <td>{row.line}</td>
                  <td>{row.reference}</td>
                  <td>{row.to_city}</td>
                  <td className="num">{props.kg(row.weight_grams)}</td>
                  <td>{row.cheapest === null ? t('noRates') : rate(row.rates[row.cheapest])}</td>
                  <td>{row.fastest === null ? '—' : rate(row.rates[row.fastest])}</td>
                  <td>
                    {row.rates.length === 0 ? (
                      (row.error ?? t('noRates'))
                    ) : (
                      <select
                        aria-label={t('chosenLabel', { line: row.line })}
                        value={value}
                        onChange={(e) => props.onChoose(row.line, e.target.value)}
                      >
                        {row.rates.map((r) => (
                          <option key={choiceKey(r)} value={choiceKey(r)}>
                            {/* Price and days first: a narrow select still shows what the choice costs. */}
                            {props.money(r.price_kopecks)} · {props.days(r.days_min, r.days_max)} —{' '}
                            {r.carrier_name}: {r.service_name}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
