// Getting a quote out of the Quote screen (#17 item 5): «Копировать» puts the table on the clipboard as
// tab-separated columns for Excel and 1С (copy-tsv.ts), «Копировать как текст» as readable lines
// (copy-text.ts), and «Скачать CSV / XLSX» saves the stored quote through the core's one CSV and XLSX
// writers (quote:export), never a copy of them here. Ctrl+C on a selected row stays plain text.
// #21: the chosen pickup points are named in every copy and sent with the export; «Копировать цену клиента»
// copies the selected option (or every one shown) as text with the customer's price.
import { useCallback, useState } from 'react';
import type { PickupPoint } from '../../../../core/contract/points';
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { call, errorMessage } from '../../api/client';
import { copyText, useToast } from '../../components';
import { useLang, useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import { downloadFile } from '../../lib/files';
import { localeDecimal, resultsAsTsv } from './copy-tsv';
import { rateAsText, resultsAsText, type TextExtras } from './copy-text';
import { rateKey, type DeliveryType, type Rate } from './logic';
import { pointText } from './points';
import { hasCustomerPrices } from './rate-extras';
import { describeShipment } from './ResultHeading';

export type ExportFormat = 'csv' | 'xlsx';

export interface QuoteOutput {
  copySelected: (r: Rate | undefined) => Promise<void>;
  copyTable: () => Promise<void>;
  copyTableText: () => Promise<void>;
  /** The selected option, or every one shown, as text with the customer's price. */
  copyCustomer: (selected: Rate | undefined) => Promise<void>;
  exportAs: (format: ExportFormat) => Promise<void>;
  /** The format being written, while the core writes it. */
  exporting: ExportFormat | null;
}

export function useQuoteOutput(o: {
  shipment: QuoteRequestInput | null;
  quoteId: number | null;
  /** The rows as shown (filter and Pareto view applied), in the order shown. */
  visible: readonly Rate[];
  sandbox: boolean;
  deliveryLabel: (t: DeliveryType) => string;
  /** Carrier names in the UI language. */
  nameOf: CarrierNameOf;
  /** The pickup point chosen per rate (by rateKey). */
  points: Readonly<Record<string, PickupPoint>>;
}): QuoteOutput {
  const t = useT('quote');
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const toast = useToast();
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const marker = o.sandbox ? t('sandbox.marker') : undefined;
  const { shipment, quoteId, visible, deliveryLabel, nameOf, points } = o;
  const pointOf = useCallback(
    (r: Rate): string | undefined => {
      const p = points[rateKey(r)];
      return p ? pointText(p, (code, address) => tx('copy.point', { code, address })) : undefined;
    },
    [points, tx],
  );
  const extras: TextExtras = { pointOf };

  const copied = useCallback(
    (ok: boolean, done: string) => toast(ok ? done : t('common.copyFailed'), ok ? 'info' : 'error'),
    [t, toast],
  );

  const copySelected = useCallback(
    async (r: Rate | undefined): Promise<void> => {
      if (!r) return;
      const route = shipment ? t('route', { from: shipment.from.city, to: shipment.to.city }) : undefined;
      copied(
        await copyText(rateAsText(r, nameOf, deliveryLabel, lang, route, marker, { pointOf })),
        t('copied'),
      );
    },
    [shipment, nameOf, deliveryLabel, lang, t, marker, copied, pointOf],
  );

  const copyTable = useCallback(async (): Promise<void> => {
    if (!shipment) return;
    const text = resultsAsTsv(visible, {
      headers: [t('col.carrier'), t('col.service'), t('col.delivery'), t('tsv.days'), t('tsv.price')],
      nameOf,
      deliveryLabel,
      heading: describeShipment(shipment, lang, t),
      sandboxMarker: marker,
      // The spreadsheet reads numbers in the computer's locale, whatever the UI language.
      decimal: localeDecimal(navigator.language),
      customer: hasCustomerPrices(visible) ? { header: tx('tsv.customer') } : undefined,
      points: visible.some((r) => pointOf(r)) ? { header: tx('tsv.point'), of: pointOf } : undefined,
    });
    copied(await copyText(text), t('copiedColumns'));
  }, [shipment, visible, nameOf, deliveryLabel, lang, t, tx, marker, copied, pointOf]);

  const copyTableText = useCallback(async (): Promise<void> => {
    if (!shipment) return;
    const heading = describeShipment(shipment, lang, t);
    copied(
      await copyText(resultsAsText(visible, nameOf, deliveryLabel, lang, heading, marker, extras)),
      t('copiedAll'),
    );
  }, [shipment, visible, nameOf, deliveryLabel, lang, t, marker, copied, pointOf]);

  const copyCustomer = useCallback(
    async (selected: Rate | undefined): Promise<void> => {
      if (!shipment) return;
      const words: TextExtras = { pointOf, customer: true };
      const text = selected
        ? rateAsText(
            selected,
            nameOf,
            deliveryLabel,
            lang,
            t('route', { from: shipment.from.city, to: shipment.to.city }),
            marker,
            words,
          )
        : resultsAsText(
            visible,
            nameOf,
            deliveryLabel,
            lang,
            describeShipment(shipment, lang, t),
            marker,
            words,
          );
      copied(await copyText(text), tx('copiedCustomer'));
    },
    [shipment, visible, nameOf, deliveryLabel, lang, t, tx, marker, copied, pointOf],
  );

  const exportAs = useCallback(
    async (format: ExportFormat): Promise<void> => {
      if (quoteId === null) return;
      setExporting(format);
      try {
        // The chosen points go with the rates they belong to (the file names them beside the rate).
        const chosen = visible.flatMap((r) => {
          const point = points[rateKey(r)];
          return point ? [{ carrier: r.carrier, service_code: r.service_code, point }] : [];
        });
        const file = await call((api) =>
          api.quote.export({ id: quoteId, format, ...(chosen.length > 0 ? { points: chosen } : {}) }),
        );
        downloadFile(file);
        toast(t('exportedFile', { name: file.filename }));
      } catch (err) {
        toast(errorMessage(err, lang), 'error');
      } finally {
        setExporting(null);
      }
    },
    [quoteId, lang, t, toast, visible, points],
  );

  return { copySelected, copyTable, copyTableText, copyCustomer, exportAs, exporting };
}
