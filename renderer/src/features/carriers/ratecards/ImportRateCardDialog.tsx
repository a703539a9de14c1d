// Import (or replace) a rate card: a CSV or Excel file, checked by the core as soon as it is chosen
// (ratecards:check, the file's bytes: the core tells CSV from .xlsx) so every bad line is listed with its
// number in the UI language before anything is sent to be stored; then the code, the name and the volumetric
// divisor. A template (CSV or Excel, headers in the UI language) is a click away.
import {
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  DEFAULT_VOLUMETRIC_DIVISOR,
  type RateCardCheck,
  type RateCardView,
} from '../../../../../core/desk/contract';
import { call, DeskCallError } from '../../../api/client';
import { Button, Dialog, Field, FormDialogFooter, TextField, useToast } from '../../../components';
import { useLang, useT } from '../../../i18n';
import { bytesToBase64 } from '../../../lib/files';
import { useExplain } from '../../settings/kit';
import {
  checkCardForm,
  codeFromFileName,
  fileLevelProblem,
  hasProblems,
  MAX_FILE_BYTES,
  problemParams,
  problemsByLine,
  type CardFormProblems,
} from './logic';
import { TemplateLinks } from './TemplateLinks';

/** At most this many lines are listed; the count of the rest follows. */
const SHOWN_LINES = 200;

type FileState =
  | { status: 'none' }
  | { status: 'checking'; name: string }
  /** `bytes`: the file as chosen, base64 (CSV or .xlsx alike). */
  | { status: 'read'; name: string; bytes: string; check: RateCardCheck }
  | { status: 'failed'; name: string; message: string };

