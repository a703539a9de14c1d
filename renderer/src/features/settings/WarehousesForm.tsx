// Adding or editing one warehouse (#20): name, city with the quote form's own suggestions (a pick fills the
// postal code), address, default carriers (the quote form's picker) and the warehouse's boxes (the General
// tab's table). Checked as a whole on save; each problem is said under its field.
import { useRef, useState, type ReactNode } from 'react';
import type { Warehouse } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import type { QuoteCarrier } from '../../api/quote-carriers';
import { Button, Dialog, FormDialogFooter, Input, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { CarrierPicker } from '../quote/CarrierPicker';
import { CityField } from '../quote/CityField';
import { PresetRowsTable, toDrafts } from './BoxPresetsEditor';
import { useExplain } from './kit';
import { MAX_PRESETS, type PresetErrors, type PresetField } from './logic';
import {
  checkWarehouse,
  draftOf,
  EMPTY_WAREHOUSE,
  WAREHOUSE_LIMITS,
  type WarehouseDraft,
  type WarehouseField,
  type WarehouseProblem,
} from './warehouses-form';

const FORM_ID = 'warehouse-form';

export function WarehousesForm(props: {
  /** null: a new warehouse. */
  editing: Warehouse | null;
  /** The other warehouses' names (a name must be unique). */
  others: readonly string[];
  carriers: readonly QuoteCarrier[];
  onClose: () => void;
  onSaved: (w: Warehouse) => void;
}): ReactNode {
  const t = useT('warehouses');
  const ts = useT('settings');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const counter = useRef(1);
  const nextId = (): number => counter.current++;
  const [draft, setDraft] = useState<WarehouseDraft>(() =>
    props.editing
      ? draftOf(props.editing, toDrafts(props.editing.box_presets, lang, nextId))
      : EMPTY_WAREHOUSE,
  );
  const [errors, setErrors] = useState<Partial<Record<WarehouseField, WarehouseProblem>>>({});
  const [boxErrors, setBoxErrors] = useState<PresetErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (patch: Partial<WarehouseDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    const touched = Object.keys(patch) as WarehouseField[];
    setErrors((e) => {
      const next = { ...e };
      for (const k of touched) delete next[k];
      return next;
    });
  };

  const editBox = (id: number, field: PresetField, value: string): void => {
    setDraft((d) => ({ ...d, boxes: d.boxes.map((b) => (b.id === id ? { ...b, [field]: value } : b)) }));
    setBoxErrors((e) => {
      if (!e[id]?.[field]) return e;
      const { [field]: _gone, ...rest } = e[id]!;
      return { ...e, [id]: rest };
    });
  };
  const moveBox = (id: number, delta: -1 | 1): void =>
    setDraft((d) => {
      const i = d.boxes.findIndex((b) => b.id === id);
      const j = i + delta;
      if (i < 0 || j < 0 || j >= d.boxes.length) return d;
      const boxes = [...d.boxes];
      [boxes[i], boxes[j]] = [boxes[j]!, boxes[i]!];
      return { ...d, boxes };
    });
  const removeBox = (id: number): void =>
    setDraft((d) => ({ ...d, boxes: d.boxes.filter((b) => b.id !== id) }));
  const addBox = (): void => {
    const id = nextId();
    setDraft((d) => ({ ...d, boxes: [...d.boxes, { id, name: '', length: '', width: '', height: '' }] }));
    requestAnimationFrame(() =>
      document.querySelector<HTMLInputElement>(`[data-preset-row="${id}"] input`)?.focus(),
    );
  };

  const save = async (): Promise<void> => {
    const checked = checkWarehouse(draft, props.others);
    setErrors(checked.errors);
    setBoxErrors(checked.boxErrors);
    if (!checked.value) {
      setFormError(t('form.fix'));
      const first = (['name', 'city', 'postal'] as const).find((f) => checked.errors[f]);
      if (first) document.getElementById(`wh-${first === 'name' ? 'name' : first}`)?.focus();
      return;
    }
    const fields = checked.value;
    setBusy(true);
    setFormError(null);
    try {
      const saved = props.editing
        ? await call((api) => api.warehouses.update({ id: props.editing!.id, ...fields }))
        : await call((api) => api.warehouses.create(fields));
      toast(t(props.editing ? 'saved' : 'created', { name: saved.name }));
      props.onSaved(saved);
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (f: WarehouseField): ReactNode => {
    const p = errors[f];
    return p ? (
      <div className="field-error" id={`wh-${f}-error`}>
        {t(`err.${p}`)}
      </div>
    ) : null;
  };

  return (
    <Dialog
      open
      title={props.editing ? t('form.editTitle', { name: props.editing.name }) : t('form.addTitle')}
      onClose={props.onClose}
      width="760px"
      initialFocus="#wh-name"
      data-testid="warehouse-dialog"
      footer={
        <FormDialogFooter
          formId={FORM_ID}
          onCancel={props.onClose}
          submitLabel={props.editing ? t('form.save') : t('form.create')}
          busy={busy}
          data-testid="warehouse-save"
        />
      }
    >
      <form
        id={FORM_ID}
        className="stack warehouse-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="form-row">
          <div className="field wh-name">
            <label htmlFor="wh-name">{t('form.name')}</label>
            <Input
              id="wh-name"
              value={draft.name}
              maxLength={WAREHOUSE_LIMITS.name}
              placeholder={t('form.namePlaceholder')}
              invalid={Boolean(errors.name)}
              aria-describedby={errors.name ? 'wh-name-error' : undefined}
              onChange={(e) => set({ name: e.currentTarget.value })}
              data-testid="warehouse-name"
            />
            {fieldError('name')}
          </div>
          <div className="wh-place">
            <CityField
              name="wh"
              label={t('form.city')}
              placeholder={t('form.cityPlaceholder')}
              postalLabel={t('form.postal')}
              city={draft.city}
              postal={draft.postal}
              lookup={null}
              onLookup={() => {}}
              onChange={({ city, postal }) => set({ city, postal })}
              cityInvalid={Boolean(errors.city)}
              postalInvalid={Boolean(errors.postal)}
              cityDescribedBy={errors.city ? 'wh-city-error' : undefined}
              postalDescribedBy={errors.postal ? 'wh-postal-error' : undefined}
            />
            {fieldError('city') ?? fieldError('postal')}
          </div>
        </div>
        <div className="field">
          <label htmlFor="wh-address">{t('form.address')}</label>
          <Input
            id="wh-address"
            value={draft.address}
            maxLength={WAREHOUSE_LIMITS.address}
            placeholder={t('form.addressPlaceholder')}
            onChange={(e) => set({ address: e.currentTarget.value })}
            data-testid="warehouse-address"
          />
        </div>
        <div className="form-row wh-carriers">
          <CarrierPicker
            carriers={props.carriers}
            value={draft.carriers}
            onChange={(carriers) => set({ carriers })}
            onSubmit={() => void save()}
          />
          <p className="field-hint">
            {t('form.carriers')}: {t('form.carriersHint')}
          </p>
        </div>
        <fieldset className="wh-boxes">
          <legend>{t('form.boxes')}</legend>
          <p className="field-hint">{t('form.boxesHint')}</p>
          {draft.boxes.length > 0 ? (
            <PresetRowsTable
              rows={draft.boxes}
              errors={boxErrors}
              onEdit={editBox}
              onMove={moveBox}
              onRemove={removeBox}
            />
          ) : null}
          <div className="form-actions">
            <Button
              size="sm"
              onClick={addBox}
              disabled={draft.boxes.length >= Math.min(MAX_PRESETS, WAREHOUSE_LIMITS.boxes)}
              data-testid="warehouse-box-add"
            >
              {ts('presets.add')}
            </Button>
          </div>
        </fieldset>
        {formError ? (
          <div className="form-error" role="alert" data-testid="warehouse-form-error">
            {formError}
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}
