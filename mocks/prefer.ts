/** What a client asks for through `Prefer` (RFC 7240), in Prism's vocabulary plus `latency=<ms>`. */
export type Preferences = { code?: number; example?: string; dynamic?: boolean; latencyMs?: number };

export function parsePrefer(header: string | undefined): Preferences {
  const preferences: Preferences = {};
  if (!header) return preferences;
  for (const part of header.split(/[,;]/)) {
    const at = part.indexOf('=');
    const name = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? '' : part.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name === 'code' && /^\d{3}$/.test(value)) preferences.code = Number(value);
    else if (name === 'example' && value) preferences.example = value;
    else if (name === 'dynamic') preferences.dynamic = value === '' || value === 'true';
    else if (name === 'latency' && /^\d+$/.test(value)) preferences.latencyMs = Number(value);
  }
  return preferences;
}

/** Prism takes over when the client asks for a particular declared response. */
export function wantsDeclaredResponse(p: Preferences): boolean {
  return p.code !== undefined || p.example !== undefined || p.dynamic === true;
}