export function ImportRateCardDialog(props: {
  open: boolean;
  /** The card being replaced (its code and name are filled in), or null for a new one. */
  replacing: RateCardView | null;
  existing: readonly RateCardView[];
  onClose: () => void;
  onImported: (card: RateCardView) => void;
}): ReactNode {
  const t = useT('ratecards');
  const toast = useToast();
  const explain = useExplain();
  const [file, setFile] = useState<FileState>({ status: 'none' });
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [divisor, setDivisor] = useState(String(DEFAULT_VOLUMETRIC_DIVISOR));
  const [problems, setProblems] = useState<CardFormProblems>({});
  const [fileError, setFileError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  /** The core refused the code as a built-in carrier's (only it knows the list). */
  const [codeBuiltIn, setCodeBuiltIn] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const problemList = useRef<HTMLDivElement>(null);
  const { open, replacing } = props;

  useEffect(() => {
    if (!open) return;
    setFile({ status: 'none' });
    setCode(replacing?.code ?? '');
    setName(replacing?.name ?? '');
    setDivisor(String(replacing?.volumetric_divisor ?? DEFAULT_VOLUMETRIC_DIVISOR));
    setProblems({});
    setFileError(null);
    setFormError(null);
    setCodeBuiltIn(false);
  }, [open, replacing]);

  const onFile = async (e: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const f = e.currentTarget.files?.[0];
    // The same file chosen again after fixing it must still fire a change.
    e.currentTarget.value = '';
    setFileError(null);
    setFormError(null);
    if (!f) return;
    if (f.size > MAX_FILE_BYTES) {
      setFile({ status: 'failed', name: f.name, message: t('dialog.fileTooLarge') });
      return;
    }
    setFile({ status: 'checking', name: f.name });
    try {
      const bytes = bytesToBase64(new Uint8Array(await f.arrayBuffer()));
      const check = await call((api) => api.ratecards.check({ file: bytes }));
      setFile({ status: 'read', name: f.name, bytes, check });
      if (code.trim() === '' && !replacing) setCode(codeFromFileName(f.name));
    } catch (err) {
      setFile({ status: 'failed', name: f.name, message: explain(err) });
    }
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setFormError(null);
    const found = checkCardForm({ code, name, divisor });
    setProblems(found);
    if (file.status !== 'read') {
      setFileError(file.status === 'failed' ? file.message : t('dialog.pickFirst'));
      return;
    }
    if (file.check.problems.length > 0) {
      setFileError(t('dialog.fixFirst'));
      problemList.current?.focus();
      return;
    }
    if (hasProblems(found)) return;
    setBusy(true);
    try {
      const d = divisor.trim().replace(/[\s\u00a0]/g, '');
      const card = await call((api) =>
        api.ratecards.import({
          code: code.trim(),
          name: name.trim(),
          file: file.bytes,
          ...(d === '' ? {} : { volumetric_divisor: Number(d) }),
        }),
      );
      toast(t(card.replaced ? 'replaced' : 'imported', { name: card.name, rows: card.rows }));
      const { replaced: _replaced, ...view } = card;
      props.onImported(view);
      props.onClose();
    } catch (err) {
      // A built-in carrier's code is the one refusal that belongs to a field.
      if (err instanceof DeskCallError && err.code === 'conflict' && /built-in carrier/.test(err.detail)) {
        setCodeBuiltIn(true);
      } else {
        setFormError(explain(err));
      }
    } finally {
      setBusy(false);
    }
  };
  const replacesExisting =
    !replacing && props.existing.some((c) => c.code === code.trim()) ? code.trim() : null;
  const codeError = problems.code
    ? t(`form.code.${problems.code}`)
    : codeBuiltIn
      ? t('form.code.builtIn')
      : null;

  return (
    <Dialog
      open={open}
      title={replacing ? t('dialog.replaceTitle', { name: replacing.name }) : t('dialog.title')}
      onClose={props.onClose}
      width="min(720px, calc(100vw - 32px))"
      data-testid="ratecard-import-dialog"
      footer={
        <FormDialogFooter
          formId="ratecard-import-form"
          onCancel={props.onClose}
          busy={busy}
          submitLabel={replacing || replacesExisting ? t('dialog.submitReplace') : t('dialog.submit')}
          data-testid="ratecard-import-submit"
        />
      }
    >
      <form id="ratecard-import-form" className="stack" onSubmit={(e) => void submit(e)} noValidate>
        <Field label={t('dialog.file')} hint={t('dialog.fileHint')} error={fileError}>
          {({ id, describedBy }) => (
            <div className="file-picker">
              {/* The native control stays for the label and the tests; the button speaks the UI language. */}
              <input
                id={id}
                ref={input}
                type="file"
                className="sr-only"
                tabIndex={-1}
                accept=".csv,.txt,.xlsx,.xls,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                onChange={(e) => void onFile(e)}
                data-testid="ratecard-file"
              />
              <Button
                onClick={() => input.current?.click()}
                aria-describedby={describedBy}
                data-testid="ratecard-pick"
              >
                {t('dialog.pick')}
              </Button>
              <span className={file.status === 'none' ? 'muted' : undefined}>
                {file.status === 'none' ? t('dialog.noFile') : file.name}
              </span>
            </div>
          )}
        </Field>
        <TemplateLinks />
        <FileReport file={file} listRef={problemList} />
        <div className="form-row form-row-top">
          <TextField
            label={t('dialog.code')}
            hint={
              replacesExisting ? t('dialog.replaceNote', { code: replacesExisting }) : t('dialog.codeHint')
            }
            error={codeError}
            value={code}
            maxLength={40}
            disabled={replacing !== null}
            className="mono"
            onChange={(v) => {
              setCode(v);
              setCodeBuiltIn(false);
              setProblems((p) => ({ ...p, code: undefined }));
            }}
            data-testid="ratecard-code"
          />
          <TextField
            label={t('dialog.name')}
            hint={t('dialog.nameHint')}
            error={problems.name ? t(`form.name.${problems.name}`) : null}
            value={name}
            maxLength={80}
            onChange={(v) => {
              setName(v);
              setProblems((p) => ({ ...p, name: undefined }));
            }}
            data-testid="ratecard-name"
          />
          <TextField
            label={t('dialog.divisor')}
            hint={t('dialog.divisorHint')}
            error={problems.divisor ? t(`form.divisor.${problems.divisor}`) : null}
            value={divisor}
            inputMode="numeric"
            fieldClassName="field-narrow"
            onChange={(v) => {
              setDivisor(v);
              setProblems((p) => ({ ...p, divisor: undefined }));
            }}
            data-testid="ratecard-divisor"
          />
        </div>
        {formError ? (
          <div className="form-error" role="alert" data-testid="ratecard-import-error">
            {formError}
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}

/** What the core made of the chosen file: ready, or every bad line with its number and reasons. */
function FileReport(props: { file: FileState; listRef: RefObject<HTMLDivElement | null> }): ReactNode {
  const t = useT('ratecards');
  const { lang } = useLang();
  const { file } = props;
  if (file.status === 'checking') {
    return (
      <p className="field-hint" role="status" style={{ margin: 0 }}>
        {t('dialog.checking')}
      </p>
    );
  }
  if (file.status === 'failed') {
    return (
      <div className="form-error" role="alert" data-testid="ratecard-file-error">
        {file.message}
      </div>
    );
  }
  if (file.status !== 'read') return null;
  const { check } = file;
  if (check.problems.length === 0) {
    return (
      <p className="ratecard-file-ok" role="status" data-testid="ratecard-file-ok">
        {t('dialog.fileOk', { rows: check.rows, services: check.services })}
      </p>
    );
  }
  // An Excel 97–2003 file, a damaged workbook, an empty file: one sentence, no line numbers.
  const whole = fileLevelProblem(check.problems);
  if (whole) {
    return (
      <div
        className="form-error"
        ref={props.listRef}
        tabIndex={-1}
        role="alert"
        data-testid="ratecard-problems"
        data-kind={whole.kind}
      >
        {t(`problem.${whole.kind}`, problemParams(whole, lang))}
      </div>
    );
  }
  // The core lists the first problems only (MAX_LISTED_RATE_CARD_PROBLEMS) and counts the bad lines.
  const lines = problemsByLine(check.problems).slice(0, SHOWN_LINES);
  const hidden = check.bad_lines - lines.length;
  return (
    <div
      className="ratecard-problems"
      ref={props.listRef}
      tabIndex={-1}
      role="alert"
      aria-labelledby="ratecard-problems-title"
      data-testid="ratecard-problems"
    >
      <p id="ratecard-problems-title" className="error-text" style={{ margin: 0 }}>
        {t('dialog.fileBad', { lines: check.bad_lines })}
      </p>
      <ol className="ratecard-problem-list">
        {lines.map(([line, list]) => (
          <li key={line} data-line={line} data-testid="ratecard-problem">
            <span className="ratecard-problem-line">{t('dialog.lineLabel', { line })}:</span>{' '}
            {list.map((p) => t(`problem.${p.kind}`, problemParams(p, lang))).join('; ')}
          </li>
        ))}
      </ol>
      {hidden > 0 ? (
        <p className="field-hint" style={{ margin: 0 }} data-testid="ratecard-problems-more">
          {t('dialog.more', { count: hidden })}
        </p>
      ) : null}
    </div>
  );
}
