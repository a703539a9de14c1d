// The quote form: from / to with postal codes; the box (weight, sides or a preset, how many) and further places
// (#21); declared value, cash on delivery and the ship date; carriers. Messages go in one line under each
// row (FormMessages), so a message never moves a field.
import type { ReactNode, RefObject } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import type { QuoteCarrier } from '../../api/quote-carriers';
import { Button, TextField } from '../../components';
import { useLang, useT } from '../../i18n';
import { CarrierPicker } from './CarrierPicker';
import { CityField } from './CityField';
import type { CityLookup } from './city-lookup';
import { chosen } from './city-match';
import type { FieldErrors, PlaceFieldErrors } from './field-errors';
import {
  askMessages,
  cityKeys,
  morePlaceMessages as placeBoxMessages,
  parcelMessages,
  placeMessages,
  type Side,
} from './form-messages';
import { FormMessages, type FormMessage } from './FormMessages';
import { localiseNumber, type DraftField, type QuoteDraft } from './logic';
import { EMPTY_PLACE, MAX_PLACES, placeFieldId } from './places-draft';
import { PlaceFields } from './PlaceFields';
import type { BoxPreset } from './presets';
import { ShipDateField } from './ShipDateField';
import { FixedPlace, WarehousePicker } from './WarehousePicker';
import type { OriginChoice } from './warehouses';
import type { Warehouse } from '../../../../core/desk/contract';
import './quote-form.css';
import './clerk-quote.css';

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
  count: 'place-count',
  value: 'declared-value',
  cod: 'cod',
  shipDate: 'ship-date',
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
  errors: FieldErrors;
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
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const { draft, update, errors } = props;

  /** A number typed with the other separator is shown in the UI language's once the field is left. */
  const localiseOnBlur = (f: 'value' | 'cod') => (): void => {
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
    tx,
    errors,
    light: props.lightWeight,
    onKeepLight: props.onKeepLight,
    // «Нет, 10 кг»: the number was kilograms; the field's unit is kilograms.
    onLightIsKg: () => {
      update({ weight: String(props.lightWeight ?? '') });
      document.getElementById('weight')?.focus();
    },
  });

  const askRow = askMessages({ t, tx, errors });
  const morePlaceMessages = (n: number, e: PlaceFieldErrors | undefined): FormMessage[] =>
    placeBoxMessages({ t, tx, place: n, errors: e ?? {} });

  const describedBy = (...ids: string[]): string | undefined => {
    const present = ids.filter((id) => [...placeRow, ...parcelRow, ...askRow].some((m) => m.id === id));
    return present.length > 0 ? present.join(' ') : undefined;
  };

  /** «+ Место» after the last box: a further place, the cursor in its weight. */
  const addPlace =
    draft.more.length < MAX_PLACES - 1 ? (
      <div className="field add-place-field">
        <span className="field-label" aria-hidden="true">
          &nbsp;
        </span>
        <Button
          id="add-place"
          variant="ghost"
          onClick={() => {
            update({ more: [...draft.more, { ...EMPTY_PLACE }] });
            const n = draft.more.length + 2;
            requestAnimationFrame(() => document.getElementById(placeFieldId(n, 'weight'))?.focus());
          }}
          title={tx('addPlaceHint')}
          data-testid="add-place"
        >
          {tx('addPlace')}
        </Button>
      </div>
    ) : null;

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
      <div className="qf-row qf-place">
        <PlaceFields
          place={1}
          value={draft}
          onChange={update}
          presets={props.presets}
          invalid={{
            weight: Boolean(errors.weight),
            length: Boolean(errors.length),
            width: Boolean(errors.width),
            height: Boolean(errors.height),
            count: Boolean(errors.count),
          }}
          describedBy={describedBy}
          messageIds={{
            weight: ['weight-error', 'weight-light'],
            dims: 'dims-error',
            count: 'place-count-error',
          }}
        />
        {draft.more.length === 0 ? addPlace : null}
      </div>
      <FormMessages items={parcelRow} data-testid="parcel-messages" />
      {draft.more.map((p, i) => {
        const n = i + 2;
        const rowMessages = morePlaceMessages(n, errors.more?.[i]);
        return (
          <div key={i} className="qf-place-more">
            <div className="qf-row qf-place" data-testid={`place-${n}`}>
              <PlaceFields
                place={n}
                value={p}
                onChange={(patch) =>
                  update({ more: draft.more.map((q, j) => (j === i ? { ...q, ...patch } : q)) })
                }
                presets={props.presets}
                invalid={{
                  weight: Boolean(errors.more?.[i]?.weight),
                  length: Boolean(errors.more?.[i]?.length),
                  width: Boolean(errors.more?.[i]?.width),
                  height: Boolean(errors.more?.[i]?.height),
                  count: Boolean(errors.more?.[i]?.count),
                }}
                describedBy={(...ids) => {
                  const present = ids.filter((id) => rowMessages.some((m) => m.id === id));
                  return present.length > 0 ? present.join(' ') : undefined;
                }}
                messageIds={{
                  weight: [`place-${n}-weight-error`],
                  dims: `place-${n}-dims-error`,
                  count: `place-${n}-count-error`,
                }}
                onRemove={() => {
                  update({ more: draft.more.filter((_, j) => j !== i) });
                  // The cursor stays in the form: on the place before, or on «+ Место».
                  requestAnimationFrame(() =>
                    document.getElementById(i > 0 ? placeFieldId(n - 1, 'weight') : 'add-place')?.focus(),
                  );
                }}
              />
              {i === draft.more.length - 1 ? addPlace : null}
            </div>
            <FormMessages items={rowMessages} data-testid={`place-${n}-messages`} />
          </div>
        );
      })}
      <div className="qf-row">
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
        <TextField
          id="cod"
          label={tx('cod')}
          unit={t('rub')}
          fieldClassName="cod-field"
          inputMode="decimal"
          value={draft.cod}
          placeholder={tx('codNone')}
          invalid={Boolean(errors.cod)}
          describedBy={describedBy('cod-error')}
          onChange={(cod) => update({ cod })}
          onBlur={localiseOnBlur('cod')}
          data-testid="cod"
        />
        <ShipDateField
          value={draft.shipDate}
          onChange={(shipDate) => update({ shipDate })}
          invalid={Boolean(errors.shipDate)}
          describedBy={describedBy('ship-date-error')}
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
      <FormMessages items={askRow} data-testid="ask-messages" />
    </form>
  );
}
