import { checkSettingsPatch, SETTING_RANGES } from './settings';

/**
 * Every number the control plane sets is an integer within its documented range (SETTING_RANGES): a typo such as
 * `rateLimit: 1e308` is refused with a problem naming the setting (400 invalid_settings on the wire), and both
 * ends of each range are accepted.
 */
const cases = Object.entries(SETTING_RANGES).flatMap(([name, { minimum, maximum }]) => [
  [name, minimum, true],
  [name, maximum, true],
  [name, minimum - 1, false],
  [name, maximum + 1, false],
  [name, 1e308, false],
  [name, minimum + 0.5, false],
  [name, String(maximum), false],
]);

describe('settings ranges', () => {
  it.each(cases)('%s = %p accepted: %p', (name, value, accepted) => {
    const problems = checkSettingsPatch({ [name as string]: value });
    if (accepted) expect(problems).toEqual([]);
    else expect(problems.join('\n')).toContain(`settings.${name as string}`);
  });

  it('should bound a workspace run duration like the default one', () => {
    const over = SETTING_RANGES.runDurationMs.maximum + 1;
    expect(checkSettingsPatch({ workspaces: { 'mock-token-a': { runDurationMs: over } } }).join('\n')).toContain(
      'runDurationMs',
    );
  });
});
