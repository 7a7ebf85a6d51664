import { matchesRedirectUri, redirectUriRefusal } from './redirect-uri';
import { parseRedirectUris } from '../config';

/** Redirect URI matching: exact, except the port of a loopback URI (RFC 8252 §7.3; RFC 9700 §4.1.3). */
const defaults = ['http://localhost/callback', 'http://127.0.0.1/callback', 'http://[::1]/callback'];
const custom = ['https://preview-12.app.example/auth/callback', 'http://localhost:4200/auth/callback'];

describe('matchesRedirectUri', () => {
  it.each([
    ['a registered URI, exactly', custom, 'https://preview-12.app.example/auth/callback'],
    ['localhost on an Angular port', defaults, 'http://localhost:4200/callback'],
    ['127.0.0.1 on a Vite fallback port', defaults, 'http://127.0.0.1:5174/callback'],
    ['[::1] on any port', defaults, 'http://[::1]:61234/callback'],
    ['the registered loopback path on another port', custom, 'http://localhost:5173/auth/callback'],
    ['a loopback URI without a port', defaults, 'http://localhost/callback'],
  ])('should accept %s', (_name, registered, given) => {
    expect(matchesRedirectUri(registered, given)).toBe(true);
  });

  it.each([
    ['another path on a loopback port', defaults, 'http://localhost:4200/evil'],
    ['a path below the registered one', defaults, 'http://localhost:4200/callback/x'],
    ['a query the registration lacks', defaults, 'http://localhost:4200/callback?next=/admin'],
    ['a fragment', defaults, 'http://localhost:4200/callback#x'],
    ['a user name', defaults, 'http://evil@localhost:4200/callback'],
    ['dot segments', defaults, 'http://localhost:4200/x/../callback'],
    ['an upper-case host', defaults, 'http://LOCALHOST:4200/callback'],
    ['https on a loopback host registered as http', defaults, 'https://localhost:4200/callback'],
    ['a host that starts like localhost', defaults, 'http://localhost.evil.example:4200/callback'],
    ['another loopback name than the registered one', ['http://localhost/callback'], 'http://127.0.0.1:4200/callback'],
    ['a non-loopback host on another port', custom, 'https://preview-12.app.example:8443/auth/callback'],
    ['the default path when only a custom one is registered', custom, 'http://localhost:4200/callback'],
    ['a relative URI', defaults, '/callback'],
    ['not a URI', defaults, 'callback'],
  ])('should refuse %s', (_name, registered, given) => {
    expect(matchesRedirectUri(registered, given)).toBe(false);
  });
});

describe('parseRedirectUris (MOCK_OAUTH_REDIRECT_URIS)', () => {
  it('should read a comma-separated list, trimmed and without repeats', () => {
    expect(parseRedirectUris(' http://localhost:4200/cb , https://x.example/cb,http://localhost:4200/cb ')).toEqual([
      'http://localhost:4200/cb',
      'https://x.example/cb',
    ]);
  });

  it.each([
    ['a relative URI', '/callback', /absolute URIs/],
    ['a fragment', 'http://localhost:4200/cb#x', /without a fragment/],
    ['an empty list', ' , ', /no URI given/],
    ['an outsized URI', `https://x.example/${'a'.repeat(2000)}`, /over 2000/],
  ])('should refuse %s at start-up', (_name, text, message) => {
    expect(() => parseRedirectUris(text)).toThrow(message);
  });
});

describe('redirectUriRefusal', () => {
  it('should name the refused URI, what is registered and the setting that adds one', () => {
    const client = { clientId: 'mock-frontend', redirectUris: [...defaults, custom[0]] };
    expect(redirectUriRefusal(client, ['http://localhost:4200/cb'])).toBe(
      'redirect_uri http://localhost:4200/cb is not registered for mock-frontend. Registered: ' +
        'http://localhost/callback (any port), http://127.0.0.1/callback (any port), http://[::1]/callback (any port), ' +
        'https://preview-12.app.example/auth/callback. Set MOCK_OAUTH_REDIRECT_URIS to register yours.',
    );
    expect(redirectUriRefusal(client, [])).toMatch(/^redirect_uri is missing\. Registered: /);
    expect(redirectUriRefusal(client, ['a', 'b'])).toMatch(/^redirect_uri is repeated\. /);
  });
});
