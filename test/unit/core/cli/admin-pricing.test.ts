// The admin CLI's resale rules (#21) in-process: pricing list | set | remove, roubles read exactly, the owner
// given as --account or --desk, text and --json output, exit codes, and the audit entry naming the OS user.
import { userInfo } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAdmin, USAGE } from '../../../../core/cli/admin';
import { roublesOption } from '../../../../core/cli/admin/pricing';
import { openDataFolder } from '../../../../core/store/data-folder';
import { TestClock, tempDir } from '../../../helpers/store-fixtures';

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function run(dir: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = sink();
  const err = sink();
  const code = await runAdmin(['--data-dir', dir, ...argv], {
    stdout: out.stream,
    stderr: err.stream,
    stdin: Readable.from([Buffer.from('')]),
    env: {},
    clock: new TestClock(),
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe('admin pricing (#21)', () => {
  it('sets, lists and removes rules of an account and of the desk', async () => {
    const dir = tempDir();
    expect((await run(dir, ['accounts', 'create', 'shop-1'])).code).toBe(0);
    expect((await run(dir, ['pricing', 'list'])).stdout).toContain('No resale rules');

    const desk = await run(dir, [
      'pricing',
      'set',
      '--desk',
      '--percent',
      '12.5',
      '--round',
      '10',
      '--min',
      '300',
    ]);
    expect(desk).toEqual({
      code: 0,
      stdout:
        "Set the resale rule of the desk's own quotes, every carrier: +12.5 %, min 300.00 RUB, rounded up to 10 RUB.\n",
      stderr: '',
    });
    const shop = await run(dir, [
      '--json',
      'pricing',
      'set',
      '--account',
      'shop-1',
      '--carrier',
      'cdek',
      '--add',
      '50',
      '--packaging',
      '30,50',
      '--max',
      '1999.99',
    ]);
    expect(shop.code).toBe(0);
    expect(JSON.parse(shop.stdout)).toMatchObject({
      account: 'shop-1',
      carrier: 'cdek',
      markup_kopecks: 5_000,
      packaging_kopecks: 3_050,
      max_kopecks: 199_999,
      replaced: false,
    });

    const table = (await run(dir, ['pricing', 'list'])).stdout.split('\n');
    expect(table[0]).toMatch(/^ACCOUNT +CARRIER +PERCENT +ADD +PACKAGING +MIN +MAX +ROUND$/);
    expect(table[1]).toMatch(/^desk +\* +12\.5 +0\.00 RUB +0\.00 RUB +300\.00 RUB +- +up to 10 RUB$/);
    expect(table[2]).toMatch(/^shop-1 +cdek +0 +50\.00 RUB +30\.50 RUB +- +1999\.99 RUB +-$/);

    const removed = await run(dir, ['pricing', 'remove', '--account', 'shop-1', '--carrier', 'cdek']);
    expect(removed.stdout).toBe('Removed the resale rule of account shop-1, carrier cdek.\n');
    const again = await run(dir, ['pricing', 'remove', '--account', 'shop-1', '--carrier', 'cdek']);
    expect([again.code, again.stderr]).toEqual([
      1,
      'error: No resale rule for shop-1 / cdek. See "pricing list".\n',
    ]);

    const folder = openDataFolder(dir);
    try {
      const audit = await folder.audit.search({ limit: 10, offset: 0, action: 'pricing' });
      expect(audit.map((e) => [e.actor_kind, e.actor, e.action, e.target])).toEqual([
        ['cli', userInfo().username, 'pricing:remove', 'shop-1 / cdek'],
        ['cli', userInfo().username, 'pricing:set', 'shop-1 / cdek'],
        ['cli', userInfo().username, 'pricing:set', 'desk / *'],
      ]);
    } finally {
      await folder.close();
    }
  });

  it('answers a wrong shape with exit 2 and a refused rule with exit 1, storing nothing', async () => {
    const dir = tempDir();
    for (const argv of [
      ['pricing', 'set', '--percent', '5'],
      ['pricing', 'set', '--desk', '--account', 'x'],
      ['pricing', 'set', '--desk', '--add', '1.234'],
      ['pricing', 'set', '--desk', '--add', '-5'],
      ['pricing', 'set', '--desk', '--round', '3'],
      ['pricing', 'set', '--desk', '--percent', 'ten'],
      ['pricing', 'remove', '--desk', '--percent', '5'],
    ]) {
      const r = await run(dir, argv);
      expect([argv.join(' '), r.code]).toEqual([argv.join(' '), 2]);
    }
    for (const [argv, says] of [
      [['pricing', 'set', '--desk', '--percent', '12.345'], 'more than two decimals'],
      [['pricing', 'set', '--desk', '--round', '5', '--max', '1002'], 'multiple of the rounding step'],
      [['pricing', 'set', '--desk', '--min', '500', '--max', '400'], 'below the minimum'],
      [['pricing', 'set', '--account', 'nobody'], 'No account named "nobody"'],
      [['pricing', 'set', '--desk', '--carrier', 'cdk'], 'unknown carrier "cdk"'],
    ] as const) {
      const r = await run(dir, [...argv]);
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(says)]);
    }
    expect((await run(dir, ['--json', 'pricing', 'list'])).stdout).toBe('[]\n');
    expect(USAGE).toContain('pricing set (--account NAME | --desk)');
  });

  it('reads roubles exactly, with a dot or a comma', () => {
    expect(roublesOption('add', '0')).toBe(0);
    expect(roublesOption('add', '1234.5')).toBe(123_450);
    expect(roublesOption('add', '1234,05')).toBe(123_405);
    expect(roublesOption('add', '0.1')).toBe(10);
    expect(() => roublesOption('add', '1 234')).toThrow(/--add must be an amount/);
  });
});
