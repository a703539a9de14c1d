// The two dialogs of the API-keys tab. Create: name + account → the secret, shown this once with a copy
// button and a warning; closing the dialog drops it from memory. Import: a pasted secret, or a file holding
// either one secret or a RateDesk export document.
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import type { AccountView, CreatedKey, DeskInput } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { Button, Dialog, Field, FormDialogFooter, Input, useToast } from '../../components';
import { useT } from '../../i18n';
import { RadioGroup, useCopy, useExplain } from './kit';
import { checkKeyName, classifyImport, nameFromFile, type ImportClass, type KeyNameProblem } from './logic';

function defaultAccount(accounts: readonly AccountView[]): string {
  return accounts.find((a) => a.name === 'default')?.name ?? accounts[0]?.name ?? '';
}

function AccountSelect(props: {
  accounts: readonly AccountView[];
  value: string;
  onChange: (v: string) => void;
  'data-testid'?: string;
}): ReactNode {
  const t = useT('settings');
  return (
    <Field label={t('keyForm.account')} hint={t('keyForm.accountHint')}>
      {({ id, describedBy }) => (
        <select
          id={id}
          className="select"
          aria-describedby={describedBy}
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
          data-testid={props['data-testid']}
        >
          {props.accounts.map((a) => (
            <option key={a.id} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function CreateKeyDialog(props: {
  open: boolean;
  accounts: readonly AccountView[];
  onClose: () => void;
  onCreated: () => void;
}): ReactNode {
  const t = useT('settings');
  const explain = useExplain();
  const copy = useCopy();
  const [name, setName] = useState('');
  const [account, setAccount] = useState('');
  const [nameProblem, setNameProblem] = useState<KeyNameProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [copied, setCopied] = useState(false);
  const copyRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (props.open && account === '') setAccount(defaultAccount(props.accounts));
  }, [props.open, props.accounts, account]);

  // Once the secret is on screen, Enter copies it: the copy button takes the focus.
  useEffect(() => {
    if (created) copyRef.current?.focus();
  }, [created]);

  const close = (): void => {
    // The secret lives only in this component's state: closing forgets it for good.
    setCreated(null);
    setCopied(false);
    setName('');
    setNameProblem(null);
    setFormError(null);
    props.onClose();
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const p = checkKeyName(name);
    setNameProblem(p);
    if (p) return;
    if (account === '') {
      setFormError(t('keyForm.noAccount'));
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const key = await call((api) => api.keys.create({ account, name: name.trim() }));
      setCreated(key);
      props.onCreated();
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={props.open}
      title={created ? t('create.doneTitle', { name: created.name }) : t('create.title')}
      onClose={close}
      width="min(620px, calc(100vw - 32px))"
      data-testid="key-create-dialog"
      footer={
        created ? (
          <Button variant={copied ? 'primary' : 'secondary'} onClick={close} data-testid="key-create-close">
            {copied ? t('create.closeCopied') : t('create.close')}
          </Button>
        ) : (
          <FormDialogFooter
            formId="key-create-form"
            onCancel={close}
            busy={busy}
            submitLabel={t('create.submit')}
            data-testid="key-create-submit"
          />
        )
      }
    >
      {created ? (
        <div className="stack">
          <div className="warning-box" role="alert" data-testid="key-secret-warning">
            <strong>{t('create.warnTitle')}</strong>
            {t('create.warnBody')}
          </div>
          <Field label={t('create.secretLabel', { account: created.account })}>
            {({ id }) => (
              <div className="secret-line">
                <input
                  id={id}
                  className="input mono secret-input"
                  readOnly
                  value={created.secret}
                  onFocus={(e) => e.currentTarget.select()}
                  spellCheck={false}
                  data-testid="key-secret"
                />
                <Button
                  variant="primary"
                  ref={copyRef}
                  onClick={() => void copy(created.secret, t('create.copied')).then(() => setCopied(true))}
                  data-testid="key-secret-copy"
                >
                  {t('create.copy')}
                </Button>
              </div>
            )}
          </Field>
          <p className="field-hint" style={{ margin: 0 }}>
            {t('create.useHint')}
          </p>
        </div>
      ) : (
        <form id="key-create-form" className="stack" onSubmit={(e) => void submit(e)} noValidate>
          <Field
            label={t('keyForm.name')}
            hint={t('keyForm.nameHint')}
            error={nameProblem ? t(`keyName.${nameProblem}`) : null}
          >
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                invalid={invalid}
                value={name}
                maxLength={80}
                onChange={(e) => {
                  setName(e.currentTarget.value);
                  setNameProblem(null);
                }}
                data-testid="key-create-name"
              />
            )}
          </Field>
          <AccountSelect
            accounts={props.accounts}
            value={account}
            onChange={setAccount}
            data-testid="key-create-account"
          />
          {formError ? (
            <div className="form-error" role="alert">
              {formError}
            </div>
          ) : null}
        </form>
      )}
    </Dialog>
  );
}

type ImportMode = 'paste' | 'file';

export function ImportKeyDialog(props: {
  open: boolean;
  accounts: readonly AccountView[];
  onClose: () => void;
  onImported: () => void;
}): ReactNode {
  const t = useT('settings');
  const toast = useToast();
  const explain = useExplain();
  const [mode, setMode] = useState<ImportMode>('paste');
  const [account, setAccount] = useState('');
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const [file, setFile] = useState<{ name: string; content: ImportClass } | null>(null);
  const [nameProblem, setNameProblem] = useState<KeyNameProblem | null>(null);
  const [secretError, setSecretError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (props.open && account === '') setAccount(defaultAccount(props.accounts));
  }, [props.open, props.accounts, account]);

  const reset = (): void => {
    setName('');
    setSecret('');
    setFile(null);
    setNameProblem(null);
    setSecretError(null);
    setFormError(null);
  };

  const close = (): void => {
    reset();
    setMode('paste');
    props.onClose();
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const f = e.currentTarget.files?.[0];
    setFormError(null);
    setSecretError(null);
    if (!f) {
      setFile(null);
      return;
    }
    if (f.size > 50_000_000) {
      setFile({ name: f.name, content: { kind: 'invalid', problem: 'notExport' } });
      return;
    }
    const content = classifyImport(await f.text());
    setFile({ name: f.name, content });
    if (content.kind === 'secret' && name.trim() === '') setName(nameFromFile(f.name));
  };

  /** What will be sent, or the reason nothing can be. */
  const current: ImportClass | null =
    mode === 'paste' ? (secret.trim() === '' ? null : classifyImport(secret)) : (file?.content ?? null);
  const needsAccount = current === null || current.kind !== 'document';

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setFormError(null);
    if (current === null) {
      setSecretError(mode === 'paste' ? t('import.problem.empty') : t('import.noFile'));
      return;
    }
    if (current.kind === 'invalid') {
      setSecretError(t(`import.problem.${current.problem}`));
      return;
    }
    let input: DeskInput<'keys:import'>;
    if (current.kind === 'document') {
      input = { document: current.text };
    } else {
      const p = checkKeyName(name);
      setNameProblem(p);
      if (p) return;
      if (account === '') {
        setFormError(t('keyForm.noAccount'));
        return;
      }
      input = { account, name: name.trim(), secret: current.secret };
    }
    setBusy(true);
    try {
      const r = await call((api) => api.keys.import(input));
      if (r.key) toast(t('import.doneKey', { name: r.key.name, account: r.key.account }));
      else {
        toast(t('import.doneDoc', { imported: r.imported, skipped: r.skipped }));
        if (r.accounts_created.length > 0) {
          toast(t('import.accountsCreated', { list: r.accounts_created.join(', ') }));
        }
      }
      props.onImported();
      close();
    } catch (err) {
      setFormError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const fileSummary = ((): ReactNode => {
    if (!file) return null;
    const c = file.content;
    if (c.kind === 'document') return t('import.fileDoc', { file: file.name, count: c.count });
    if (c.kind === 'secret') return t('import.fileKey', { file: file.name });
    return <span className="error-text">{t(`import.problem.${c.problem}`)}</span>;
  })();

  return (
    <Dialog
      open={props.open}
      title={t('import.title')}
      onClose={close}
      width="min(620px, calc(100vw - 32px))"
      data-testid="key-import-dialog"
      footer={
        <FormDialogFooter
          formId="key-import-form"
          onCancel={close}
          busy={busy}
          submitLabel={t('import.submit')}
          data-testid="key-import-submit"
        />
      }
    >
      <form id="key-import-form" className="stack" onSubmit={(e) => void submit(e)} noValidate>
        <RadioGroup
          name="import-mode"
          legend={t('import.mode')}
          value={mode}
          onChange={(m) => {
            reset();
            setMode(m);
          }}
          options={[
            { value: 'paste', label: t('import.paste') },
            { value: 'file', label: t('import.file') },
          ]}
          data-testid="key-import-mode"
        />
        {mode === 'paste' ? (
          <Field label={t('import.secret')} hint={t('import.secretHint')} error={secretError}>
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                aria-describedby={describedBy}
                invalid={invalid}
                type="password"
                autoComplete="off"
                className="mono"
                value={secret}
                onChange={(e) => {
                  setSecret(e.currentTarget.value);
                  setSecretError(null);
                }}
                data-testid="key-import-secret"
              />
            )}
          </Field>
        ) : (
          <Field
            label={t('import.chooseFile')}
            hint={fileSummary ?? t('import.fileHint')}
            error={secretError}
          >
            {({ id, describedBy }) => (
              <div className="file-picker">
                {/* The native control stays for the label and the tests; the button speaks the UI language. */}
                <input
                  id={id}
                  ref={fileRef}
                  type="file"
                  className="sr-only"
                  tabIndex={-1}
                  accept=".json,.txt,.key,text/plain,application/json"
                  onChange={(e) => void onFile(e)}
                  data-testid="key-import-file"
                />
                <Button
                  onClick={() => fileRef.current?.click()}
                  aria-describedby={describedBy}
                  data-testid="key-import-pick"
                >
                  {t('import.pick')}
                </Button>
                <span className={file ? undefined : 'muted'}>{file?.name ?? t('import.noFileChosen')}</span>
              </div>
            )}
          </Field>
        )}
        {needsAccount ? (
          <>
            <Field
              label={t('keyForm.name')}
              hint={t('import.nameHint')}
              error={nameProblem ? t(`keyName.${nameProblem}`) : null}
            >
              {({ id, describedBy, invalid }) => (
                <Input
                  id={id}
                  aria-describedby={describedBy}
                  invalid={invalid}
                  value={name}
                  maxLength={80}
                  onChange={(e) => {
                    setName(e.currentTarget.value);
                    setNameProblem(null);
                  }}
                  data-testid="key-import-name"
                />
              )}
            </Field>
            <AccountSelect
              accounts={props.accounts}
              value={account}
              onChange={setAccount}
              data-testid="key-import-account"
            />
          </>
        ) : (
          <p className="field-hint" style={{ margin: 0 }}>
            {t('import.docHint')}
          </p>
        )}
        {formError ? (
          <div className="form-error" role="alert" data-testid="key-import-error">
            {formError}
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}
