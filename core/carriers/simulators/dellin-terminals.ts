// The Dellin simulator's geography: cities by 25-character KLADR code (the table's 13 digits + 12 zeros) and
// their terminals. Dellin has terminals in the larger towns only: here every city of the table with 100 000
// people or more has one terminal that sends and receives (Москва two, the first its default); smaller towns
// are reached by delivery to an address from the nearest terminal, and cannot send.
import { allCities, type City } from '../../locations/cities';

export interface SimDellinTerminal {
  id: number;
  name: string;
  address: string;
  default: boolean;
  city: City;
}

const TERMINAL_MIN_POPULATION = 100_000;

interface Geography {
  byKladr: ReadonlyMap<string, City>;
  terminalsByKladr: ReadonlyMap<string, readonly SimDellinTerminal[]>;
  byId: ReadonlyMap<number, SimDellinTerminal>;
}

let geography: Geography | undefined;

function getGeography(): Geography {
  if (geography) return geography;
  const byKladr = new Map<string, City>();
  const terminalsByKladr = new Map<string, SimDellinTerminal[]>();
  const byId = new Map<number, SimDellinTerminal>();
  for (const city of allCities()) {
    const code = city.kladrId.padEnd(25, '0');
    if (byKladr.has(code)) continue;
    byKladr.set(code, city);
    if (city.population < TERMINAL_MIN_POPULATION) continue;
    const count = city.name === 'Москва' ? 2 : 1;
    const list: SimDellinTerminal[] = [];
    for (let i = 0; i < count; i++) {
      let id = stableId(`${city.kladrId}|${i}`);
      while (byId.has(id)) id += 1;
      const terminal: SimDellinTerminal = {
        id,
        name: `${city.name}${i === 0 ? '' : ` ${i + 1}`}`,
        address: `${city.name}, ул. Складская, д. ${i + 1}`,
        default: i === 0,
        city,
      };
      list.push(terminal);
      byId.set(id, terminal);
    }
    terminalsByKladr.set(code, list);
  }
  geography = { byKladr, terminalsByKladr, byId };
  return geography;
}

function stableId(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 1 + (h % 99_999);
}

export function dellinCityByKladr(code: string): City | undefined {
  return getGeography().byKladr.get(code);
}

export function dellinTerminalsOf(code: string): readonly SimDellinTerminal[] {
  return getGeography().terminalsByKladr.get(code) ?? [];
}

export function dellinTerminalById(id: number): SimDellinTerminal | undefined {
  return getGeography().byId.get(id);
}
