/**
 * The one HTTP client of the suite: a thin wrapper over supertest that records every exchange (so
 * hooks see every response), counts requests against the budget and paces on the rate-limit headers.
 */
import request from 'supertest';
import { RATE_LIMIT, RETRY_AFTER } from './headers';

export type TokenLabel = 'a' | 'b' | 'none' | 'other';

export type Exchange = {
  id: number;
  checkId: string;
  operationId?: string;
  tokenLabel: TokenLabel;
  /** For a credential derived from a token: the shell words that rebuild it (e.g. `Bearer ${CONFORMANCE_TOKEN%?}`). */
  authShell?: string;
  request: {
    method: string;
    url: string;
    /** Path below the base URL, with the query string (the whole URL when the request went outside the base URL). */
    path: string;
    headers: Record<string, string>;
    body?: unknown;
    rawBody?: string;
  };
  response?: { status: number; headers: Record<string, string>; body?: unknown; text: string };
  error?: string;
  sentAt: number;
  receivedAt: number;
  /** Order of events in this client: a request whose sentTick exceeds another's receivedTick was sent after that answer arrived. */
  sentTick: number;
  receivedTick: number;
};

export type SendOptions = {
  method: string;
  /** Path below the base URL (may carry a query string), or an absolute URL, requested exactly where it points. */
  path: string;
  query?: Array<[string, string]>;
  headers?: Record<string, string>;
  /** JSON body; a string is sent as is (for malformed bodies). */
  body?: unknown;
  /** 'a' (default), 'b', 'none' (no Authorization) or a literal Authorization value. */
  /** A literal Authorization may say how a shell rebuilds it (`shell`), so reports never print a secret derived from a token. */
  auth?: 'a' | 'b' | 'none' | { authorization: string; shell?: string };
  /** Honour RateLimit-Remaining and Retry-After before and after sending (default true). */
  pace?: boolean;
  operationId?: string;
  /** The check the request belongs to (default: the client's currentCheck). */
  checkId?: string;
};

/**
 * Stands for token A where a request carries it outside the Authorization header (a query parameter, a cookie):
 * replaced by the token on the wire only, so exchanges, reports and reproductions never hold the token itself.
 */
export const TOKEN_A_MARK = '{token-a}';

export class BudgetExhausted extends Error {
  constructor(readonly budget: number) {
    super(`request budget of ${budget} (--max-requests) is spent`);
    this.name = 'BudgetExhausted';
  }
}

