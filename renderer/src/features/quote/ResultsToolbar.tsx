// Above the table: the delivery-type filter, the Pareto view, the row count, copy as text, the chart toggle.
import type { ReactNode } from 'react';
import { Button, Checkbox } from '../../components';
import { useT } from '../../i18n';
import { DELIVERY_FILTERS, type DeliveryFilter, type DeliveryType } from './logic';

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
      <Button
        size="sm"
        variant="ghost"
        onClick={props.onCopyAll}
        title={t('copyAllHint')}
        data-testid="copy-all"
      >
        {t('copyAll')}
      </Button>
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
