import { describe, expect, it } from 'vitest';
import { ListenerPort } from '../../../../../../core/contract/operations/settings';
import { parsePort } from '../../../../../../renderer/src/features/settings/logic';

describe('listener port', () => {
  it("takes 0 (any free port) or 1024–65535, as its hint says — the core's rule", () => {
    expect(parsePort('0')).toEqual({ ok: true, value: 0 });
    expect(parsePort('1024')).toEqual({ ok: true, value: 1024 });
    expect(parsePort('65535')).toEqual({ ok: true, value: 65535 });
    for (const bad of ['80', '1', '1023', '65536', '-1', '8a', '']) expect(parsePort(bad).ok).toBe(false);
    for (const n of [0, 1, 80, 1023, 1024, 8787, 65535, 65536]) {
      expect(parsePort(String(n)).ok, String(n)).toBe(ListenerPort.safeParse(n).success);
    }
  });
});
