// «Откуда» when the company has warehouses (#20): a picker of the warehouse (a native select, so ↑/↓ and
// typing the first letters choose, as the clerk's keyboard expects), then the place it ships from, read
// only. «другой адрес» gives the ordinary city field back; «из всех складов» quotes from every warehouse.
import type { ReactNode, RefObject } from 'react';
import type { Warehouse } from '../../../../core/desk/contract';
import { Input } from '../../components';
import { useT } from '../../i18n';
import { offersAll, type OriginChoice } from './warehouses';
import './warehouses.css';

function valueOf(choice: OriginChoice): string {
  return choice.kind === 'warehouse' ? String(choice.id) : choice.kind === 'all' ? 'all' : '';
}

function choiceOf(value: string): OriginChoice {
  if (value === 'all') return { kind: 'all' };
  const id = Number(value);
  return value !== '' && Number.isSafeInteger(id) ? { kind: 'warehouse', id } : { kind: 'none' };
}

export function WarehousePicker(props: {
  list: readonly Warehouse[];
  choice: OriginChoice;
  onPick: (choice: OriginChoice) => void;
  pickerRef: RefObject<HTMLSelectElement | null>;
  describedBy?: string | undefined;
}): ReactNode {
  const t = useT('warehouses');
  return (
    <div className="field warehouse-field">
      <label htmlFor="from-warehouse">{t('picker.label')}</label>
      <select
        id="from-warehouse"
        ref={props.pickerRef}
        className="select"
        value={valueOf(props.choice)}
        title={t('picker.hint')}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onPick(choiceOf(e.currentTarget.value))}
        data-testid="from-warehouse"
      >
        {props.list.map((w) => (
          <option key={w.id} value={String(w.id)}>
            {w.name}
          </option>
        ))}
        {offersAll(props.list) ? <option value="all">{t('picker.all')}</option> : null}
        <option value="">{t('picker.none')}</option>
      </select>
    </div>
  );
}

/**
 * The warehouse's place in «Откуда»: shown, not typed (the core quotes from the warehouse's own place). Out
 * of the Tab order, so Tab goes from the picker straight to «Куда».
 */
export function FixedPlace(props: {
  city: string;
  postal: string;
  cityLabel: string;
  postalLabel: string;
}): ReactNode {
  return (
    <>
      <div className="field city-input fixed-place">
        <label htmlFor="from-city">{props.cityLabel}</label>
        <Input
          id="from-city"
          readOnly
          tabIndex={-1}
          value={props.city}
          title={props.city}
          data-testid="from-city"
        />
      </div>
      <div className="field postal-input">
        <label htmlFor="from-postal">{props.postalLabel}</label>
        <Input
          id="from-postal"
          readOnly
          tabIndex={-1}
          value={props.postal}
          className="num"
          data-testid="from-postal"
        />
      </div>
    </>
  );
}
