// Small pieces shared by the administration screens (Carriers, Balance, Settings) that the common
// components/ do not have: an on/off switch, keyboard tabs, a copyable code block, a radio group drawn as a
// segmented control, a file download, and plain-language explanations of the core's refusals.
import { useCallback, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { accountLabel } from '../../app/account-name';
import { DeskCallError, errorMessage } from '../../api/client';
import { Button, copyText, useToast } from '../../components';
import { useLang, useT, type Lang, type ScopedT } from '../../i18n';
import './kit.css';

/** An on/off switch: a button with role="switch"; Space and Enter toggle it, the state is also written out. */
export function Switch(props: {
  checked: boolean;
  onChange: (next: boolean) => void;
  label: string;
  disabled?: boolean;
  busy?: boolean;
  /** Words shown beside the track; default "вкл" / "выкл". */
  onText?: string;
  offText?: string;
  'data-testid'?: string;
}): ReactNode {
  const t = useT('settings');
  const id = useId();
  return (
    <span className="switch-wrap">
      <button
        type="button"
        role="switch"
        id={id}
        aria-checked={props.checked}
        aria-label={props.label}
        aria-busy={props.busy || undefined}
        // Busy is not disabled: a disabled button would drop the keyboard focus mid-save.
        disabled={props.disabled}
        className="switch"
        onClick={() => {
          if (!props.busy) props.onChange(!props.checked);
        }}
        data-testid={props['data-testid']}
        data-checked={props.checked ? 'true' : 'false'}
      >
        <span className="switch-thumb" aria-hidden="true" />
      </button>
      <label htmlFor={id} className="switch-text">
        {props.checked ? (props.onText ?? t('switch.on')) : (props.offText ?? t('switch.off'))}
      </label>
    </span>
  );
}

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

/**
 * WAI-ARIA tabs with automatic activation: ←/→ move between tabs, Home/End jump; only the active tab is in
 * the Tab order, so Tab goes straight into the panel.
 */
export function Tabs<K extends string>(props: {
  items: readonly TabItem<K>[];
  active: K;
  onSelect: (key: K) => void;
  label: string;
  idPrefix: string;
}): ReactNode {
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const i = props.items.findIndex((x) => x.key === props.active);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % props.items.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + props.items.length) % props.items.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = props.items.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const key = props.items[next]!.key;
    props.onSelect(key);
    refs.current.get(key)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={props.label} onKeyDown={onKeyDown}>
      {props.items.map((item) => {
        const selected = item.key === props.active;
        return (
          <button
            key={item.key}
            ref={(el) => {
              if (el) refs.current.set(item.key, el);
              else refs.current.delete(item.key);
            }}
            type="button"
            role="tab"
            id={`${props.idPrefix}-tab-${item.key}`}
            aria-selected={selected}
            aria-controls={`${props.idPrefix}-panel-${item.key}`}
            tabIndex={selected ? 0 : -1}
            className="tab"
            onClick={() => props.onSelect(item.key)}
            data-testid={`tab-${item.key}`}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

export function TabPanel(props: { idPrefix: string; tab: string; children: ReactNode }): ReactNode {
  return (
    <div
      role="tabpanel"
      id={`${props.idPrefix}-panel-${props.tab}`}
      aria-labelledby={`${props.idPrefix}-tab-${props.tab}`}
      className="tab-panel"
      data-testid={`panel-${props.tab}`}
    >
      {props.children}
    </div>
  );
}

/** Copies text and says so in a toast (or says why it could not). */
export function useCopy(): (text: string, done?: string) => Promise<void> {
  const t = useT();
  const toast = useToast();
  return useCallback(
    async (text: string, done?: string) => {
      const ok = await copyText(text);
      toast(ok ? (done ?? t('common.copied')) : t('common.copyFailed'), ok ? 'info' : 'error');
    },
    [t, toast],
  );
}

/** A block of monospace text (a URL, a command) with a copy button beside it. */
export function CopyBlock(props: {
  text: string;
  label: string;
  copiedText?: string;
  multiline?: boolean;
  'data-testid'?: string;
}): ReactNode {
  const t = useT();
  const copy = useCopy();
  return (
    <div className={`copy-block${props.multiline ? ' copy-block-multi' : ''}`}>
      <code className="copy-text" data-testid={props['data-testid']}>
        {props.text}
      </code>
      <Button
        size="sm"
        onClick={() => void copy(props.text, props.copiedText)}
        aria-label={`${t('common.copy')}: ${props.label}`}
        data-testid={props['data-testid'] ? `${props['data-testid']}-copy` : undefined}
      >
        {t('common.copy')}
      </Button>
    </div>
  );
}

/**
 * A radio group drawn as a segmented control: native radios, so ←/→ move the choice and Tab leaves the
 * group, as a screen reader expects.
 */
export function RadioGroup<V extends string>(props: {
  name: string;
  legend: ReactNode;
  value: V;
  options: readonly { value: V; label: string; title?: string }[];
  onChange: (value: V) => void;
  disabled?: boolean;
  hideLegend?: boolean;
  'data-testid'?: string;
}): ReactNode {
  return (
    <fieldset className="radio-group" disabled={props.disabled} data-testid={props['data-testid']}>
      <legend className={props.hideLegend ? 'sr-only' : 'field-label'}>{props.legend}</legend>
      <div className="radio-segments">
        {props.options.map((o) => (
          <label key={o.value} className="radio-segment" title={o.title}>
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={props.value === o.value}
              onChange={() => props.onChange(o.value)}
              data-testid={props['data-testid'] ? `${props['data-testid']}-${o.value}` : undefined}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A heading with an optional line of explanation, used to split a card or a tab into sections. */
export function Section(props: {
  title: ReactNode;
  hint?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}): ReactNode {
  const id = useId();
  return (
    <section
      className={['section', props.className ?? ''].filter(Boolean).join(' ')}
      aria-labelledby={id}
      data-testid={props['data-testid']}
    >
      <div className="section-head">
        <h3 className="section-title" id={id}>
          {props.title}
        </h3>
        {props.actions ? <div className="section-actions">{props.actions}</div> : null}
      </div>
      {props.hint ? <p className="section-hint">{props.hint}</p> : null}
      {props.children}
    </section>
  );
}

/**
 * Saves text as a file through the browser's download (Electron shows its save dialog; the e2e test sees
 * a Playwright download). The object URL is released once the click has been handled.
 */
export function downloadText(filename: string, text: string, mime = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The core answers in English (its messages are shared with the admin CLI). The refusals a person meets on
 * these screens are recognised here and said in the UI language; anything else falls back to the shared
 * wording of api/client.ts, which still never shows a raw error object.
 */
const KNOWN: readonly {
  re: RegExp;
  key: Parameters<ScopedT<'settings'>>[0];
  /** An account is named through accountLabel (`default` reads «Основной»), as everywhere on screen. */
  params?: (m: RegExpExecArray, lang: Lang) => Record<string, string>;
}[] = [
  { re: /checksum does not match/i, key: 'err.checksum' },
  { re: /20 to 200 printable ASCII/i, key: 'err.foreignKey' },
  {
    re: /already stored as (key_[0-9A-Za-z]+) \((".*?"), account (".*?")\)/,
    key: 'err.duplicateKey',
    params: (m, lang) => ({ id: m[1]!, name: unquote(m[2]!), account: accountLabel(unquote(m[3]!), lang) }),
  },
  {
    re: /Account (".*?") already exists/,
    key: 'err.accountExists',
    params: (m, lang) => ({ name: accountLabel(unquote(m[1]!), lang) }),
  },
  {
    re: /No account named (".*?")/,
    key: 'err.noAccount',
    params: (m, lang) => ({ name: accountLabel(unquote(m[1]!), lang) }),
  },
  { re: /not a RateDesk key export file/i, key: 'err.notExport' },
  { re: /^format|format: |Invalid input: expected "ratedesk-keys"/i, key: 'err.notExport' },
  { re: /Port (\d+) is already in use/, key: 'err.portInUse', params: (m) => ({ port: m[1]! }) },
  { re: /not allow listening on port (\d+)/, key: 'err.portDenied', params: (m) => ({ port: m[1]! }) },
  {
    re: /could not start on (\S+)/,
    key: 'err.listenFailed',
    params: (m) => ({ where: m[1]!.replace(/\.$/, '') }),
  },
  { re: /base_url: /, key: 'err.url' },
  { re: /No key with id/, key: 'err.noKey' },
];

function unquote(s: string): string {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'string' ? v : s;
  } catch {
    return s;
  }
}

export function explainError(err: unknown, lang: Lang, t: ScopedT<'settings'>): string {
  if (err instanceof DeskCallError && err.detail) {
    for (const k of KNOWN) {
      const m = k.re.exec(err.detail);
      if (m) return t(k.key, k.params?.(m, lang));
    }
  }
  return errorMessage(err, lang);
}

/** explainError bound to the current language. */
export function useExplain(): (err: unknown) => string {
  const t = useT('settings');
  const { lang } = useLang();
  return useCallback((err: unknown) => explainError(err, lang, t), [lang, t]);
}

/** A caption above a read-only block (a URL, a command): like Field, but there is no control to label. */
export function Labeled(props: { label: ReactNode; hint?: ReactNode; children: ReactNode }): ReactNode {
  return (
    <div className="field">
      <span className="field-label">{props.label}</span>
      {props.children}
      {props.hint ? <div className="field-hint">{props.hint}</div> : null}
    </div>
  );
}
