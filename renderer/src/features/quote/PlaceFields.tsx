// One box of the quote form: weight, L×W×H, a box preset and how many of it («N × одинаковых», #21). The first
// box keeps the ids it always had (weight, length, …, box-preset: keyboard, tests and the focus of errors
// rely on them); a further place («Добавить место») has the same fields under `place-N-…` and a ✕.
import type { ReactNode } from 'react';
import { Button, Input, TextField } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDecimal } from '../../lib/format';
import { localiseNumber } from './logic';
import { placeFieldId, type PlaceDraft, type PlaceField } from './places-draft';
import { presetMatching, type BoxPreset } from './presets';

export function PlaceFields(props: {
  /** 1 for the form's own box, 2… for further places. */
  place: number;
  value: PlaceDraft;
  onChange: (patch: Partial<PlaceDraft>) => void;
  presets: readonly BoxPreset[];
  invalid: Partial<Record<PlaceField, boolean>>;
  describedBy: (...ids: string[]) => string | undefined;
  /** Ids of this box's messages (weight, dims, count). */
  messageIds: { weight: string[]; dims: string; count: string };
  onRemove?: () => void;
}): ReactNode {
  const t = useT('quote');
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const { place, value, onChange } = props;
  const id = (f: PlaceField | 'box'): string => placeFieldId(place, f);
  const current = presetMatching(props.presets, value);
  const localise = (f: 'weight' | 'length' | 'width' | 'height') => (): void => {
    const v = localiseNumber(value[f], lang);
    if (v !== value[f]) onChange({ [f]: v });
  };
  const named = place > 1 ? `${tx('place', { n: place })}: ` : '';
  return (
    <>
      <TextField
        id={id('weight')}
        label={place > 1 ? `${named}${t('weight')}` : t('weight')}
        aria-label={`${named}${t('weight')}`}
        unit={t('kg')}
        fieldClassName="weight-field"
        inputMode="decimal"
        value={value.weight}
        placeholder={t('weightPlaceholder')}
        invalid={Boolean(props.invalid.weight)}
        describedBy={props.describedBy(...props.messageIds.weight)}
        onChange={(weight) => onChange({ weight })}
        onBlur={localise('weight')}
        data-testid={id('weight')}
      />
      <div className="field dims-field" role="group" aria-labelledby={`${id('length')}-dims-label`}>
        <span className="field-label" id={`${id('length')}-dims-label`}>
          {place > 1 ? <span className="sr-only">{named}</span> : null}
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
                id={id(side)}
                inputMode="decimal"
                aria-label={`${named}${t(side)}`}
                aria-describedby={props.describedBy(props.messageIds.dims)}
                value={value[side]}
                invalid={Boolean(props.invalid[side])}
                onChange={(e) => onChange({ [side]: e.currentTarget.value })}
                onBlur={localise(side)}
                data-testid={id(side)}
              />
            </span>
          ))}
          <span className="unit">{t('cm')}</span>
        </div>
      </div>
      <div className="field box-field">
        <label htmlFor={id('box')}>
          {place > 1 ? <span className="sr-only">{named}</span> : null}
          {t('box')}
        </label>
        <select
          id={id('box')}
          className="select"
          value={current?.name ?? ''}
          onChange={(e) => {
            const p = props.presets.find((x) => x.name === e.currentTarget.value);
            if (p) {
              onChange({
                length: formatDecimal(p.length_cm, lang),
                width: formatDecimal(p.width_cm, lang),
                height: formatDecimal(p.height_cm, lang),
              });
            }
          }}
          data-testid={id('box')}
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
        id={id('count')}
        label={tx('count')}
        aria-label={`${named}${tx('count')}`}
        title={tx('countHint')}
        unit={tx('countUnit')}
        fieldClassName="count-field"
        inputMode="numeric"
        value={value.count}
        placeholder="1"
        invalid={Boolean(props.invalid.count)}
        describedBy={props.describedBy(props.messageIds.count)}
        onChange={(count) => onChange({ count })}
        data-testid={id('count')}
      />
      {props.onRemove ? (
        <div className="field place-remove">
          <span className="place-name" aria-hidden="true">
            {tx('place', { n: place })}
          </span>
          <Button
            variant="ghost"
            onClick={props.onRemove}
            aria-label={tx('removePlace', { n: place })}
            title={tx('removePlace', { n: place })}
            data-testid={`place-${place}-remove`}
          >
            ✕
          </Button>
        </div>
      ) : null}
    </>
  );
}
