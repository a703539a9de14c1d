// One carrier: header (name, live status, on/off) and a body of independent sections. Each section gets the
// carrier's view and a way to report a new one; it decides itself whether it applies (credentials only for
// carriers that have an account). Later sections (rate cards, richer health) are added to CARD_SECTIONS.
import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import type { CarrierView, OperationName } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useCan, useServerGate } from '../../app/company';
import { Badge, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { Switch, useExplain } from '../settings/kit';
import { STATUS_TONE } from './logic';
import { EndpointSection } from './sections/EndpointSection';
import { CredentialsSection } from './sections/CredentialsSection';
import { CheckSection } from './sections/CheckSection';
import { HealthSection } from './sections/HealthSection';
import type { SectionProps } from './sections/types';
import { scrollIntoMain } from '../../lib/scroll';

interface CardSection {
  key: string;
  /** Company mode (#20): the operation the section runs; hidden from a role that may not (the role table). */
  needs?: OperationName;
  applies: (c: CarrierView) => boolean;
  render: (props: SectionProps) => ReactNode;
}

const CARD_SECTIONS: readonly CardSection[] = [
  { key: 'health', applies: () => true, render: (p) => <HealthSection {...p} /> },
  // Where the carrier is reached: one control, an address of one's own typed under its choice (#17 item 9).
  {
    key: 'endpoint',
    needs: 'carriers:update',
    applies: () => true,
    render: (p) => <EndpointSection {...p} />,
  },
  {
    key: 'credentials',
    needs: 'carriers:update',
    applies: (c) => c.credentials !== null,
    render: (p) => <CredentialsSection {...p} />,
  },
  // Last: it checks what the sections above set (address, account).
  { key: 'check', needs: 'carriers:check', applies: () => true, render: (p) => <CheckSection {...p} /> },
];

export function CarrierCard(props: SectionProps & { focused?: boolean }): ReactNode {
  const t = useT('carriers');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const { carrier, onChange, focused } = props;
  const [busy, setBusy] = useState(false);
  const can = useCan();
  const gate = useServerGate();
  const root = useRef<HTMLElement>(null);

  // Opened from a quote's "switch on" link (#/carriers/<code>): this card comes into view with its switch
  // focused, so Space turns the carrier on.
  useEffect(() => {
    if (!focused) return;
    if (root.current) scrollIntoMain(root.current, 'auto');
    root.current?.querySelector<HTMLElement>('[role="switch"]')?.focus({ preventScroll: true });
  }, [focused]);

  const toggle = async (enabled: boolean): Promise<void> => {
    setBusy(true);
    try {
      const next = await call((api) => api.carriers.update({ code: carrier.code, enabled }));
      onChange(next);
      toast(t(enabled ? 'enabledToast' : 'disabledToast', { name: carrier.name }));
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      ref={root}
      className={`card${focused ? ' card-focused' : ''}`}
      tabIndex={-1}
      aria-labelledby={`carrier-${carrier.code}-title`}
      data-testid={`carrier-card-${carrier.code}`}
      data-enabled={carrier.enabled ? 'true' : 'false'}
    >
      <header className="card-head">
        {/* The wire code (`cdek`) is for /v1 and the CLI, not a word of the UI (#17 item 9): a tooltip, not a label. */}
        <h2
          className="card-title"
          id={`carrier-${carrier.code}-title`}
          title={t('codeHint', { code: carrier.code })}
        >
          {carrier.name}
        </h2>
        <StatusBadge carrier={carrier} />
        {!carrier.enabled ? <Badge tone="warn">{t('disabledBadge')}</Badge> : null}
        {carrier.limits_unverified ? (
          <Badge
            tone="neutral"
            title={carrier.limits_unverified[lang]}
            data-testid={`carrier-limits-unverified-${carrier.code}`}
          >
            {t('limitsUnverified')}
          </Badge>
        ) : null}
        {/* Only live mode asks carriers with an account: in the sandbox a simulator answers, nothing is missing. */}
        {!props.sandbox && carrier.credentials && !carrier.credentials.configured ? (
          <Badge tone="warn" data-testid={`carrier-needs-credentials-${carrier.code}`}>
            {t('needsCredentials')}
          </Badge>
        ) : null}
        <div className="card-head-end">
          <Switch
            checked={carrier.enabled}
            onChange={(v) => void toggle(v)}
            busy={busy}
            // A clerk sees whether a carrier is on; switching it is the admin's. Offline: it waits.
            disabled={!can('carriers:update') || gate.blocked}
            label={t('enabledLabel', { name: carrier.name })}
            onText={t('enabledOn')}
            offText={t('enabledOff')}
            data-testid={`carrier-enabled-${carrier.code}`}
          />
        </div>
      </header>
      <div className="card-body">
        {CARD_SECTIONS.filter((s) => s.applies(carrier) && (!s.needs || can(s.needs))).map((s) => (
          <Fragment key={s.key}>{s.render({ carrier, sandbox: props.sandbox, onChange })}</Fragment>
        ))}
      </div>
      {!carrier.enabled ? <div className="card-foot">{t('disabledNote')}</div> : null}
    </article>
  );
}

function StatusBadge({ carrier }: { carrier: CarrierView }): ReactNode {
  const t = useT('carriers');
  return (
    <Badge
      tone={STATUS_TONE[carrier.status]}
      title={t(`statusHint.${carrier.status}`)}
      data-testid={`carrier-card-status-${carrier.code}`}
    >
      <span data-status={carrier.status}>{t(`status.${carrier.status}`)}</span>
    </Badge>
  );
}
