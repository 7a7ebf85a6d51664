import { DEFAULT_CONFIG, parseTokens, readConfigFromEnv } from './config';
import { MAX_RATE_LIMIT } from './limits';

describe('config', () => {
  it('should serve http://127.0.0.1:4010 with the two seeded tokens by default', () => {
    const config = readConfigFromEnv({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 4010, tokens: DEFAULT_CONFIG.tokens });
  });

  it('should replace the tokens with MOCK_TOKENS and read every setting from the environment', () => {
    const config = readConfigFromEnv({
      PORT: '5000',
      HOST: '0.0.0.0',
      MOCK_TOKENS: 'one=0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b, two=7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
      MOCK_RATE_LIMIT: '5',
      MOCK_RATE_WINDOW: '2',
      MOCK_SEED: '9',
      MOCK_RUN_DURATION_MS: '10',
      MOCK_RUN_TTL_MS: '3600000',
      MOCK_LATENCY_MS: '3',
      MOCK_BODY_LIMIT: '100',
      MOCK_AUTH_URL: 'http://127.0.0.1:5000/auth',
    });
    expect(config).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      tokens: { one: '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b', two: '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f' },
      rateLimit: 5,
      rateWindowSeconds: 2,
      seed: 9,
      runDurationMs: 10,
      runTtlMs: 3_600_000,
      latencyMs: 3,
      bodyLimitBytes: 100,
      authUrl: 'http://127.0.0.1:5000/auth',
    });
  });

  it.each(['nopair', '=ws', 'token=', ''])('should refuse the malformed MOCK_TOKENS %j', (text) => {
    expect(() => parseTokens(text)).toThrow(/MOCK_TOKENS/);
  });

  it('should refuse a setting that is not a number', () => {
    expect(() => readConfigFromEnv({ MOCK_RATE_LIMIT: 'many' })).toThrow(/MOCK_RATE_LIMIT/);
  });

  it('should keep created runs 24 h by default, and refuse an age under a second', () => {
    expect(readConfigFromEnv({}).runTtlMs).toBe(24 * 60 * 60 * 1000);
    expect(() => readConfigFromEnv({ MOCK_RUN_TTL_MS: '999' })).toThrow(/MOCK_RUN_TTL_MS: expected a number >= 1000/);
  });

  it('should refuse a rate limit beyond its documented range', () => {
    expect(readConfigFromEnv({ MOCK_RATE_LIMIT: String(MAX_RATE_LIMIT) }).rateLimit).toBe(MAX_RATE_LIMIT);
    expect(() => readConfigFromEnv({ MOCK_RATE_LIMIT: '1e308' })).toThrow(/MOCK_RATE_LIMIT: .*<= 1000000000/);
    expect(() => readConfigFromEnv({ MOCK_AUTH_RATE_LIMIT: '1e308' })).toThrow(/MOCK_AUTH_RATE_LIMIT/);
  });

  it('should refuse an empty MOCK_ADMIN_TOKEN at start rather than leave the control plane open', () => {
    expect(readConfigFromEnv({}).adminToken).toBeUndefined();
    expect(readConfigFromEnv({ MOCK_ADMIN_TOKEN: 's3cret' }).adminToken).toBe('s3cret');
    for (const empty of ['', '  '])
      expect(() => readConfigFromEnv({ MOCK_ADMIN_TOKEN: empty })).toThrow(/MOCK_ADMIN_TOKEN: set but empty/);
  });

  it('should read the control plane origins and refuse `*` or a malformed one', () => {
    expect(readConfigFromEnv({}).controlOrigins).toBeUndefined();
    expect(
      readConfigFromEnv({ MOCK_CONTROL_ORIGINS: 'https://app.example.test, http://localhost:5173/' }).controlOrigins,
    ).toEqual(['https://app.example.test', 'http://localhost:5173']);
    expect(() => readConfigFromEnv({ MOCK_CONTROL_ORIGINS: '*' })).toThrow(
      /MOCK_CONTROL_ORIGINS: "\*" is not accepted/,
    );
    expect(() => readConfigFromEnv({ MOCK_CONTROL_ORIGINS: 'app.example.test' })).toThrow(/MOCK_CONTROL_ORIGINS/);
    expect(() => readConfigFromEnv({ MOCK_CONTROL_ORIGINS: 'https://a.test/path' })).toThrow(/MOCK_CONTROL_ORIGINS/);
  });

  it('should cache settings 100 ms by default, at most 5 s', () => {
    expect(readConfigFromEnv({}).settingsCacheMs).toBe(100);
    expect(readConfigFromEnv({ MOCK_SETTINGS_CACHE_MS: '0' }).settingsCacheMs).toBe(0);
    expect(() => readConfigFromEnv({ MOCK_SETTINGS_CACHE_MS: '60000' })).toThrow(/MOCK_SETTINGS_CACHE_MS/);
  });
});
