// History's filters by who asked and from which warehouse (#20): two selects beside the search, shown only
// when there is something to choose (a desk without warehouses or company users sees none of it).
import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import type { HistoryFilter } from './logic';

export function HistoryFilters(props: {
  value: HistoryFilter;
  onChange: (next: HistoryFilter) => void;
  authors: readonly string[];
  warehouses: readonly string[];
}): ReactNode {
  const t = useT('history');
  const select = (key: keyof HistoryFilter, label: string, choices: readonly string[]): ReactNode =>
    choices.length === 0 ? null : (
      <span className="history-filter">
        <label htmlFor={`history-filter-${key}`} className="field-label">
          {label}
        </label>
        <select
          id={`history-filter-${key}`}
          className="select"
          value={props.value[key]}
          onChange={(e) => props.onChange({ ...props.value, [key]: e.currentTarget.value })}
          data-testid={`history-filter-${key}`}
        >
          <option value="">{t('filter.all')}</option>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </span>
    );
  return (
    <>
      {select('warehouse', t('filter.warehouse'), props.warehouses)}
      {select('author', t('filter.author'), props.authors)}
    </>
  );
}
