import { ConfigError, DEFAULTS, parseConfig } from './config';

describe('parseConfig', () => {
  it('should read flags before the environment', () => {
    const config = parseConfig(
      ['--target', 'http://127.0.0.1:4010/v1/', '--token', 'a', '--runs', '5', '--seed', '7', '--allow-writes'],
      { CONFORMANCE_TOKEN: 'env' },
    );
    expect(config).toMatchObject({
      target: 'http://127.0.0.1:4010/v1',
      tokenA: 'a',
      runs: 5,
      seed: 7,
      allowWrites: true,
      maxRequests: DEFAULTS.maxRequests,
    });
  });

  it('should read CONFORMANCE_* variables', () => {
    const config = parseConfig([], {
      CONFORMANCE_TARGET: 'http://127.0.0.1:1/v1',
      CONFORMANCE_TOKEN: 'a',
      CONFORMANCE_TOKEN_B: 'b',
    });
    expect(config).toMatchObject({ target: 'http://127.0.0.1:1/v1', tokenA: 'a', tokenB: 'b', allowWrites: false });
  });

  it('should write tokens in reproductions as they were given', () => {
    expect(parseConfig(['--target', 'http://h/v1', '--token', 'lit', '--token-b', 'litb'], {}).credentials).toEqual({
      a: 'lit',
      b: 'litb',
    });
    expect(
      parseConfig(['--target', 'http://h/v1'], { CONFORMANCE_TOKEN: 'x', CONFORMANCE_TOKEN_B: 'y' }).credentials,
    ).toEqual({ a: '$CONFORMANCE_TOKEN', b: '$CONFORMANCE_TOKEN_B' });
  });

  it('should read selection, workers and shard', () => {
    const config = parseConfig(
      [
        '--target',
        'http://h/v1',
        '--token',
        't',
        '--operations',
        'a,b',
        '--skip-tags',
        'provisional',
        '--workers',
        '4',
        '--shard',
        '2/3',
      ],
      {},
    );
    expect(config).toMatchObject({
      operations: ['a', 'b'],
      skipTags: ['provisional'],
      workers: 4,
      shard: { index: 2, count: 3 },
    });
  });

  it.each([
    ['a shard outside its count', ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--shard', '4/3']],
    ['zero workers', ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--workers', '0']],
    ['a missing target', ['--token', 'a']],
    ['a missing token', ['--target', 'http://127.0.0.1:1/v1']],
    ['a target that is not a URL', ['--target', 'nowhere', '--token', 'a']],
    ['an unknown option', ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--fast']],
    ['a budget of zero', ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--max-requests', '0']],
    ['the same token twice', ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--token-b', 'a']],
    ['a run of no time', ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--max-time', '0']],
    ['a byte bound below 1 KiB', ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--max-response-bytes', '10']],
    [
      '--report-every outside passive mode',
      ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--report-every', '5'],
    ],
  ])('should refuse %s as bad configuration', (_name, argv) => {
    expect(() => parseConfig(argv, {})).toThrow(ConfigError);
  });

  it('should bound a run by default: its time, each answer, each wait', () => {
    const config = parseConfig(['--target', 'http://127.0.0.1:1/v1', '--token', 'a'], {});
    expect(config).toMatchObject({ maxTimeSeconds: 900, maxResponseBytes: 8 * 1024 * 1024, maxWaitMs: 65000 });
    expect(
      parseConfig(
        ['--target', 'http://127.0.0.1:1/v1', '--token', 'a', '--max-time', '60', '--max-response-bytes', '65536'],
        {},
      ),
    ).toMatchObject({ maxTimeSeconds: 60, maxResponseBytes: 65536 });
    expect(parseConfig(['--proxy', '--upstream', 'http://127.0.0.1:1/v1', '--report-every', '5'], {}).proxy).toEqual({
      upstream: 'http://127.0.0.1:1/v1',
      port: undefined,
      reportEverySeconds: 5,
    });
  });
});
