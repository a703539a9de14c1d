// A server certificate's SHA-256 fingerprint as a person compares it with what the administrator reads out.
import type { ReactNode } from 'react';
import { Button } from '../../components';
import { useT } from '../../i18n';
import { fingerprintLines } from './company-logic';
import { useCopy } from './kit';

/** The fingerprint in four lines of eight bytes, monospace, with a copy button for the whole. */
export function Fingerprint(props: { value: string; 'data-testid'?: string }): ReactNode {
  const t = useT('company');
  const copy = useCopy();
  const testId = props['data-testid'] ?? 'company-fingerprint';
  return (
    <div className="fingerprint">
      <code className="fingerprint-lines" data-testid={testId} data-fingerprint={props.value}>
        {fingerprintLines(props.value).map((line, i) => (
          <span key={i} className="fingerprint-line">
            {line}
          </span>
        ))}
      </code>
      <Button
        size="sm"
        onClick={() => void copy(props.value)}
        aria-label={`${t('common.copy')}: ${t('cert.fingerprint')}`}
        data-testid={`${testId}-copy`}
      >
        {t('common.copy')}
      </Button>
    </div>
  );
}
