// Adding or editing one resale rule (#21): whose (the desk or an API account) and which carrier (or all),
// the markup, packaging, limits and rounding, and a live preview of what the customer pays for a few carrier
// prices. Checked as a whole on save; each problem is said under its field. Editing keeps the owner and the
// carrier (another pair is another rule).
import { useState, type ReactNode } from 'react';
import type { AccountView, PricingRuleView } from '../../../../core/desk/contract';
import { ROUNDINGS, type Rounding } from '../../../../core/contract/pricing';
import { call } from '../../api/client';
import type { QuoteCarrier } from '../../api/quote-carriers';
import { useAccountLabel } from '../../app/account-name';
import { Dialog, Field, FormDialogFooter, Input, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatMoney } from '../../lib/format';
import { useExplain } from './kit';
import {
  checkResale,
  EMPTY_RESALE,
  resaleDraftOf,
  type ResaleDraft,
  type ResaleField,
  type ResaleProblem,
} from './resale-form';
import { previewOf } from './resale-view';

const FORM_ID = 'resale-form';
const SUMS: ReadonlyArray<{ field: ResaleField; label: 'form.add' | 'form.packaging' }> = [
  { field: 'add', label: 'form.add' },
  { field: 'packaging', label: 'form.packaging' },
];

export function ResaleForm(props: {
  /** null: a new rule. */
  editing: PricingRuleView | null;
  rules: readonly PricingRuleView[];
  accounts: readonly AccountView[];
  carriers: readonly QuoteCarrier[];
  ownerText: (r: { account: string | null }) => string;
  carrierText: (r: { carrier: string | null }) => string;
  onClose: () => void;
  onSaved: (r: PricingRuleView) => void;
}): ReactNode {
  const t = useT('resale');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const accountLabel = useAccountLabel();
  const [draft, setDraft] = useState<ResaleDraft>(() =>
    props.editing ? resaleDraftOf(props.editing, lang) : EMPTY_RESALE,
  );
  const [errors, setErrors] = useState<Partial<Record<ResaleField, ResaleProblem>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const checked = checkResale(draft);
  const preview = previewOf(checked.value);
  const replaces =
    props.editing === null &&
    props.rules.some((r) => (r.account ?? '') === draft.account && (r.carrier ?? '') === draft.carrier);

  const set = (patch: Partial<ResaleDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k as ResaleField];
      // The step decides whether the limits are right: said again on save.
      if ('rounding' in patch) {
        delete next.min;
        delete next.max;
      }
      return next;
    });
  };

  const save = async (): Promise<void> => {
    setErrors(checked.errors);
    if (!checked.value) {
      setFormError(t('form.fix'));
      const first = (['percent', 'add', 'packaging', 'min', 'max'] as const).find((f) => checked.errors[f]);
      if (first) document.getElementById(`resale-${first}`)?.focus();
      return;
    }
    const input = checked.value;
    setBusy(true);
    setFormError(null);
    try {
      const saved = await call((api) => api.pricing.set(input));
      toast(t('saved', { owner: props.ownerText(saved), carrier: props.carrierText(saved) }));
      props.onSaved(saved);
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const sumField = (field: ResaleField, label: string, hint?: string): ReactNode => (
    <Field
      label={label}
      htmlFor={`resale-${field}`}
      hint={hint}
      error={errors[field] ? t(`err.${errors[field]}`) : undefined}
      className={`resale-sum resale-${field}`}
    >
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          value={draft[field]}
          invalid={invalid}
          aria-describedby={describedBy}
          placeholder={field === 'min' || field === 'max' ? t('none') : '0'}
          onChange={(e) => set({ [field]: e.currentTarget.value })}
          data-testid={`resale-${field}`}
        />
      )}
    </Field>
  );

  return (
    <Dialog
      open
      title={
        props.editing
          ? t('form.editTitle', {
              owner: props.ownerText(props.editing),
              carrier: props.carrierText(props.editing),
            })
          : t('form.addTitle')
      }
      onClose={props.onClose}
      width="640px"
      initialFocus={props.editing ? '#resale-percent' : '#resale-owner'}
      data-testid="resale-dialog"
      footer={
        <FormDialogFooter
          formId={FORM_ID}
          onCancel={props.onClose}
          submitLabel={props.editing ? t('form.save') : t('form.create')}
          busy={busy}
          data-testid="resale-save"
        />
      }
    >
      <form
        id={FORM_ID}
        className="stack resale-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="resale-row">
          <Field
            label={t('form.owner')}
            htmlFor="resale-owner"
            hint={t('form.ownerHint')}
            className="resale-owner"
          >
            {({ id, describedBy }) => (
              <select
                id={id}
                className="select"
                aria-describedby={describedBy}
                value={draft.account}
                disabled={props.editing !== null}
                onChange={(e) => set({ account: e.currentTarget.value })}
                data-testid="resale-owner"
              >
                <option value="">{t('desk')}</option>
                {props.accounts.map((a) => (
                  <option key={a.id} value={a.name}>
                    {accountLabel(a.name)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('form.carrier')} htmlFor="resale-carrier" className="resale-carrier">
            {({ id }) => (
              <select
                id={id}
                className="select"
                value={draft.carrier}
                disabled={props.editing !== null}
                onChange={(e) => set({ carrier: e.currentTarget.value })}
                data-testid="resale-carrier"
              >
                <option value="">{t('allCarriers')}</option>
                {props.carriers.map((c) => (
                  <option key={c.code} value={c.code}>
                    {props.carrierText({ carrier: c.code })}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        {replaces ? (
          <p className="field-hint resale-replaces" data-testid="resale-replaces">
            {t('form.replaces')}
          </p>
        ) : null}
        <div className="resale-row">
          <Field
            label={t('form.percent')}
            htmlFor="resale-percent"
            error={errors.percent ? t(`err.${errors.percent}`) : undefined}
            className="resale-sum resale-percent"
          >
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                inputMode="decimal"
                autoComplete="off"
                value={draft.percent}
                invalid={invalid}
                aria-describedby={describedBy}
                placeholder="0"
                onChange={(e) => set({ percent: e.currentTarget.value })}
                data-testid="resale-percent"
              />
            )}
          </Field>
          {SUMS.map((s) => sumField(s.field, t(s.label)))}
        </div>
        <div className="resale-row">
          {sumField('min', t('form.min'), t('form.limitHint'))}
          {sumField('max', t('form.max'), t('form.limitHint'))}
          <Field label={t('form.rounding')} htmlFor="resale-rounding" className="resale-rounding">
            {({ id }) => (
              <select
                id={id}
                className="select"
                value={draft.rounding}
                onChange={(e) => set({ rounding: e.currentTarget.value as Rounding })}
                data-testid="resale-rounding"
              >
                {ROUNDINGS.map((r) => (
                  <option key={r} value={r}>
                    {t(`round.${r}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="resale-preview" aria-live="polite" data-testid="resale-preview">
          <span className="field-label" title={t('form.previewHint')}>
            {t('form.preview')}
          </span>
          {preview ? (
            <ul>
              {preview.map((p) => (
                <li key={p.from}>
                  <span className="muted">{formatMoney(p.from, lang)}</span> →{' '}
                  <strong className="num">{formatMoney(p.to, lang)}</strong>
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted">{t('none')}</span>
          )}
        </div>
        {formError ? (
          <div className="form-error" role="alert" data-testid="resale-form-error">
            {formError}
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}
