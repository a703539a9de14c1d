// Every operation of RateDesk: its name (`area:verb`), the zod schema of its input and of its result. The
// one source from which the desk's IPC contract, the preload API, the admin CLI's inputs and the renderer's
// types derive (core/operations/ holds what each one does). Renderer-safe: zod and constants only.
import type { z } from 'zod';
import { accountOperations } from './accounts';
import { bulkOperations } from './bulk';
import { calendarOperations } from './calendar';
import { carrierOperations } from './carriers';
import { companyOperations } from './company';
import { keyOperations } from './keys';
import { pointOperations } from './points';
import { pricingOperations } from './pricing';
import { quoteOperations } from './quotes';
import { rateCardOperations } from './ratecards';
import { settingOperations } from './settings';

export const operationSchemas = {
  ...settingOperations,
  ...quoteOperations,
  ...carrierOperations,
  ...accountOperations,
  ...keyOperations,
  ...rateCardOperations,
  ...companyOperations,
  ...bulkOperations,
  ...calendarOperations,
  ...pointOperations,
  ...pricingOperations,
} as const satisfies Record<`${string}:${string}`, { input: z.ZodType; output: z.ZodType }>;

export type OperationName = keyof typeof operationSchemas;
/** What a caller sends (defaults still optional). */
export type OperationInput<N extends OperationName> = z.input<(typeof operationSchemas)[N]['input']>;
/** What an operation receives after the parse (defaults filled in). */
export type OperationParsedInput<N extends OperationName> = z.output<(typeof operationSchemas)[N]['input']>;
export type OperationOutput<N extends OperationName> = z.output<(typeof operationSchemas)[N]['output']>;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(operationSchemas, name);
}

export * from './accounts';
export * from './bulk';
export * from './bulk-words';
export * from './calendar';
export * from './carriers';
export * from './common';
export * from './company';
export * from './events';
export * from './keys';
export * from './points';
export * from './pricing';
export * from './quotes';
export * from './ratecards';
export * from './roles';
export * from './settings';
