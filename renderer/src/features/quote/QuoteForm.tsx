// The quote form: from / to with postal codes, weight, box sides or a preset, declared value, carriers.
// Messages go in one line under each row (FormMessages), so a message never moves a field.
import type { ReactNode, RefObject } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import type { QuoteCarrier } from '../../api/quote-carriers';
import { Button, Input, TextField } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDecimal } from '../../lib/format';
import { CarrierPicker } from './CarrierPicker';
import { CityField } from './CityField';
import type { CityLookup } from './city-lookup';
import { chosen } from './city-match';
import { cityKeys, parcelMessages, placeMessages, type Side } from './form-messages';
import { FormMessages } from './FormMessages';
import { localiseNumber, type DraftField, type QuoteDraft } from './logic';
import { presetMatching, type BoxPreset } from './presets';
import { FixedPlace, WarehousePicker } from './WarehousePicker';
import type { OriginChoice } from './warehouses';
import type { Warehouse } from '../../../../core/desk/contract';
import './quote-form.css';

export type { Side };

const FIELD_ID_TO_CITY = 'to-city';

export const FIELD_IDS: Record<DraftField, string> = {
  fromCity: 'from-city',
  fromPostal: 'from-postal',
  toCity: FIELD_ID_TO_CITY,
  toPostal: 'to-postal',
  weight: 'weight',
  length: 'length',
  width: 'width',
  height: 'height',
  value: 'declared-value',
};

export interface QuoteFormProps {
  draft: QuoteDraft;
  update: (patch: Partial<QuoteDraft>) => void;
  onSwap: () => void;
  onSubmit: () => void;
  running: boolean;
  carriers: readonly QuoteCarrier[];
  presets: readonly BoxPreset[];
  /** Field errors in words (only after a quote was attempted). */
  errors: Partial<Record<DraftField, string>>;
  /** What the core said about each city text. */
  cities: Record<Side, CityLookup | null>;
  onCityLookup: (side: Side, lookup: CityLookup) => void;
  fromRef: RefObject<HTMLInputElement | null>;
  /** Bumped per side when a quote found its city doubtful: the field opens its question. */
  asks: Record<Side, number>;
  /** A weight (grams) asked about before quoting: 10 g or less (issue #17); null when none. */
  lightWeight: number | null;
  /** «Да, 10 г»: quote with the weight as typed. */
  onKeepLight: () => void;
  /** Named warehouses (#20): with none, «Откуда» is the plain city field, exactly as before. */
  origin?: OriginProps;
}

export interface OriginProps {
  list: readonly Warehouse[];
  choice: OriginChoice;
  onPick: (choice: OriginChoice) => void;
  pickerRef: RefObject<HTMLSelectElement | null>;
  /** What the read-only «Откуда» shows for a warehouse or for all of them. */
  fixed: { city: string; postal: string };
}

/** Where the cursor goes after a place is chosen (issue #17): from → to → weight. */
const NEXT_AFTER: Record<Side, string> = { from: FIELD_ID_TO_CITY, to: 'weight' };