export type ClientOptions = {
  baseUrl: string;
  tokenA: string;
  tokenB?: string;
  maxRequests: number;
  timeoutMs?: number;
  /** Upper bound of any single pacing wait, so a run always ends. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

type Bucket = { remaining?: number; resetAt?: number };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function flattenHeaders(headers: Record<string, unknown>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}

function integerHeader(headers: Record<string, string>, name: string): number | undefined {
  const value = headers[name];
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

export class HttpClient {
  readonly origin: string;
  readonly basePath: string;
  readonly exchanges: Exchange[] = [];
  private readonly listeners: Array<(exchange: Exchange) => void> = [];
  private readonly buckets = new Map<string, Bucket>();
  private nextId = 1;
  private tick = 0;
  /** Requests sent so far (the budget counter). */
  count = 0;
  /** Which check the following requests belong to (set by the runner). */
  currentCheck = '';

  constructor(readonly options: ClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  get remainingBudget(): number {
    return this.options.maxRequests - this.count;
  }

  onExchange(listener: (exchange: Exchange) => void): void {
    this.listeners.push(listener);
  }

  /** The last RateLimit-Remaining seen for a token, or undefined. */
  knownRemaining(label: 'a' | 'b'): number | undefined {
    return this.buckets.get(label)?.remaining;
  }

  private authorization(auth: SendOptions['auth']): { label: TokenLabel; value?: string } {
    if (auth === undefined || auth === 'a') return { label: 'a', value: `Bearer ${this.options.tokenA}` };
    if (auth === 'b') {
      if (!this.options.tokenB) throw new Error('no second token (--token-b) configured');
      return { label: 'b', value: `Bearer ${this.options.tokenB}` };
    }
    if (auth === 'none') return { label: 'none' };
    return { label: 'other', value: auth.authorization };
  }

  private async waitForQuota(label: TokenLabel): Promise<void> {
    const bucket = this.buckets.get(label);
    if (!bucket || bucket.remaining === undefined || bucket.remaining > 0 || bucket.resetAt === undefined) return;
    const wait = Math.min(bucket.resetAt - Date.now(), this.options.maxWaitMs ?? 65000);
    if (wait > 0) await (this.options.sleep ?? defaultSleep)(wait);
    bucket.remaining = undefined;
  }

  private remember(label: TokenLabel, headers: Record<string, string>): void {
    const remaining =
      integerHeader(headers, RATE_LIMIT.remaining) ?? integerHeader(headers, RATE_LIMIT.legacyRemaining);
    const reset = integerHeader(headers, RATE_LIMIT.reset) ?? integerHeader(headers, RATE_LIMIT.legacyReset);
    if (remaining === undefined) return;
    this.buckets.set(label, { remaining, resetAt: reset === undefined ? undefined : Date.now() + reset * 1000 });
  }

  /** Sends one request; with pacing, a 429 is waited out (Retry-After) and retried up to twice. */
  async send(options: SendOptions): Promise<Exchange> {
    const pace = options.pace ?? true;
    let exchange = await this.sendOnce(options, pace);
    for (let retry = 0; pace && retry < 2 && exchange.response?.status === 429; retry++) {
      const retryAfter = integerHeader(exchange.response.headers, RETRY_AFTER) ?? 1;
      await (this.options.sleep ?? defaultSleep)(Math.min(retryAfter * 1000, this.options.maxWaitMs ?? 65000));
      exchange = await this.sendOnce(options, pace);
    }
    return exchange;
  }

  private async sendOnce(options: SendOptions, pace: boolean): Promise<Exchange> {
    const { label, value } = this.authorization(options.auth);
    if (pace) await this.waitForQuota(label);
    if (this.count >= this.options.maxRequests) throw new BudgetExhausted(this.options.maxRequests);
    this.count++;
    const bucket = this.buckets.get(label);
    if (bucket?.remaining !== undefined) bucket.remaining--;

    let path = options.path;
    // An absolute URL (a resolved Location) is requested exactly where it points (RFC 3986), not under the base path;
    // `path` stays relative to the base path when it lies below it, for the hooks that look operations up.
    let origin = this.origin;
    let root = this.basePath;
    if (/^https?:\/\//.test(path)) {
      const url = new URL(path);
      origin = url.origin;
      const below =
        url.origin === this.origin && (url.pathname === this.basePath || url.pathname.startsWith(`${this.basePath}/`));
      root = below ? this.basePath : '';
      path = (below ? url.pathname.slice(this.basePath.length) : url.pathname) + url.search;
    }
    if (options.query && options.query.length > 0) {
      const search = new URLSearchParams(options.query).toString();
      path += (path.includes('?') ? '&' : '?') + search;
    }
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (value !== undefined) headers.Authorization = value;
    let rawBody: string | undefined;
    if (options.body !== undefined) {
      rawBody = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json';
    }
    const exchange: Exchange = {
      id: this.nextId++,
      checkId: options.checkId ?? this.currentCheck,
      operationId: options.operationId,
      tokenLabel: label,
      authShell: typeof options.auth === 'object' ? options.auth.shell : undefined,
      request: {
        method: options.method.toUpperCase(),
        url: origin + root + path,
        path: root === this.basePath && origin === this.origin ? path : origin + path,
        headers,
        body: options.body,
        rawBody,
      },
      sentAt: Date.now(),
      receivedAt: 0,
      sentTick: ++this.tick,
      receivedTick: 0,
    };
    try {
      const agent = request(origin) as unknown as Record<string, (url: string) => request.Test>;
      const wire = (text: string, encode: (token: string) => string) =>
        text
          .split(TOKEN_A_MARK)
          .join(encode(this.options.tokenA))
          .split(encodeURIComponent(TOKEN_A_MARK))
          .join(encode(this.options.tokenA));
      let test = agent[options.method.toLowerCase()](wire(root + path, encodeURIComponent));
      for (const [name, headerValue] of Object.entries(headers)) test = test.set(name, wire(headerValue, String));
      test = test.timeout({
        response: this.options.timeoutMs ?? 15000,
        deadline: (this.options.timeoutMs ?? 15000) * 2,
      });
      test = test.ok(() => true);
      // Keep the body exactly as sent, so malformed and raw bodies reach the server unchanged.
      if (rawBody !== undefined) test = test.send(rawBody);
      const response = await test.buffer(true).parse((res, callback) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => callback(null, text));
      });
      const text = typeof response.body === 'string' ? response.body : '';
      const responseHeaders = flattenHeaders(response.headers as Record<string, unknown>);
      let body: unknown;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
      }
      exchange.response = { status: response.status, headers: responseHeaders, body, text };
      this.remember(label, responseHeaders);
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
    }
    exchange.receivedAt = Date.now();
    exchange.receivedTick = ++this.tick;
    this.exchanges.push(exchange);
    for (const listener of this.listeners) listener(exchange);
    return exchange;
  }
}
