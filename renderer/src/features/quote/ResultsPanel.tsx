// The results panel: what the result answers (and whether it is outdated or simulated), every carrier's
// state, the cheapest and fastest options in one line, the toolbar, the table with the price/transit chart,
// and the carriers that gave no rate.
import type { ReactNode } from 'react';
import type { PickupPoint } from '../../../../core/contract/points';
import { Button, EmptyState, ErrorState, LoadingState } from '../../components';
import { useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import type { DeliveryFilter, DeliveryType, Rate, Sort } from './logic';
import { NotRated } from './NotRated';
import { PriceChart } from './PriceChart';
import { QuoteSummaryLine } from './QuoteSummary';
import { feeColumns, hasCustomerPrices } from './rate-extras';
import { RatesTable } from './RatesTable';
import { ResultHeading } from './ResultHeading';
import { ResultsToolbar, type ViewPrefs } from './ResultsToolbar';
import type { RunState } from './run';
import { StatusStrip } from './StatusStrip';
import { failedOf, worthRepeating } from './unavailable';
import type { ExportFormat } from './useQuoteOutput';

export interface ResultRows {
  /** Every option of the run, in display order. */
  rows: Rate[];
  /** After the delivery filter and the Pareto view. */
  visible: Rate[];
  badges: { cheapest: Set<string>; fastest: Set<string> };
  presentTypes: Set<DeliveryType>;
}

export function ResultsPanel(props: {
  run: RunState;
  rows: ResultRows;
  sort: Sort;
  onSort: (key: string) => void;
  selected: string | null;
  onSelect: (key: string) => void;
  delivery: DeliveryFilter;
  onDelivery: (f: DeliveryFilter) => void;
  view: ViewPrefs;
  onView: (v: ViewPrefs) => void;
  nameOf: CarrierNameOf;
  deliveryLabel: (d: DeliveryType) => string;
  outdated: boolean;
  sandbox: boolean;
  onRetry: () => void;
  /** Runs the result's own question again; `probe`: skipped carriers to ask at once («спросить сейчас»). */
  onRepeat: (probe: string[]) => void;
  onCopyAll: () => void;
  onCopyText: () => void;
  /** «Копировать цену клиента» (#21): shown when some rate has a customer's price. */
  onCopyCustomer: () => void;
  onExport: (format: ExportFormat) => void;
  exporting: ExportFormat | null;
  onChoosePoint: (rate: string, point: PickupPoint | null) => void;
}): ReactNode {
  const t = useT('quote');
  const { run } = props;
  const { rows, visible, badges } = props.rows;
  const running = run.phase === 'running';
  const failed = failedOf(run.carriers);
  // «Повторить» asks the skipped carriers too: a plain repeat would only be skipped again.
  const skipped = failed.filter((f) => f.kind === 'temporarily_skipped').map((f) => f.code);
  const extras = {
    fees: feeColumns(rows, run.shipment),
    customer: hasCustomerPrices(rows),
    shipment: run.shipment,
    points: run.points ?? {},
    onChoosePoint: props.onChoosePoint,
  };
  return (
    <div
      className={`results panel${props.sandbox ? ' results-sandbox' : ''}${props.outdated ? ' results-outdated' : ''}`}
      data-testid="results"
      data-phase={run.phase}
      data-outdated={props.outdated ? 'true' : 'false'}
      data-sandbox={props.sandbox ? 'true' : 'false'}
    >
      <ResultHeading shipment={run.shipment} outdated={props.outdated} sandbox={props.sandbox} />
      <StatusStrip
        carriers={run.carriers}
        nameOf={props.nameOf}
        probed={run.probed}
        onAskNow={running ? undefined : (code) => props.onRepeat([code])}
      />
      <QuoteSummaryLine rows={rows} nameOf={props.nameOf} onSelect={props.onSelect} />
      {rows.length > 0 ? (
        <ResultsToolbar
          delivery={props.delivery}
          onDelivery={props.onDelivery}
          presentTypes={props.rows.presentTypes}
          deliveryLabel={props.deliveryLabel}
          view={props.view}
          onView={props.onView}
          shown={visible.length}
          total={rows.length}
          onCopyAll={props.onCopyAll}
          onCopyText={props.onCopyText}
          onCopyCustomer={hasCustomerPrices(rows) ? props.onCopyCustomer : undefined}
          onExport={props.onExport}
          canExport={run.phase === 'done' && run.quoteId !== null}
          exporting={props.exporting}
        />
      ) : null}

      {run.phase === 'idle' ? (
        <EmptyState title={t('empty.title')} data-testid="quote-empty">
          <p>{t('empty.body')}</p>
          <p className="muted">{t('empty.hint')}</p>
        </EmptyState>
      ) : run.phase === 'error' && rows.length === 0 ? (
        <ErrorState error={run.error} title={t('error.title')} onRetry={props.onRetry} />
      ) : rows.length === 0 && running ? (
        <LoadingState>{t('running')}</LoadingState>
      ) : rows.length === 0 ? (
        <EmptyState
          title={t('noRates.title')}
          data-testid="no-rates"
          actions={
            worthRepeating(failed, 0) ? (
              <Button
                variant="primary"
                onClick={() => props.onRepeat(skipped)}
                title={t('noRates.retryHint')}
                data-testid="repeat-quote"
              >
                {t('noRates.retry')}
              </Button>
            ) : undefined
          }
        >
          <p>{t('noRates.body')}</p>
        </EmptyState>
      ) : (
        <div
          className={`results-body${props.view.chart ? ' with-chart' : ''}${extras.fees.length > 0 || extras.customer ? ' with-extra-columns' : ''}`}
        >
          {visible.length === 0 ? (
            <EmptyState title={t('noMatch.title')}>
              <p>{t('noMatch.body')}</p>
            </EmptyState>
          ) : (
            <RatesTable
              key={run.key ?? 'kept'}
              extras={extras}
              rows={visible}
              sort={props.sort}
              onSort={props.onSort}
              selected={props.selected}
              onSelect={props.onSelect}
              cheapest={badges.cheapest}
              fastest={badges.fastest}
              deliveryLabel={props.deliveryLabel}
              nameOf={props.nameOf}
              caption={t('title')}
            />
          )}
          {props.view.chart ? (
            <PriceChart
              rates={visible}
              selectedKey={props.selected}
              cheapest={badges.cheapest}
              fastest={badges.fastest}
              nameOf={props.nameOf}
              onSelect={props.onSelect}
            />
          ) : null}
        </div>
      )}

      <NotRated failed={failed} shipment={run.shipment} nameOf={props.nameOf} />
      {props.selected && rows.length > 0 ? <p className="muted copy-hint">{t('copyHint')}</p> : null}
    </div>
  );
}
