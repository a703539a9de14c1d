// Import a key: a pasted secret, or a file holding either one secret or a RateDesk export document.
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import type { AccountView, DeskInput } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { nameTaken } from './key-name';
import { useAccountLabel } from '../../app/account-name';
import { Button, Dialog, Field, FormDialogFooter, TextField, useToast } from '../../components';
import { useT } from '../../i18n';
import { AccountSelect, defaultAccount } from './AccountSelect';
import { RadioGroup, useExplain } from './kit';
import { classifyImport, checkKeyName, nameFromFile, type ImportClass, type KeyNameProblem } from './logic';

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
  const accountLabel = useAccountLabel();
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
      if (r.key) toast(t('import.doneKey', { name: r.key.name, account: accountLabel(r.key.account) }));
      else {
        toast(t('import.doneDoc', { imported: r.imported, skipped: r.skipped }));
        if (r.accounts_created.length > 0) {
          toast(t('import.accountsCreated', { list: r.accounts_created.map(accountLabel).join(', ') }));
        }
      }
      props.onImported();
      close();
    } catch (err) {
      // A name already in use belongs to the name field, not to the bottom of the form.
      if (nameTaken(err)) setNameProblem('taken');
      else setFormError(explain(err));
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
          <TextField
            label={t('import.secret')}
            hint={t('import.secretHint')}
            error={secretError}
            type="password"
            autoComplete="off"
            className="mono"
            value={secret}
            onChange={(v) => {
              setSecret(v);
              setSecretError(null);
            }}
            data-testid="key-import-secret"
          />
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
            <TextField
              label={t('keyForm.name')}
              hint={t('import.nameHint')}
              error={nameProblem ? t(`keyName.${nameProblem}`) : null}
              value={name}
              maxLength={80}
              onChange={(v) => {
                setName(v);
                setNameProblem(null);
              }}
              data-testid="key-import-name"
            />
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
