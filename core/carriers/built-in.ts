// The carriers built into RateDesk, in display order: one line per carrier. Every list of carriers (codes,
// names, settings, sandbox triggers, the Carriers screen, the registry, the live check) is derived from this
// one (core/carriers/descriptor.ts says what a descriptor declares).
import { BOXBERRY } from './boxberry/descriptor';
import { CDEK } from './cdek/descriptor';
import { DELLIN } from './dellin/descriptor';
import { DPD } from './dpd/descriptor';
import { FIVEPOST } from './fivepost/descriptor';
import { PEK } from './pek/descriptor';
import { RUSSIAN_POST } from './russian-post/descriptor';
import { YANDEX } from './yandex/descriptor';

export const CARRIER_DESCRIPTORS = [
  CDEK,
  RUSSIAN_POST,
  BOXBERRY,
  DPD,
  DELLIN,
  PEK,
  YANDEX,
  FIVEPOST,
] as const;

export type BuiltInDescriptor = (typeof CARRIER_DESCRIPTORS)[number];