export function QuoteForm(props: QuoteFormProps): ReactNode {
  const t = useT('quote');
  const ti = useT('quoteInput');
  const tw = useT('warehouses');
  const { lang } = useLang();
  const { draft, update, errors } = props;
  const currentPreset = presetMatching(props.presets, draft);

  /** A number typed with the other separator is shown in the UI language's once the field is left. */
  const localiseOnBlur = (f: 'weight' | 'length' | 'width' | 'height' | 'value') => (): void => {
    const v = localiseNumber(draft[f], lang);
    if (v !== draft[f]) update({ [f]: v });
  };

  /** The city notice is shown once the core has answered about the text on screen. */
  const lookupOf = (side: Side): CityLookup | null => {
    const l = props.cities[side];
    return l && l.text === draft[cityKeys(side).city] ? l : null;
  };

  const pickCity = (side: Side, s: CitySuggestion): void => {
    const k = cityKeys(side);
    update({ [k.city]: s.name, [k.postal]: s.postal_code ?? '' });
    props.onCityLookup(side, chosen(s));
  };

  const placeRow = placeMessages({ t, errors, lookupOf, onPick: pickCity });
  const parcelRow = parcelMessages({
    t,
    ti,
    errors,
    light: props.lightWeight,
    onKeepLight: props.onKeepLight,
    // «Нет, 10 кг»: the number was kilograms; the field's unit is kilograms.
    onLightIsKg: () => {
      update({ weight: String(props.lightWeight ?? '') });
      document.getElementById('weight')?.focus();
    },
  });

  const describedBy = (...ids: string[]): string | undefined => {
    const present = ids.filter((id) => [...placeRow, ...parcelRow].some((m) => m.id === id));
    return present.length > 0 ? present.join(' ') : undefined;
  };

  return (
    <form
      className="quote-form panel"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
      onKeyDown={(e) => {
        // Enter quotes from every field (#17 item 6). Text fields submit the form by themselves (and a
        // city field with its list open takes Enter for the pick first); a select does not: Box is here.
        if (
          e.key === 'Enter' &&
          !e.defaultPrevented &&
          !e.altKey &&
          !e.ctrlKey &&
          !e.metaKey &&
          !e.shiftKey &&
          (e.target as HTMLElement).tagName === 'SELECT'
        ) {
          e.preventDefault();
          props.onSubmit();
        }
      }}
      data-testid="quote-form"
    >
      <div className="qf-row">
        {(['from', 'to'] as const).map((side) => {
          const k = cityKeys(side);
          const origin =
            side === 'from' && props.origin && props.origin.list.length > 0 ? props.origin : null;
          const field = (
            <CityField
              key={side}
              name={side}
              lookup={lookupOf(side)}
              ask={props.asks[side]}
              onChosen={() => document.getElementById(NEXT_AFTER[side])?.focus()}
              label={origin ? tw('cityLabel') : side === 'from' ? t('from') : t('to')}
              placeholder={side === 'from' ? t('fromPlaceholder') : t('toPlaceholder')}
              postalLabel={t('postal')}
              city={draft[k.city] as string}
              postal={draft[k.postal] as string}
              onChange={({ city, postal }) => update({ [k.city]: city, [k.postal]: postal })}
              onLookup={(l) => props.onCityLookup(side, l)}
              cityInvalid={Boolean(errors[k.city])}
              postalInvalid={Boolean(errors[k.postal])}
              cityDescribedBy={describedBy(`${side}-city-error`, `${side}-city-notice`)}
              postalDescribedBy={describedBy(`${side}-postal-error`)}
              {...(side === 'from' ? { inputRef: props.fromRef } : {})}
            />
          );
          if (!origin) return field;
          return (
            <div key={side} className="origin-field" data-testid="origin-field">
              <WarehousePicker
                list={origin.list}
                choice={origin.choice}
                onPick={origin.onPick}
                pickerRef={origin.pickerRef}
                describedBy={describedBy('from-city-error', 'from-warehouse-notice')}
              />
              {origin.choice.kind === 'none' ? (
                field
              ) : (
                <FixedPlace
                  city={origin.fixed.city}
                  postal={origin.fixed.postal}
                  cityLabel={tw('cityLabel')}
                  postalLabel={t('postal')}
                />
              )}
            </div>
          );
        })}
        <div className="field swap-field">
          <span className="field-label" aria-hidden="true">
            &nbsp;
          </span>
          {/* Out of the Tab order (#17 item 6): Tab goes from «Куда» straight to «Вес»; Alt+S swaps. */}
          <Button
            variant="ghost"
            className="swap-button"
            onClick={props.onSwap}
            tabIndex={-1}
            aria-label={t('swap')}
            aria-keyshortcuts="Alt+S"
            title={`${t('swap')} (${t('swapKey')})`}
            data-testid="swap"
          >
            ⇄
          </Button>
        </div>
      </div>
      <FormMessages items={placeRow} data-testid="place-messages" />
      <div className="qf-row">
        <TextField
          id="weight"
          label={t('weight')}
          unit={t('kg')}
          fieldClassName="weight-field"
          inputMode="decimal"
          value={draft.weight}
          placeholder={t('weightPlaceholder')}
          invalid={Boolean(errors.weight)}
          describedBy={describedBy('weight-error', 'weight-light')}
          onChange={(weight) => update({ weight })}
          onBlur={localiseOnBlur('weight')}
          data-testid="weight"
        />
        <div className="field dims-field" role="group" aria-labelledby="dims-label">
          <span className="field-label" id="dims-label">
            {t('dims')}
          </span>
          <div className="with-unit">
            {(['length', 'width', 'height'] as const).map((side, i) => (
              <span key={side} className="dim">
                {i > 0 ? (
                  <span className="times" aria-hidden="true">
                    ×
                  </span>
                ) : null}
                <Input
                  id={side}
                  inputMode="decimal"
                  aria-label={t(side)}
                  aria-describedby={describedBy('dims-error')}
                  value={draft[side]}
                  invalid={Boolean(errors[side])}
                  onChange={(e) => update({ [side]: e.currentTarget.value })}
                  onBlur={localiseOnBlur(side)}
                  data-testid={side}
                />
              </span>
            ))}
            <span className="unit">{t('cm')}</span>
          </div>
        </div>
        <div className="field box-field">
          <label htmlFor="box-preset">{t('box')}</label>
          <select
            id="box-preset"
            className="select"
            value={currentPreset?.name ?? ''}
            onChange={(e) => {
              const p = props.presets.find((x) => x.name === e.currentTarget.value);
              if (p) {
                update({
                  length: formatDecimal(p.length_cm, lang),
                  width: formatDecimal(p.width_cm, lang),
                  height: formatDecimal(p.height_cm, lang),
                });
              }
            }}
            data-testid="box-preset"
          >
            <option value="">{t('boxCustom')}</option>
            {props.presets.map((p) => (
              <option key={p.name} value={p.name}>
                {`${p.name} ${formatDecimal(p.length_cm, lang)}×${formatDecimal(p.width_cm, lang)}×${formatDecimal(p.height_cm, lang)}`}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id="declared-value"
          label={t('value')}
          unit={t('rub')}
          fieldClassName="value-field"
          inputMode="decimal"
          value={draft.value}
          placeholder={ti('valueNone')}
          invalid={Boolean(errors.value)}
          describedBy={describedBy('declared-value-error')}
          onChange={(value) => update({ value })}
          onBlur={localiseOnBlur('value')}
          data-testid="declared-value"
        />
        <div className="qf-actions">
          <CarrierPicker
            carriers={props.carriers}
            value={draft.carriers}
            onChange={(c) => update({ carriers: c })}
            onSubmit={props.onSubmit}
          />
          <Button
            needsServer
            type="submit"
            variant="primary"
            kbd="⏎"
            busy={props.running}
            data-testid="submit"
          >
            {props.running ? t('running') : t('submit')}
          </Button>
        </div>
      </div>
      <FormMessages items={parcelRow} data-testid="parcel-messages" />
    </form>
  );
}
