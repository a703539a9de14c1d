// The account a key belongs to, as a select (the default account first when there is one).
import type { ReactNode } from 'react';
import type { AccountView } from '../../../../core/desk/contract';
import { useAccountLabel } from '../../app/account-name';
import { Field } from '../../components';
import { useT } from '../../i18n';

export function defaultAccount(accounts: readonly AccountView[]): string {
  return accounts.find((a) => a.name === 'default')?.name ?? accounts[0]?.name ?? '';
}

export function AccountSelect(props: {
  accounts: readonly AccountView[];
  value: string;
  onChange: (v: string) => void;
  'data-testid'?: string;
}): ReactNode {
  const t = useT('settings');
  const accountLabel = useAccountLabel();
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
              {accountLabel(a.name)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
