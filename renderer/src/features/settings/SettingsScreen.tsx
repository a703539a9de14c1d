// Настройки: three tabs — API keys, the /v1 listener, general. The tab is part of the address
// (#/settings/keys, #/settings/listener, #/settings/general), so links from other screens open the right one.
import type { ReactNode } from 'react';
import { navigate, useRoute } from '../../app/router';
import { useT } from '../../i18n';
import { GeneralTab } from './GeneralTab';
import { KeysTab } from './KeysTab';
import { ListenerTab } from './ListenerTab';
import { TabPanel, Tabs } from './kit';

const TABS = ['keys', 'listener', 'general'] as const;
type Tab = (typeof TABS)[number];

function isTab(v: string | undefined): v is Tab {
  return (TABS as readonly string[]).includes(v ?? '');
}

export function SettingsScreen(): ReactNode {
  const t = useT('settings');
  const route = useRoute();
  const first = route.params[0];
  const tab: Tab = isTab(first) ? first : 'keys';
  return (
    <div className="screen" data-testid="settings-screen">
      <h1 className="screen-title">{t('title')}</h1>
      <Tabs
        label={t('tabs.label')}
        idPrefix="settings"
        active={tab}
        onSelect={(key) => navigate('settings', key)}
        items={[
          { key: 'keys', label: t('tabs.keys') },
          { key: 'listener', label: t('tabs.listener') },
          { key: 'general', label: t('tabs.general') },
        ]}
      />
      <TabPanel idPrefix="settings" tab={tab}>
        {tab === 'keys' ? <KeysTab /> : tab === 'listener' ? <ListenerTab /> : <GeneralTab />}
      </TabPanel>
    </div>
  );
}
