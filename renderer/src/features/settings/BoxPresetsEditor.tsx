// ui.box_presets: the boxes the quote form offers. A small table of editable rows; checked as a whole on
// save (unique names, sides as the quote form reads them), errors shown in the cell they belong to.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { call } from '../../api/client';
import { Button, Input, useToast } from '../../components';
import { useLang, useT, type Lang } from '../../i18n';
import { formatDecimal } from '../../lib/format';
import { parseBoxPresets, type BoxPreset } from '../quote/presets';
import { useExplain } from './kit';
import { MAX_PRESETS, checkPresets, type PresetDraft, type PresetErrors, type PresetField } from './logic';

export function toDrafts(presets: readonly BoxPreset[], lang: Lang, nextId: () => number): PresetDraft[] {
  return presets.map((p) => ({
    id: nextId(),
    name: p.name,
    length: formatDecimal(p.length_cm, lang),
    width: formatDecimal(p.width_cm, lang),
    height: formatDecimal(p.height_cm, lang),
  }));
}

export function BoxPresetsEditor(props: {
  value: string;
  defaultValue: string;
  onSaved: (json: string) => void;
}): ReactNode {
  const t = useT('settings');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const counter = useRef(1);
  const nextId = (): number => counter.current++;
  const [rows, setRows] = useState<PresetDraft[]>(() => toDrafts(parseBoxPresets(props.value), lang, nextId));
  const [errors, setErrors] = useState<PresetErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);
  const focusRow = useRef<number | null>(null);

  // A value saved elsewhere (or the first load) replaces the rows unless the user is editing them.
  useEffect(() => {
    if (!dirty) setRows(toDrafts(parseBoxPresets(props.value), lang, nextId));
    // Only a new stored value or language re-reads the rows; `dirty` is read, not watched.
  }, [props.value, lang]);

  useEffect(() => {
    if (focusRow.current === null) return;
    document.querySelector<HTMLInputElement>(`[data-preset-row="${focusRow.current}"] input`)?.focus();
    focusRow.current = null;
  });

  const edit = (id: number, field: PresetField, value: string): void => {
    setRows((list) => list.map((r) => (r.id === id ? { ...r, [field]: value } : r)));
    setErrors((e) => {
      if (!e[id]?.[field]) return e;
      const { [field]: _gone, ...rest } = e[id]!;
      return { ...e, [id]: rest };
    });
    setDirty(true);
  };

  const add = (): void => {
    const id = nextId();
    focusRow.current = id;
    setRows((list) => [...list, { id, name: '', length: '', width: '', height: '' }]);
    setDirty(true);
  };

  const remove = (id: number): void => {
    setRows((list) => list.filter((r) => r.id !== id));
    setDirty(true);
  };

  const move = (id: number, delta: -1 | 1): void => {
    setRows((list) => {
      const i = list.findIndex((r) => r.id === id);
      const j = i + delta;
      if (i < 0 || j < 0 || j >= list.length) return list;
      const copy = [...list];
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      return copy;
    });
    setDirty(true);
  };

  const save = async (json?: string): Promise<void> => {
    let value = json;
    if (value === undefined) {
      const checked = checkPresets(rows);
      setErrors(checked.errors);
      if (!checked.value) {
        setFormError(t('presets.fix'));
        return;
      }
      value = JSON.stringify(checked.value);
    }
    setBusy(true);
    setFormError(null);
    try {
      const saved = await call((api) => api.settings.set({ name: 'ui.box_presets', value: value! }));
      setDirty(false);
      setErrors({});
      setRows(toDrafts(parseBoxPresets(saved.value), lang, nextId));
      props.onSaved(saved.value);
      toast(t('presets.saved'));
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack" data-testid="box-presets">
      <PresetRowsTable rows={rows} errors={errors} onEdit={edit} onMove={move} onRemove={remove} />
      {formError ? (
        <div className="form-error" role="alert">
          {formError}
        </div>
      ) : null}
      <div className="form-actions">
        <Button onClick={add} disabled={rows.length >= MAX_PRESETS} data-testid="preset-add">
          {t('presets.add')}
        </Button>
        <Button
          variant={dirty ? 'primary' : 'secondary'}
          disabled={!dirty}
          busy={busy}
          onClick={() => void save()}
          data-testid="preset-save"
        >
          {t('presets.save')}
        </Button>
        <Button
          variant="ghost"
          onClick={() => void save(props.defaultValue)}
          disabled={busy || (props.value === props.defaultValue && !dirty)}
        >
          {t('presets.reset')}
        </Button>
        {dirty ? <span className="form-status">{t('presets.unsaved')}</span> : null}
      </div>
    </div>
  );
}

/**
 * The presets as an editable table (controlled): the General tab's box presets and a warehouse's own boxes
 * (#20) are the same rows, checked by the same checkPresets.
 */
export function PresetRowsTable(props: {
  rows: readonly PresetDraft[];
  errors: PresetErrors;
  onEdit: (id: number, field: PresetField, value: string) => void;
  onMove: (id: number, delta: -1 | 1) => void;
  onRemove: (id: number) => void;
}): ReactNode {
  const t = useT('settings');
  const { rows, errors } = props;
  const edit = props.onEdit;
  const move = props.onMove;
  const remove = props.onRemove;
  const cellError = (id: number, field: PresetField): string | null => {
    const p = errors[id]?.[field];
    return p ? t(`presets.err.${p}`) : null;
  };

  const cell = (row: PresetDraft, field: PresetField, label: string): ReactNode => {
    const err = cellError(row.id, field);
    const errId = `preset-${row.id}-${field}-error`;
    return (
      <td className={field === 'name' ? undefined : 'num'}>
        <Input
          value={row[field]}
          aria-label={`${label}, ${row.name || t('presets.unnamed')}`}
          invalid={Boolean(err)}
          aria-describedby={err ? errId : undefined}
          inputMode={field === 'name' ? undefined : 'decimal'}
          className={field === 'name' ? 'preset-name' : 'num preset-side'}
          maxLength={field === 'name' ? 60 : 8}
          onChange={(e) => edit(row.id, field, e.currentTarget.value)}
          data-testid={`preset-${field}`}
        />
        {err ? (
          <div className="field-error" id={errId}>
            {err}
          </div>
        ) : null}
      </td>
    );
  };

  return (
    <>
      {rows.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          {t('presets.empty')}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table presets-table">
            <caption className="sr-only">{t('presets.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('presets.name')}</th>
                <th scope="col" className="num">
                  {t('presets.length')}
                </th>
                <th scope="col" className="num">
                  {t('presets.width')}
                </th>
                <th scope="col" className="num">
                  {t('presets.height')}
                </th>
                <th scope="col">
                  <span className="sr-only">{t('presets.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={row.id} data-preset-row={row.id} data-testid="preset-row">
                  {cell(row, 'name', t('presets.name'))}
                  {cell(row, 'length', t('presets.length'))}
                  {cell(row, 'width', t('presets.width'))}
                  {cell(row, 'height', t('presets.height'))}
                  <td className="preset-actions">
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === 0}
                      onClick={() => move(row.id, -1)}
                      aria-label={t('presets.up', { name: row.name })}
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === rows.length - 1}
                      onClick={() => move(row.id, 1)}
                      aria-label={t('presets.down', { name: row.name })}
                    >
                      ↓
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => remove(row.id)}
                      aria-label={t('presets.remove', { name: row.name })}
                      data-testid="preset-remove"
                    >
                      ✕
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
