// Joining a company server (#20), in two steps a clerk can follow with the administrator on the phone:
// 1. the address → «Проверить» shows the server's certificate (SHA-256 fingerprint in four short lines,
//    subject, expiry) to compare with what the administrator reads out — or, instead, the company's CA file;
// 2. the one-time code and this desk's name → «Подключиться». Every refusal is said in plain words.
import { useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import type { ServerCertificate } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useCompany } from '../../app/company';
import { Badge, Banner, Button, Checkbox, Field, TextField, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { Fingerprint } from './CompanyFingerprint';
import { looksLikePem, normaliseCodeInput, parseCompanyUrl } from './company-logic';
import { useExplainCompany } from './company-errors';
import { Section } from './kit';

export function CompanyJoinForm(): ReactNode {
  const t = useT('company');
  const toast = useToast();
  const explain = useExplainCompany();
  const { setStatus } = useCompany();

  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [probing, setProbing] = useState(false);
  /** The certificate of `probedUrl`; typing another address forgets it. */
  const [cert, setCert] = useState<ServerCertificate | null>(null);
  const [probedUrl, setProbedUrl] = useState<string | null>(null);
  const [matches, setMatches] = useState(false);
  const [useCa, setUseCa] = useState(false);
  const [caPem, setCaPem] = useState('');
  const [caError, setCaError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  // Untouched: the default in the language on screen now (settings may switch it after the first render).
  const [deviceTyped, setDevice] = useState<string | null>(null);
  const device = deviceTyped ?? t('device.default');
  const [deviceError, setDeviceError] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const probe = async (e?: FormEvent): Promise<void> => {
    e?.preventDefault();
    const parsed = parseCompanyUrl(url);
    if (!parsed) {
      setUrlError(t('url.invalid'));
      return;
    }
    setUrlError(null);
    setError(null);
    setProbing(true);
    setCert(null);
    setMatches(false);
    try {
      const found = await call((api) => api.company.probe({ url: parsed }));
      setCert(found);
      setProbedUrl(parsed);
    } catch (err) {
      setError(explain(err));
    } finally {
      setProbing(false);
    }
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    const text = await file.text();
    setCaPem(text.trim());
    setCaError(looksLikePem(text) ? null : t('ca.invalid'));
    if (looksLikePem(text)) toast(t('ca.loaded', { name: file.name }));
  };

  const join = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const parsed = parseCompanyUrl(url);
    if (!parsed) {
      setUrlError(t('url.invalid'));
      return;
    }
    const codeText = code.trim();
    const deviceText = device.trim();
    setCodeError(codeText ? null : t('code.empty'));
    setDeviceError(deviceText ? null : t('device.empty'));
    if (!codeText || !deviceText) return;
    let trust: { fingerprint: string } | { ca_pem: string };
    if (useCa) {
      if (!looksLikePem(caPem)) {
        setCaError(t('ca.invalid'));
        return;
      }
      trust = { ca_pem: caPem };
    } else if (!cert || probedUrl !== parsed) {
      setError(t('join.needCheck'));
      return;
    } else if (!matches) {
      setError(t('join.needMatch'));
      return;
    } else {
      trust = { fingerprint: cert.fingerprint };
    }
    setError(null);
    setJoining(true);
    try {
      const next = await call((api) =>
        api.company.join({ url: parsed, code: codeText, device_name: deviceText, ...trust }),
      );
      toast(t('joined'));
      setStatus(next);
    } catch (err) {
      setError(explain(err));
    } finally {
      setJoining(false);
    }
  };

  const certShown = cert !== null && probedUrl === parseCompanyUrl(url);
  return (
    <div className="stack" data-testid="company-tab" data-mode="local">
      <p className="screen-lead">{t('lead.local')}</p>
      <div className="panel settings-panel">
        <Section title={t('step.server')} hint={t('step.serverHint')}>
          <form className="form-row form-row-top" onSubmit={(e) => void probe(e)} noValidate>
            <TextField
              label={t('url.label')}
              fieldClassName="company-url-field"
              className="mono"
              type="url"
              inputMode="url"
              placeholder="https://"
              value={url}
              error={urlError}
              onChange={(v) => {
                setUrl(v);
                setUrlError(null);
              }}
              data-testid="company-url-input"
            />
            <Button type="submit" busy={probing} data-testid="company-probe">
              {t('probe')}
            </Button>
          </form>
          {certShown && !useCa ? (
            <CertificateCard cert={cert} matches={matches} onMatches={setMatches} />
          ) : null}
          <div className="form-actions">
            <Button
              variant="ghost"
              size="sm"
              aria-expanded={useCa}
              onClick={() => {
                setUseCa((v) => !v);
                setError(null);
              }}
              data-testid="company-ca-toggle"
            >
              {useCa ? t('ca.close') : t('ca.open')}
            </Button>
          </div>
          {useCa ? (
            <div className="stack" data-testid="company-ca">
              <p className="section-hint">{t('ca.hint')}</p>
              <Field label={t('ca.label')} error={caError}>
                {({ id, describedBy, invalid }) => (
                  <textarea
                    id={id}
                    className="input mono company-ca-text"
                    rows={6}
                    spellCheck={false}
                    aria-describedby={describedBy}
                    aria-invalid={invalid || undefined}
                    placeholder="-----BEGIN CERTIFICATE-----"
                    value={caPem}
                    onChange={(e) => {
                      setCaPem(e.currentTarget.value);
                      setCaError(null);
                    }}
                    data-testid="company-ca-pem"
                  />
                )}
              </Field>
              <div className="form-actions">
                <input
                  ref={fileRef}
                  type="file"
                  className="sr-only"
                  tabIndex={-1}
                  accept=".pem,.crt,.cer,text/plain"
                  onChange={(e) => void onFile(e)}
                  data-testid="company-ca-file"
                />
                <Button size="sm" onClick={() => fileRef.current?.click()}>
                  {t('ca.file')}
                </Button>
              </div>
            </div>
          ) : null}
        </Section>
      </div>

      <div className="panel settings-panel">
        <Section title={t('step.join')} hint={t('step.joinHint')}>
          <form className="form-row form-row-top" onSubmit={(e) => void join(e)} noValidate>
            <TextField
              label={t('code.label')}
              hint={t('code.hint')}
              error={codeError}
              fieldClassName="company-code-field"
              className="mono"
              autoCapitalize="characters"
              placeholder="XXXX-XXXX-XXXX"
              value={code}
              onChange={(v) => {
                setCode(normaliseCodeInput(v));
                setCodeError(null);
              }}
              data-testid="company-code"
            />
            <TextField
              label={t('device.label')}
              hint={t('device.hint')}
              error={deviceError}
              fieldClassName="company-device-field"
              maxLength={80}
              value={device}
              onChange={(v) => {
                setDevice(v);
                setDeviceError(null);
              }}
              data-testid="company-device-name"
            />
            <Button type="submit" variant="primary" busy={joining} data-testid="company-join">
              {t('join')}
            </Button>
          </form>
          {error ? (
            <p className="form-error" role="alert" data-testid="company-error">
              {error}
            </p>
          ) : null}
        </Section>
      </div>
    </div>
  );
}

function CertificateCard(props: {
  cert: ServerCertificate;
  matches: boolean;
  onMatches: (v: boolean) => void;
}): ReactNode {
  const t = useT('company');
  const { lang } = useLang();
  const { cert } = props;
  const validTo = new Date(cert.valid_to);
  const known = !Number.isNaN(validTo.getTime());
  return (
    <div className="company-cert" data-testid="company-cert">
      <h4 className="company-cert-title">
        {t('cert.title')}
        {cert.trusted ? (
          <Badge tone="ok" title={t('cert.trustedHint')}>
            {t('cert.trusted')}
          </Badge>
        ) : null}
      </h4>
      <Banner tone="warning" inline>
        {t('cert.compare')}
      </Banner>
      <dl className="company-facts">
        <dt>{t('cert.fingerprint')}</dt>
        <dd>
          <Fingerprint value={cert.fingerprint} data-testid="company-cert-fingerprint" />
        </dd>
        <dt>{t('cert.subject')}</dt>
        <dd data-testid="company-cert-subject">{cert.subject}</dd>
        {cert.issuer && cert.issuer !== cert.subject ? (
          <>
            <dt>{t('cert.issuer')}</dt>
            <dd>{cert.issuer}</dd>
          </>
        ) : null}
        <dt>{t('cert.validTo')}</dt>
        <dd data-testid="company-cert-valid-to">
          {known ? formatDateTime(validTo.toISOString(), lang) : cert.valid_to}
          {known && validTo.getTime() < Date.now() ? (
            <>
              {' '}
              <Badge tone="danger">{t('cert.expired')}</Badge>
            </>
          ) : null}
        </dd>
      </dl>
      <Checkbox checked={props.matches} onChange={props.onMatches} data-testid="company-cert-match">
        {t('cert.match')}
      </Checkbox>
    </div>
  );
}
