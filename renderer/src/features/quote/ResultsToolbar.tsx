// Above the table: the delivery-type filter, the Pareto view, the row count, the ways out (copy as columns,
// as text, CSV, XLSX) and the chart toggle.
import type { ReactNode } from 'react';
import { Button, Checkbox } from '../../components';
import { useT } from '../../i18n';
import { CopyMenu } from './CopyMenu';
import { DELIVERY_FILTERS, type DeliveryFilter, type DeliveryType } from './logic';
import type { ExportFormat } from './useQuoteOutput';

export interface ViewPrefs {
  pareto: boolean;
  chart: boolean;
}

export function ResultsToolbar(props: {
  delivery: DeliveryFilter;
  onDelivery: (f: DeliveryFilter) => void;
  presentTypes: ReadonlySet<DeliveryType>;
  deliveryLabel: (d: DeliveryType) => string;
  view: ViewPrefs;
  onView: (v: ViewPrefs) => void;
  shown: number;
  total: number;
  onCopyAll: () => void;
  onCopyText: () => void;
  onCopyCustomer?: (() => void) | undefined;
  onExport: (format: ExportFormat) => void;
  canExport: boolean;
  exporting: ExportFormat | null;
}): ReactNode {
  const t = useT('quote');
  const { view } = props;
  return (
    <div className="results-toolbar">
      <span className="field-label">{t('filter.type')}</span>
      <div className="segmented" role="group" aria-label={t('filter.type')} data-testid="delivery-filter">
        {DELIVERY_FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={props.delivery === f}
            disabled={f !== 'all' && !props.presentTypes.has(f) && props.delivery !== f}
            onClick={() => props.onDelivery(f)}
            data-filter={f}
          >
            {f === 'all' ? t('filter.all') : props.deliveryLabel(f)}
          </button>
        ))}
      </div>
      <Checkbox
        checked={view.pareto}
        onChange={(pareto) => props.onView({ ...view, pareto })}
        data-testid="pareto"
      >
        <span title={t('paretoHint')}>{t('pareto')}</span>
      </Checkbox>
      <span className="spacer" />
      <span className="muted" data-testid="rows-summary">
        {t('summary.rows', { shown: props.shown, total: props.total })}
      </span>
      <CopyMenu
        onCopy={props.onCopyAll}
        onCopyText={props.onCopyText}
        onCopyCustomer={props.onCopyCustomer}
        onExport={props.onExport}
        canExport={props.canExport}
        exporting={props.exporting}
      />
      <Button
        size="sm"
        variant="ghost"
        onClick={() => props.onView({ ...view, chart: !view.chart })}
        aria-pressed={view.chart}
        title={t('chartHint')}
        className="toggle-button"
        data-testid="chart-toggle"
      >
        {t('chart')}
      </Button>
    </div>
  );
}
