// A service's name where it is joined with its carrier and delivery type into one line (the copy as text,
// the chart's tooltip, the summary line). Carriers name their services with the words the line already has:
// Деловые Линии's «Автоперевозка, терминал — терминал» + «терминал» read «терминал — терминал — терминал»,
// DPD's «DPD OPTIMUM» followed its own name. Pure: unit-tested in Node.
import type { Lang } from '../../lib/format';
import type { DeliveryType, Rate } from './logic';

/**
 * How a service name already says its delivery type, in the words of each UI language's label
 * (quote.delivery.*): a Russian service name that says «до двери», «склад-дверь» or «до пункта выдачи»
 * makes the Russian label redundant; in English the label stays unless the name itself is English.
 */
const SAYS_DELIVERY: Record<Lang, Record<DeliveryType, RegExp | null>> = {
  ru: {
    door: /двер/i,
    pickup_point: /пвз|пункт[а-яё]*\s+выдачи/i,
    post_office: /отделени/i,
    terminal: /терминал/i,
    unknown: null,
  },
  en: {
    door: /\bdoors?\b/i,
    pickup_point: /\bpick-?up point/i,
    post_office: /\bpost office/i,
    terminal: /\bterminal/i,
    unknown: null,
  },
};

/**
 * The service name for a joined line: without a leading repeat of the carrier's name («DPD OPTIMUM» after
 * «DPD» is «OPTIMUM»), and with a spaced dash inside it closed up («терминал — терминал» is
 * «терминал–терминал»), because « — » is what separates the line's parts.
 */
export function serviceLabel(r: Pick<Rate, 'carrier_name' | 'service_name'>): string {
  let name = r.service_name.trim();
  const carrier = r.carrier_name.trim();
  if (carrier !== '' && name.toLowerCase().startsWith(`${carrier.toLowerCase()} `)) {
    const rest = name.slice(carrier.length).trim();
    if (rest !== '') name = rest;
  }
  return name.replace(/\s+[—–]\s+/g, '–');
}

/** True when the service name already says the delivery type in the UI language's words. */
export function saysDelivery(serviceName: string, type: DeliveryType, lang: Lang): boolean {
  const words = SAYS_DELIVERY[lang][type];
  return words !== null && words.test(serviceName);
}

/** The line's middle parts: the service, then the delivery type unless the service already says it. */
export function serviceParts(
  r: Pick<Rate, 'carrier_name' | 'service_name' | 'delivery_type'>,
  deliveryLabel: (t: DeliveryType) => string,
  lang: Lang,
): string[] {
  const service = serviceLabel(r);
  return saysDelivery(service, r.delivery_type, lang) ? [service] : [service, deliveryLabel(r.delivery_type)];
}
