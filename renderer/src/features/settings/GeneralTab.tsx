// Settings → General: language, theme, sandbox/live switch (with a warning before going live), the
// carriers the quote form preselects, box presets, and where the data lives.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { CarrierView, SettingView } from '../../../../core/desk/contract';
import { loadQuoteCarriers, type QuoteCarrier } from '../../api/quote-carriers';
import { call, hasDeskApi } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { useCan } from '../../app/company';
import { useApp, type Theme } from '../../app/context';
import { hrefFor } from '../../app/router';
import { Banner, Button, Checkbox, Dialog, ErrorState, LoadingState, useToast } from '../../components';
import { useLang, useT, type Lang } from '../../i18n';
import { namedIn } from '../../lib/carrier-names';
import { BoxPresetsEditor } from './BoxPresetsEditor';
import { CopyBlock, Labeled, RadioGroup, Section, Switch, useExplain } from './kit';

function valueOf(list: readonly SettingView[] | undefined, name: string): SettingView | undefined {
  return list?.find((s) => s.name === name);
}

export function GeneralTab(): ReactNode {
  const t = useT('settings');
  const { lang, setLang } = useLang();
  const { info, theme, setTheme } = useApp();
  const can = useCan();
  const settings = useDeskQuery((api) => api.settings.get(), []);
  const carriers = useDeskQuery((api) => api.carriers.list(), []);
  // The preselection offers rate cards too: they are quoted like any carrier.
  const [quoteCarriers, setQuoteCarriers] = useState<QuoteCarrier[] | undefined>(undefined);
  useEffect(() => {
    if (!hasDeskApi()) return;
    let live = true;
    loadQuoteCarriers()
      .then((list) => {
        if (live) setQuoteCarriers(list);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  // Carrier names in the UI language, for both lists below (lib/carrier-names.ts).
  const builtIn = carriers.state.data;
  const namedCarriers = useMemo(() => (builtIn ? namedIn(builtIn, lang) : undefined), [builtIn, lang]);
  const namedQuoteCarriers = useMemo(
    () => (quoteCarriers ? namedIn(quoteCarriers, lang) : undefined),
    [quoteCarriers, lang],
  );

  const patch = (view: SettingView): void =>
    settings.setData((list) => (list ?? []).map((s) => (s.name === view.name ? view : s)));

  return (
    <div className="stack" data-testid="general-tab">
      <div className="panel settings-panel">
        <Section title={t('general.interface')}>
          <div className="form-row" style={{ gap: 24 }}>
            <RadioGroup<Lang>
              name="ui-language"
              legend={t('general.language')}
              value={lang}
              onChange={setLang}
              options={[
                { value: 'ru', label: 'Русский' },
                { value: 'en', label: 'English' },
              ]}
              data-testid="settings-lang"
            />
            <RadioGroup<Theme>
              name="ui-theme"
              legend={t('general.theme')}
              value={theme}
              onChange={setTheme}
              options={[
                { value: 'system', label: t('general.theme.system') },
                { value: 'light', label: t('general.theme.light') },
                { value: 'dark', label: t('general.theme.dark') },
              ]}
              data-testid="settings-theme"
            />
          </div>
        </Section>
      </div>

      {/* Company mode (#20): sandbox or live is the server's, an admin's choice; the rest is this desk's own. */}
      {can('settings:set') ? (
        <div className="panel settings-panel">
          <SandboxSection carriers={namedCarriers} onSaved={patch} />
        </div>
      ) : null}

      {settings.state.data === undefined ? (
        settings.state.status === 'error' ? (
          <ErrorState
            error={settings.state.error}
            title={t('general.loadError')}
            onRetry={() => void settings.reload()}
          />
        ) : (
          <LoadingState />
        )
      ) : (
        <>
          <div className="panel settings-panel">
            <DefaultCarriers
              carriers={namedQuoteCarriers}
              value={valueOf(settings.state.data, 'ui.default_carriers')?.value ?? ''}
              onSaved={patch}
            />
          </div>
          <div className="panel settings-panel">
            <Section title={t('presets.title')} hint={t('presets.hint')}>
              <BoxPresetsEditor
                value={valueOf(settings.state.data, 'ui.box_presets')?.value ?? '[]'}
                defaultValue={valueOf(settings.state.data, 'ui.box_presets')?.default ?? '[]'}
                onSaved={(value) =>
                  settings.setData((list) =>
                    (list ?? []).map((s) => (s.name === 'ui.box_presets' ? { ...s, value } : s)),
                  )
                }
              />
            </Section>
          </div>
        </>
      )}

      <div className="panel settings-panel">
        <Section title={t('general.data')} hint={t('general.dataHint')}>
          {info ? (
            <>
              <Labeled label={t('general.dataDir')}>
                <CopyBlock text={info.dataDir} label={t('general.dataDir')} data-testid="data-dir" />
              </Labeled>
              <div className="muted" data-testid="app-version">
                {t('general.version', { version: info.version })}
              </div>
            </>
          ) : (
            <LoadingState />
          )}
        </Section>
      </div>
    </div>
  );
}

function SandboxSection(props: {
  carriers: CarrierView[] | undefined;
  onSaved: (v: SettingView) => void;
}): ReactNode {
  const t = useT('settings');
  const toast = useToast();
  const explain = useExplain();
  const { info, refreshInfo } = useApp();
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sandbox = info?.sandbox ?? true;

  const apply = async (on: boolean): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const saved = await call((api) => api.settings.set({ name: 'sandbox', value: on ? 'on' : 'off' }));
      props.onSaved(saved);
      await refreshInfo();
      setConfirm(false);
      toast(on ? t('sandbox.nowOn') : t('sandbox.nowOff'));
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const missing = (props.carriers ?? []).filter(
    (c) => c.enabled && c.credentials !== null && !c.credentials.configured,
  );

  return (
    <Section
      title={t('sandbox.title')}
      actions={
        <Switch
          checked={sandbox}
          busy={busy}
          disabled={!info}
          label={t('sandbox.switch')}
          onText={t('sandbox.switchOn')}
          offText={t('sandbox.switchOff')}
          onChange={(on) => (on ? void apply(true) : setConfirm(true))}
          data-testid="sandbox-switch"
        />
      }
    >
      {sandbox ? (
        <Banner tone="warning" inline data-testid="sandbox-banner">
          <strong>{t('sandbox.onTitle')}</strong> {t('sandbox.onBody')}
        </Banner>
      ) : (
        <Banner tone="info" inline data-testid="live-banner">
          <strong>{t('sandbox.offTitle')}</strong> {t('sandbox.offBody')}
        </Banner>
      )}
      {error ? (
        <div className="form-error" role="alert">
          {error}
        </div>
      ) : null}
      <Dialog
        open={confirm}
        title={t('sandbox.confirmTitle')}
        onClose={() => setConfirm(false)}
        initialFocus="[data-autofocus]"
        data-testid="sandbox-confirm"
        footer={
          <>
            <Button onClick={() => setConfirm(false)} data-autofocus="">
              {t('sandbox.stay')}
            </Button>
            <Button
              variant="danger"
              busy={busy}
              onClick={() => void apply(false)}
              data-testid="sandbox-confirm-live"
            >
              {t('sandbox.goLive')}
            </Button>
          </>
        }
      >
        <div className="stack">
          <div className="warning-box">
            <strong>{t('sandbox.warnTitle')}</strong>
            <ul className="plain-list">
              <li>{t('sandbox.warnReal')}</li>
              <li>{t('sandbox.warnPrices')}</li>
              <li>{t('sandbox.warnCdek')}</li>
            </ul>
          </div>
          {missing.length > 0 ? (
            <p style={{ margin: 0 }} data-testid="sandbox-missing-credentials">
              {t('sandbox.missing', { list: missing.map((c) => c.name).join(', ') })}{' '}
              <a href={hrefFor('carriers')} onClick={() => setConfirm(false)}>
                {t('sandbox.toCarriers')}
              </a>
            </p>
          ) : null}
          {error ? (
            <div className="form-error" role="alert">
              {error}
            </div>
          ) : null}
        </div>
      </Dialog>
    </Section>
  );
}

function DefaultCarriers(props: {
  carriers: QuoteCarrier[] | undefined;
  value: string;
  onSaved: (v: SettingView) => void;
}): ReactNode {
  const t = useT('settings');
  const toast = useToast();
  const explain = useExplain();
  // The tick shows at once; the stored value catches up (or the tick goes back with an error toast).
  const [optimistic, setOptimistic] = useState<string | null>(null);
  const chosen = (optimistic ?? props.value).split(',').filter(Boolean);

  const toggle = async (code: string, on: boolean): Promise<void> => {
    const all = props.carriers?.map((c) => c.code) ?? [];
    const current = chosen.length === 0 ? all : chosen;
    let next = on ? [...new Set([...current, code])] : current.filter((c) => c !== code);
    // Every carrier ticked is the same as "all" (the empty setting), which also follows carriers added later.
    if (all.every((c) => next.includes(c))) next = [];
    if (next.length === 0 && !on && all.length > 0) {
      toast(t('defaults.needOne'), 'error');
      return;
    }
    setOptimistic(next.join(','));
    try {
      const saved = await call((api) =>
        api.settings.set({ name: 'ui.default_carriers', value: next.join(',') }),
      );
      props.onSaved(saved);
      toast(t('defaults.saved'));
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setOptimistic(null);
    }
  };

  return (
    <Section
      title={t('defaults.title')}
      hint={chosen.length === 0 ? t('defaults.hintAll') : t('defaults.hint')}
    >
      {props.carriers === undefined ? (
        <LoadingState />
      ) : (
        <div
          className="form-actions"
          role="group"
          aria-label={t('defaults.title')}
          data-testid="default-carriers"
        >
          {props.carriers.map((c) => (
            <Checkbox
              key={c.code}
              checked={chosen.length === 0 || chosen.includes(c.code)}
              onChange={(on) => void toggle(c.code, on)}
              data-testid={`default-carrier-${c.code}`}
            >
              {c.name}
              {!c.enabled ? <span className="muted"> ({t('defaults.disabled')})</span> : null}
            </Checkbox>
          ))}
        </div>
      )}
    </Section>
  );
}
