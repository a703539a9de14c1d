// Настройки: tabs — API keys, the /v1 listener, general, the company server, the audit log. The tab is part
// of the address (#/settings/keys, #/settings/listener, #/settings/general), so links from other screens
// open the right one. In company mode a tab shows only to a role that may run its operation (#20, the one
// role table; a local desk shows them all).
import type { ReactNode } from 'react';
import type { OperationName } from '../../../../core/desk/contract';
import { useCan, useCompany } from '../../app/company';
import { navigate, useRoute } from '../../app/router';
import { useT } from '../../i18n';
import { AuditTab } from './AuditTab';
import { CompanyTab } from './CompanyTab';
import { CompanyUsersTab } from './CompanyUsersTab';
import { GeneralTab } from './GeneralTab';
import { KeysTab } from './KeysTab';
import { ListenerTab } from './ListenerTab';
import { ResaleTab } from './ResaleTab';
import { TabPanel, Tabs } from './kit';
import { WarehousesTab } from './WarehousesTab';

/** Each tab with the operation its person must be allowed to run to see it, and what it shows. */
const TABS = {
  keys: { needs: 'keys:list', render: () => <KeysTab /> },
  listener: { needs: 'listener:update', render: () => <ListenerTab /> },
  // Language, theme, presets and default carriers are the desk's own (ui.*, kept locally in company mode too).
  general: { needs: 'settings:get', render: () => <GeneralTab /> },
  warehouses: { needs: 'warehouses:list', render: () => <WarehousesTab /> },
  company: { needs: 'company:status', render: () => <CompanyTab /> },
  audit: { needs: 'audit:search', render: () => <AuditTab /> },
  // #21: the resale rules behind the customer's price (after the #20 tabs, whose keyboard order stays).
  resale: { needs: 'pricing:list', render: () => <ResaleTab /> },
  // People and devices exist on a company server only: the tab shows there, to whoever may list them.
  users: { needs: 'users:list', companyOnly: true, render: () => <CompanyUsersTab /> },
} as const satisfies Record<string, { needs: OperationName; companyOnly?: true; render: () => ReactNode }>;
type Tab = keyof typeof TABS;

export function SettingsScreen(): ReactNode {
  const t = useT('settings');
  const tc = useT('company');
  const tw = useT('warehouses');
  const tr = useT('resale');
  const can = useCan();
  const route = useRoute();
  const { status } = useCompany();
  const shown = (Object.keys(TABS) as Tab[]).filter(
    (k) => can(TABS[k].needs) && (!('companyOnly' in TABS[k]) || status.mode === 'company'),
  );
  const first = route.params[0];
  const tab: Tab = shown.find((k) => k === first) ?? shown[0] ?? 'company';
  const label: Record<Tab, string> = {
    keys: t('tabs.keys'),
    listener: t('tabs.listener'),
    general: t('tabs.general'),
    company: tc('tabs.company'),
    audit: tc('tabs.audit'),
    users: tc('tabs.users'),
    warehouses: tw('tab'),
    resale: tr('tab'),
  };
  return (
    <div className="screen" data-testid="settings-screen">
      <h1 className="screen-title">{t('title')}</h1>
      <Tabs
        label={t('tabs.label')}
        idPrefix="settings"
        active={tab}
        onSelect={(key) => navigate('settings', key)}
        items={shown.map((key) => ({ key, label: label[key] }))}
      />
      <TabPanel idPrefix="settings" tab={tab}>
        {TABS[tab].render()}
      </TabPanel>
    </div>
  );
}
