// Create a key: name + account → the secret, shown this once with a copy button and a warning; closing the
// dialog drops it from memory.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { AccountView, CreatedKey } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { nameTaken } from './key-name';
import { useAccountLabel } from '../../app/account-name';
import { Button, Dialog, Field, FormDialogFooter, TextField } from '../../components';
import { useT } from '../../i18n';
import { AccountSelect, defaultAccount } from './AccountSelect';
import { useCopy, useExplain } from './kit';
import { checkKeyName, type KeyNameProblem } from './logic';

export function CreateKeyDialog(props: {
  open: boolean;
  accounts: readonly AccountView[];
  onClose: () => void;
  onCreated: () => void;
}): ReactNode {
  const t = useT('settings');
  const explain = useExplain();
  const copy = useCopy();
  const accountLabel = useAccountLabel();
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
      // A name already in use belongs to the name field, not to the bottom of the form.
      if (nameTaken(err)) setNameProblem('taken');
      else setFormError(explain(err));
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
          <Field label={t('create.secretLabel', { account: accountLabel(created.account) })}>
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
          <TextField
            label={t('keyForm.name')}
            hint={t('keyForm.nameHint')}
            error={nameProblem ? t(`keyName.${nameProblem}`) : null}
            value={name}
            maxLength={80}
            onChange={(v) => {
              setName(v);
              setNameProblem(null);
            }}
            data-testid="key-create-name"
          />
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
