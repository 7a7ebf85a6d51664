import { CONTROL_LIMITS } from '../limits';
import { checkYamlNesting, parseFixtureText } from './fixture-text';

const nested = (depth: number) => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1';

describe('parseFixtureText', () => {
  it.each([
    ['JSON', '{"workspaces":{"mock-token-a":{"suppressions":[]}}}'],
    ['YAML', 'workspaces:\n  mock-token-a:\n    suppressions: []\n'],
    ['YAML with an alias', 'base: &b {reason: manual}\nworkspaces:\n  mock-token-a:\n    suppressions: [*b]\n'],
    ['YAML 60 levels deep', nested(60)],
  ])('should read %s', (_name, text) => {
    expect(() => parseFixtureText(text, CONTROL_LIMITS)).not.toThrow();
  });

  it.each([
    ['JSON deeper than 64', `{"a":${'['.repeat(65)}${']'.repeat(65)}}`, 'json_too_deep'],
    ['YAML flow 100 000 deep', `a: ${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'json_too_deep'],
    ['YAML compact sequences 100 000 deep', `a:\n  ${'- '.repeat(100_000)}x`, 'json_too_deep'],
    ['YAML 70 levels of indentation', nested(70), 'json_too_deep'],
    ['malformed YAML', 'workspaces: [unclosed', 'invalid_fixtures'],
    ['malformed JSON', '{"workspaces":', 'invalid_fixtures'],
    [
      'more workspaces than one request loads',
      JSON.stringify({ workspaces: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`w${i}`, {}])) }),
      'fixtures_too_large',
    ],
    [
      'more items than one request loads',
      JSON.stringify({ workspaces: { a: { runs: Array(6000).fill({}) }, b: { runs: Array(6000).fill({}) } } }),
      'fixtures_too_large',
    ],
  ])('should refuse %s (400 %s)', (_name, text, reason) => {
    expect(() => parseFixtureText(text, CONTROL_LIMITS)).toThrow(expect.objectContaining({ status: 400, reason }));
  });

  it('should refuse aliases that nest past the bound once expanded', () => {
    const lines = ['a0: &a0 [1]', ...Array.from({ length: 70 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`)];
    expect(() => parseFixtureText(lines.join('\n'), CONTROL_LIMITS)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('should measure nesting without parsing, in time linear in the text', () => {
    const started = Date.now();
    expect(checkYamlNesting(`a: ${'{b: '.repeat(200_000)}1${'}'.repeat(200_000)}`, 64)).toMatchObject({
      reason: 'json_too_deep',
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('parseFixtureText and the console', () => {
  it('should not emit yaml warnings, which quote the text raw (an escape sequence in an unknown tag)', () => {
    const emitted = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      parseFixtureText('workspaces: !unknown "\u001b[31mred"\n', CONTROL_LIMITS);
      expect(emitted).not.toHaveBeenCalled();
    } finally {
      emitted.mockRestore();
    }
  });
});
