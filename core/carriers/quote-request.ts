// A carrier request from the parts a caller knows: one box (or several), and the #21 options defaulted to
// none. The carriers' live checks, benchmarks and tests build their requests here, so a field added to
// CarrierQuoteRequest is filled in one place.
import { moscowDate } from '../util/moscow-date';
import type { CarrierQuoteRequest } from './types';

export type CarrierRequestInput = Omit<CarrierQuoteRequest, 'places' | 'codKopecks' | 'shipDate'> &
  Partial<Pick<CarrierQuoteRequest, 'places' | 'codKopecks' | 'shipDate'>>;

export function makeQuoteRequest(input: CarrierRequestInput, now: Date = new Date()): CarrierQuoteRequest {
  const places = input.places && input.places.length > 0 ? input.places : [input.parcel];
  return {
    ...input,
    parcel: places[0]!,
    places,
    codKopecks: input.codKopecks ?? 0,
    shipDate: input.shipDate ?? moscowDate(now),
  };
}
