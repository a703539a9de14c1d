// «Скачать шаблон: CSV · Excel» in the import dialog: a file to start from, made by the core
// (ratecards:template) with the headers in the UI language and two example rows that import as they are.
import { useState, type ReactNode } from 'react';
import { call } from '../../../api/client';
import { Button, useToast } from '../../../components';
import { useT } from '../../../i18n';
import { downloadFile } from '../../../lib/files';
import { useExplain } from '../../settings/kit';

export function TemplateLinks(): ReactNode {
  const t = useT('ratecards');
  const toast = useToast();
  const explain = useExplain();
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);

  const download = async (format: 'csv' | 'xlsx'): Promise<void> => {
    setBusy(format);
    try {
      downloadFile(await call((api) => api.ratecards.template({ format })));
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(null);
    }
  };

  return (
    <p className="ratecard-template" data-testid="ratecard-template">
      <span className="muted">{t('template.label')}</span>
      <Button
        size="sm"
        busy={busy === 'csv'}
        onClick={() => void download('csv')}
        aria-label={t('template.csvLabel')}
        data-testid="ratecard-template-csv"
      >
        CSV
      </Button>
      <Button
        size="sm"
        busy={busy === 'xlsx'}
        onClick={() => void download('xlsx')}
        aria-label={t('template.xlsxLabel')}
        data-testid="ratecard-template-xlsx"
      >
        Excel (.xlsx)
      </Button>
      <span className="muted">{t('template.hint')}</span>
    </p>
  );
}
