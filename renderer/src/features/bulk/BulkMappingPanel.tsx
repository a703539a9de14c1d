// The columns of a bulk file (#21 item 6): each shipment field with the file's column it is read from (a
// select per field, «нет в файле» for none), the first rows under the header, and every bad row by its number.
import type { ReactNode } from 'react';
import type { BulkField, BulkMapping, BulkParseResult } from '../../../../core/desk/contract';
import { useT, type MessageKey } from '../../i18n';
import { MAPPING_FIELDS, problemParams, remap } from './logic';

export function BulkMappingPanel(props: {
  parsed: BulkParseResult;
  disabled: boolean;
  originCity: string;
  onOriginCity: (city: string) => void;
  onMapping: (mapping: BulkMapping) => void;
}): ReactNode {
  const t = useT('bulk');
  const { parsed } = props;
  const fieldName = (f: string): string => t(`bulk.field.${f as BulkField}` as MessageKey);
  return (
    <div className="bulk-mapping">
      <section aria-labelledby="bulk-mapping-title">
        <h2 id="bulk-mapping-title">{t('mapping')}</h2>
        <p className="muted">{t('mappingHint')}</p>
        <div className="bulk-fields">
          {MAPPING_FIELDS.map((field) => (
            <label key={field} className="bulk-field">
              <span>{fieldName(field)}</span>
              <select
                value={parsed.mapping[field] ?? ''}
                disabled={props.disabled}
                data-testid={`bulk-map-${field}`}
                onChange={(e) =>
                  props.onMapping(
                    remap(parsed.mapping, field, e.target.value === '' ? null : Number(e.target.value)),
                  )
                }
              >
                <option value="">{t('notUsed')}</option>
                {parsed.columns.map((c, i) => (
                  <option key={i} value={i}>
                    {c || `#${i + 1}`}
                  </option>
                ))}
              </select>
            </label>
          ))}
          <label className="bulk-field">
            <span>{t('originCity')}</span>
            <input
              type="text"
              defaultValue={props.originCity}
              disabled={props.disabled}
              data-testid="bulk-origin"
              onBlur={(e) => {
                if (e.target.value !== props.originCity) props.onOriginCity(e.target.value);
              }}
            />
          </label>
        </div>
      </section>
      <section aria-labelledby="bulk-preview-title" className="bulk-preview">
        <h2 id="bulk-preview-title">{t('preview')}</h2>
        <div className="bulk-scroll">
          <table className="table" data-testid="bulk-preview">
            <thead>
              <tr>
                <th scope="col">{t('line')}</th>
                {parsed.columns.map((c, i) => (
                  <th key={i} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {parsed.preview.map((r) => (
                <tr key={r.line}>
                  <td>{r.line}</td>
                  {parsed.columns.map((_c, i) => (
                    <td key={i}>{r.fields[i] ?? ''}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {parsed.problems.length > 0 ? (
        <section className="bulk-problems" aria-labelledby="bulk-problems-title" data-testid="bulk-problems">
          <h2 id="bulk-problems-title">
            {t('problemsTitle', { n: Math.max(parsed.bad_rows, parsed.problems.length) })}
          </h2>
          <ul>
            {parsed.problems.map((p, i) => (
              <li key={i}>
                {t('problemLine', {
                  line: p.line,
                  text: t(`bulk.problem.${p.kind}` as MessageKey, problemParams(p, fieldName)),
                })}
              </li>
            ))}
          </ul>
          {parsed.more_problems > 0 ? <p>{t('moreProblems', { n: parsed.more_problems })}</p> : null}
        </section>
      ) : null}
    </div>
  );
}
