/** Host names of the loopback interface a native or dev-server app listens on. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const parse = (text: string): URL | undefined => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/** An `http` URI on a loopback host: its port is chosen by the app at run time (RFC 8252 §7.3). */
export const isLoopbackRedirect = (url: URL) => url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);

/**
 * Whether `given` is a redirect URI the client registered: the exact string, or, for a registered loopback URI
 * (`http://127.0.0.1`, `http://localhost`, `http://[::1]`), the same URI on any port — the path and query still
 * exact. `given` must be spelled as its own normal form (lower-case host, no dot segments, no default port, no
 * user name), so what is compared is what the browser is sent to.
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3 and https://www.rfc-editor.org/rfc/rfc9700#section-4.1.3
 */
export function matchesRedirectUri(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  const url = parse(given);
  if (!url || url.href !== given || !isLoopbackRedirect(url) || url.username || url.password || url.hash) return false;
  return registered.some((text) => {
    const uri = parse(text);
    return (
      uri !== undefined &&
      isLoopbackRedirect(uri) &&
      uri.hostname === url.hostname &&
      uri.pathname === url.pathname &&
      uri.search === url.search
    );
  });
}

/** Why the authorization request's redirect_uri is refused, with what would be accepted and how to add it. */
export function redirectUriRefusal(client: { clientId: string; redirectUris: readonly string[] }, given: string[]) {
  const registered = client.redirectUris
    .map((text) => {
      const url = parse(text);
      return url && isLoopbackRedirect(url) ? `${text} (any port)` : text;
    })
    .join(', ');
  const why =
    given.length === 0
      ? 'redirect_uri is missing'
      : given.length > 1
        ? 'redirect_uri is repeated'
        : `redirect_uri ${given[0].slice(0, 200)} is not registered for ${client.clientId}`;
  return `${why}. Registered: ${registered}. Set MOCK_OAUTH_REDIRECT_URIS to register yours.`;
}
