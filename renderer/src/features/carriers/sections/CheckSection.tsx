// The carrier's live check («Проверить»): the core runs its steps against the address and account above and
// reports each one; a failed step shows the carrier's answer and, in the UI language, what to look at.
import { useState, type ReactNode } from 'react';
import type { CarrierCheckReport, CarrierCheckStepReport } from '../../../../../core/desk/contract';
import { call } from '../../../api/client';
import { Button } from '../../../components';
import { useLang, useT } from '../../../i18n';
import { formatBytes, formatMoney, formatSeconds } from '../../../lib/format';
import { Section, useExplain } from '../../settings/kit';
import './check.css';
import type { SectionProps } from './types';

export function CheckSection({ carrier, sandbox }: SectionProps): ReactNode {
  const t = useT('carrierCheck');
  const explain = useExplain();
  const [report, setReport] = useState<CarrierCheckReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      setReport(await call((api) => api.carriers.check({ code: carrier.code })));
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section
      title={t('title')}
      hint={sandbox ? t('sandboxHint') : t('hint')}
      actions={
        <Button
          needsServer
          size="sm"
          busy={busy}
          onClick={() => void run()}
          data-testid={`carrier-check-${carrier.code}`}
        >
          {busy ? t('running') : report ? t('again') : t('run')}
        </Button>
      }
      className="check-section"
      data-testid={`carrier-check-section-${carrier.code}`}
    >
      {error ? (
        <p className="error-text" role="alert">
          {t('error')}: {error}
        </p>
      ) : null}
      {report ? <CheckReport report={report} /> : null}
    </Section>
  );
}

function CheckReport({ report }: { report: CarrierCheckReport }): ReactNode {
  const t = useT('carrierCheck');
  const { lang } = useLang();
  const failed = report.steps.find((s) => s.status === 'failed');
  const time = formatSeconds(report.ms, lang);
  return (
    <div className="check-report" data-testid={`carrier-check-report-${report.code}`} data-ok={report.ok}>
      <p className={failed ? 'error-text' : 'ok-text'} role="status">
        {report.steps.length === 0
          ? t('noSteps')
          : failed
            ? t('failed', { step: t(`kind.${failed.kind}`), time })
            : t('passed', { steps: t('steps', { n: report.steps.length }), time })}
      </p>
      <p className="field-hint">{t('target', { where: report.target.base_url ?? t('target.simulator') })}</p>
      <ol className="check-steps">
        {report.steps.map((step, i) => (
          <CheckStep key={i} step={step} />
        ))}
      </ol>
    </div>
  );
}

function CheckStep({ step }: { step: CarrierCheckStepReport }): ReactNode {
  const t = useT('carrierCheck');
  const { lang } = useLang();
  const mark = step.status === 'passed' ? '✓' : step.status === 'failed' ? '✕' : '–';
  return (
    <li className={`check-step check-step-${step.status}`} data-status={step.status} data-kind={step.kind}>
      <span className="check-mark" aria-label={t(`status.${step.status}`)}>
        {mark}
      </span>
      <span className="check-kind">{t(`kind.${step.kind}`)}</span>
      <span className="check-subject mono" title={step.subject}>
        {step.subject}
      </span>
      <span className="check-time num">{step.ms === null ? '' : formatSeconds(step.ms, lang)}</span>
      <div className="check-detail">
        {step.status === 'passed' && step.measure ? <Measure step={step} /> : null}
        {step.status === 'skipped' ? <span className="muted">{t('skippedNote')}</span> : null}
        {step.status === 'failed' ? (
          <>
            <div>
              {t('answer')}: <span className="mono">{step.error}</span>
            </div>
            <div className="field-hint">
              {t('lookAt')}: {step.hint[lang]}
            </div>
          </>
        ) : null}
      </div>
    </li>
  );
}

function Measure({ step }: { step: CarrierCheckStepReport }): ReactNode {
  const t = useT('carrierCheck');
  const { lang } = useLang();
  const m = step.measure!;
  const parts: string[] = [];
  if (m.bytes !== undefined) {
    parts.push(
      m.limit_bytes !== undefined
        ? t('bytes', { size: formatBytes(m.bytes, lang), limit: formatBytes(m.limit_bytes, lang) })
        : t('bytesOnly', { size: formatBytes(m.bytes, lang) }),
    );
  }
  if (m.items !== undefined) parts.push(t(step.kind === 'route' ? 'rates' : 'records', { n: m.items }));
  if (m.cheapest_kopecks !== undefined)
    parts.push(t('cheapest', { price: formatMoney(m.cheapest_kopecks, lang) }));
  if (m.note) parts.push(m.note[lang]);
  return <span className="muted">{parts.join(' · ')}</span>;
}
