// SOAP 1.1 envelopes for DPD's calculator2 (protocols.md §6.2), built and read with fast-xml-parser: the
// builder escapes every value (a client key with "<" or "&" stays data), and a reply is checked to be
// well-formed XML before it is read. Namespaces: the operation element is qualified with DPD's calculator
// namespace (lowercase "calculator", verified-2026 §6.1), its <request> child is unqualified.
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

export const SOAP_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const DPD_CALCULATOR_NS = 'http://dpd.ru/ws/calculator/2012-03-20';

/** A plain tree of elements: text leaves, nested objects, arrays for repeated elements. */
export type XmlTree = { [name: string]: XmlValue };
export type XmlValue = string | number | boolean | XmlTree | XmlValue[];

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
});

/** `<soapenv:Envelope>` around `<ns:operation>` whose children are given unqualified. */
export function buildSoapRequest(operation: string, namespace: string, children: XmlTree): string {
  const envelope = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    'soapenv:Envelope': {
      '@_xmlns:soapenv': SOAP_ENV_NS,
      '@_xmlns:ns': namespace,
      'soapenv:Body': { [`ns:${operation}`]: children },
    },
  };
  return builder.build(envelope) as string;
}

/** Any SOAP answer built for tests and the simulator: a body element in `namespace`. */
export function buildSoapResponse(element: string, namespace: string, content: XmlTree | string): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    'S:Envelope': {
      '@_xmlns:S': SOAP_ENV_NS,
      'S:Body': {
        [`ns2:${element}`]: { '@_xmlns:ns2': namespace, ...(typeof content === 'string' ? {} : content) },
      },
    },
  }) as string;
}

/** A SOAP 1.1 Fault, optionally with a typed detail element (DPD: ServiceCostFault2) in `namespace`. */
export function buildSoapFault(
  faultcode: string,
  faultstring: string,
  detail?: { element: string; namespace: string; content: XmlTree },
): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    'S:Envelope': {
      '@_xmlns:S': SOAP_ENV_NS,
      'S:Body': {
        'S:Fault': {
          faultcode,
          faultstring,
          ...(detail
            ? {
                detail: { [`ns2:${detail.element}`]: { '@_xmlns:ns2': detail.namespace, ...detail.content } },
              }
            : {}),
        },
      },
    },
  }) as string;
}

/** Elements that may repeat in DPD answers: always arrays after parsing, one element or many. */
const REPEATED = new Set(['return', 'deliveryDups', 'pickupDups']);

const reader = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  // Prices stay text: "812.40" is converted to kopecks decimally, never through a float.
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

export type SoapReading =
  | { kind: 'body'; body: Record<string, unknown> }
  | { kind: 'fault'; faultcode: string; faultstring: string; detail: Record<string, unknown> }
  | { kind: 'unreadable'; why: string };

/** Reads an answer's Body (namespace prefixes dropped): its content, a Fault, or why it cannot be read. */
export function readSoap(text: string): SoapReading {
  if (text.trim() === '') return { kind: 'unreadable', why: 'empty body' };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { kind: 'unreadable', why: 'not well-formed XML' };
  let tree: unknown;
  try {
    tree = reader.parse(text);
  } catch {
    return { kind: 'unreadable', why: 'not well-formed XML' };
  }
  const body = child(child(tree, 'Envelope'), 'Body');
  if (!isRecord(body)) return { kind: 'unreadable', why: 'no SOAP Envelope/Body' };
  const fault = body.Fault;
  if (isRecord(fault)) {
    return {
      kind: 'fault',
      faultcode: typeof fault.faultcode === 'string' ? fault.faultcode : '',
      faultstring: typeof fault.faultstring === 'string' ? fault.faultstring : '',
      detail: isRecord(fault.detail) ? fault.detail : {},
    };
  }
  return { kind: 'body', body };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function child(v: unknown, name: string): unknown {
  return isRecord(v) ? v[name] : undefined;
}
