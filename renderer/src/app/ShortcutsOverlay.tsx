import type { ReactNode } from 'react';
import { Button, Dialog } from '../components';
import { useT, type MessageKey } from '../i18n';

/** Keys joined by '+' are pressed together; by '/' they are alternatives. */
const ROWS: [keys: string[], join: '+' | '/', what: MessageKey][] = [
  [['Enter'], '+', 'common.shortcuts.quote'],
  [['Ctrl', 'K'], '+', 'common.shortcuts.focusFrom'],
  [['Alt', 'S'], '+', 'common.shortcuts.swap'],
  [['Esc'], '+', 'common.shortcuts.clear'],
  [['Ctrl', 'Z'], '+', 'common.shortcuts.undo'],
  [['↑', '↓'], '/', 'common.shortcuts.move'],
  [['Ctrl', 'C'], '+', 'common.shortcuts.copy'],
  [['Alt', '1…6'], '+', 'common.shortcuts.screens'],
  [['F1', '?'], '/', 'common.shortcuts.help'],
];

export function ShortcutsOverlay(props: { open: boolean; onClose: () => void }): ReactNode {
  const t = useT();
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      title={t('common.shortcuts.title')}
      data-testid="shortcuts"
      footer={
        <Button variant="primary" onClick={props.onClose}>
          {t('common.ok')}
        </Button>
      }
    >
      <table className="shortcuts">
        <tbody>
          {ROWS.map(([keys, join, what]) => (
            <tr key={what}>
              <td>
                {keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? ` ${join} ` : null}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{t(what)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
