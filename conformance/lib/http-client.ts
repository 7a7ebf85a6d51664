/**
 * The one HTTP client of the suite, on Node's own http/https: records every exchange (so hooks see every response),
 * counts requests against the budget and paces on the rate-limit headers. It is also the one door through which a
 * target's answers come in, so every guard against a hostile target lives here and no check can forget one:
 * - credentials (and any request at all) go only to the target's origin: a URL on another origin is refused
 *   (OffOriginRefused), and redirects are never followed;
 * - each answer is read up to `maxResponseBytes` (decoded), the rest is not read and the answer is marked truncated;
 * - one deadline covers the whole exchange, body included, and never reaches past the run's own deadline;
 * - the exchange log keeps `maxLogBytes` of answer text in all: past it, the oldest answers keep a prefix.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
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
  response?: {
    status: number;
    headers: Record<string, string>;
    body?: unknown;
    text: string;
    /** The answer went on past --max-response-bytes: `text` is its first bytes, the rest was not read, `body` is unset. */
    truncated?: boolean;
    /** The exchange log kept only the first bytes of `text` (past its total bound); `body` is unset for a long one. */
    trimmed?: boolean;
  };
  error?: string;
  sentAt: number;
  receivedAt: number;
  /** Order of events in this client: a request whose sentTick exceeds another's receivedTick was sent after that answer arrived. */
  sentTick: number;
  receivedTick: number;
};

export type SendOptions = {
  method: string;
  /**
   * Path below the base URL (may carry a query string), or an absolute URL on the target's origin, requested exactly
   * where it points. An absolute URL on any other origin is refused (OffOriginRefused): nothing is sent there.
   */
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

/** Bytes of one answer read by default (`--max-response-bytes`): far above any answer the contract describes. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Bytes of answer text the exchange log keeps in all by default; past it the oldest answers keep a prefix. */
export const DEFAULT_MAX_LOG_BYTES = 64 * 1024 * 1024;
/** What a trimmed answer keeps of its text: enough for any report's excerpt. */
export const TRIMMED_TEXT_BYTES = 16 * 1024;

export class BudgetExhausted extends Error {
  constructor(
    readonly budget: number,
    message = `request budget of ${budget} (--max-requests) is spent`,
  ) {
    super(message);
    this.name = 'BudgetExhausted';
  }
}

/** The run's time (--max-time) is spent: a budget too, so everything that stops on a spent budget stops on it. */
export class TimeBudgetSpent extends BudgetExhausted {
  constructor(readonly seconds: number) {
    super(0, `the run's time of ${seconds} s (--max-time) is spent`);
    this.name = 'TimeBudgetSpent';
  }
}

/** A request to another origin than the target's: never sent, with or without a credential. */
export class OffOriginRefused extends Error {
  constructor(readonly url: string) {
    super(`refused to send a request to ${url}: not on the target's origin (no request or credential leaves it)`);
    this.name = 'OffOriginRefused';
  }
}

export type ClientOptions = {
  baseUrl: string;
  tokenA: string;
  tokenB?: string;
  maxRequests: number;
  /** Bound of one whole exchange, from sending to the answer's last byte. */
  timeoutMs?: number;
  /** Upper bound of any single pacing wait, so a run always ends. */
  maxWaitMs?: number;
  /** Bytes of one answer read (decoded); beyond, the answer is cut and marked truncated. */
  maxResponseBytes?: number;
  /** Bytes of answer text the exchange log keeps in all. */
  maxLogBytes?: number;
  /** The run's end (epoch ms, from --max-time): nothing is sent after it, and no wait or exchange outlasts it. */
  deadline?: number;
  /** --max-time in seconds, for the message of a spent time budget. */
  maxTimeSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
};

type Bucket = { remaining?: number; resetAt?: number };

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

/** Origin of a URL (scheme, host and port), or undefined when it is none. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

type Answer = { status: number; headers: Record<string, string>; text: string; truncated: boolean };

/** The body as sent, decoded when the target compressed it (unasked), so the byte bound counts what is judged. */
function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(createGunzip());
  if (encoding === 'deflate') return res.pipe(createInflate());
  if (encoding === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

/**
 * Reads one answer with bounds: at most `maxBytes` of body (the rest is not read: the connection is dropped), and
 * the whole exchange within `timeoutMs`. Resolves with what was read, or rejects with why nothing complete came.
 */
function exchangeOnWire(
  origin: URL,
  init: { method: string; path: string; headers: Record<string, string>; body?: string; agent: HttpAgent },
  bounds: { maxBytes: number; timeoutMs: number; timeoutText: string },
  inFlight: Set<(reason: Error) => void>,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const send = origin.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    let answered = false;
    let bodyBytes = 0;
    /** The exchange's one outcome: the answer read, or why none complete came. */
    const settle = (outcome: Error | Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      inFlight.delete(abort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    let req: ReturnType<typeof httpRequest>;
    try {
      req = send({
        protocol: origin.protocol,
        hostname: origin.hostname.replace(/^\[|\]$/g, ''),
        port: origin.port,
        path: init.path,
        method: init.method,
        headers: init.headers,
        agent: init.agent,
      });
    } catch (error) {
      reject(error);
      return;
    }
    const abort = (reason: Error) => {
      settle(reason);
      req.destroy(reason);
    };
    inFlight.add(abort);
    const timer = setTimeout(
      () =>
        abort(
          new Error(
            bodyBytes > 0 || answered
              ? `${bounds.timeoutText}: the answer's body was still coming (${bodyBytes} bytes read)`
              : `${bounds.timeoutText}: no answer`,
          ),
        ),
      Math.max(0, bounds.timeoutMs),
    );
    req.on('error', (error) => settle(error));
    req.on('response', (res) => {
      answered = true;
      const headers = flattenHeaders(res.headers as Record<string, unknown>);
      const chunks: Buffer[] = [];
      const done = (truncated: boolean) =>
        settle({
          status: res.statusCode ?? 0,
          headers,
          text: Buffer.concat(chunks).toString('utf8'),
          truncated,
        });
      const body = decoded(res);
      const failed = (error: Error) =>
        settle(new Error(`the answer's body broke off after ${bodyBytes} bytes (${error.message})`));
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = bounds.maxBytes - bodyBytes;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          bodyBytes += room;
          done(true);
          // The rest is not read: the connection goes, with whatever the target still meant to send.
          req.destroy();
          body.destroy();
          return;
        }
        chunks.push(chunk);
        bodyBytes += chunk.length;
      });
      body.on('end', () => done(false));
      body.on('error', failed);
      res.on('error', failed);
      res.on('close', () => {
        if (!res.complete) failed(new Error('the connection closed before the body ended'));
      });
    });
    if (init.body !== undefined) req.end(init.body);
    else req.end();
  });
}

/**
 * Keeps the answer text of a log of exchanges within `maxBytes` in all: past it, the oldest answers keep their first
 * TRIMMED_TEXT_BYTES (and a long one its parsed body no more). The latest answer stays whole for whoever asked for it.
 */
export class LogBound {
  private readonly held: Exchange[] = [];
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  /** Once nothing judges any more: every answer keeps only what a report shows, so writing reports stays quick. */
  trimAll(): void {
    for (const exchange of this.held.splice(0)) trim(exchange.response);
    this.bytes = 0;
  }

  add(latest: Exchange): void {
    const length = latest.response?.text.length ?? 0;
    if (length <= TRIMMED_TEXT_BYTES) return;
    this.held.push(latest);
    this.bytes += length;
    while (this.bytes > this.maxBytes && this.held.length > 1) {
      const old = this.held.shift()?.response;
      this.bytes -= old?.text.length ?? 0;
      trim(old);
    }
  }
}

/**
 * The first `max` characters as a string of their own: V8 may keep a plain slice as a view of the whole string, so a
 * short excerpt of an 8 MiB answer would keep all 8 MiB alive.
 */
export function detachedSlice(text: string, max: number): string {
  if (text.length <= max) return text;
  return Buffer.from(text.slice(0, max), 'utf16le').toString('utf16le');
}

/** An answer's text as reports write it: its first TRIMMED_TEXT_BYTES characters, saying so when cut. */
export function reportedText(text: string): string {
  return text.length <= TRIMMED_TEXT_BYTES
    ? text
    : `${detachedSlice(text, TRIMMED_TEXT_BYTES)}… (${text.length - TRIMMED_TEXT_BYTES} characters more, not kept)`;
}

function trim(response: Exchange['response']): void {
  if (!response) return;
  response.text = detachedSlice(response.text, TRIMMED_TEXT_BYTES);
  response.body = undefined;
  response.trimmed = true;
}

export class HttpClient {
  readonly origin: string;
  readonly basePath: string;
  readonly exchanges: Exchange[] = [];
  private readonly listeners: Array<(exchange: Exchange) => void> = [];
  private readonly buckets = new Map<string, Bucket>();
  private readonly agent: HttpAgent;
  private readonly inFlight = new Set<(reason: Error) => void>();
  private readonly sleepers = new Set<() => void>();
  private nextId = 1;
  private tick = 0;
  private readonly log: LogBound;
  private stopped?: Error;
  /** Requests sent so far (the budget counter). */
  count = 0;
  /** Which check the following requests belong to (set by the runner). */
  currentCheck = '';

  constructor(readonly options: ClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.log = new LogBound(options.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES);
    // A connection per request: a kept-alive one the server closes as it is reused fails the request (ECONNRESET),
    // and a request is never sent twice (a create must not repeat), so there is no retry to cover that race.
    this.agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
  }

  get remainingBudget(): number {
    return this.options.maxRequests - this.count;
  }

  get maxResponseBytes(): number {
    return this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  onExchange(listener: (exchange: Exchange) => void): void {
    this.listeners.push(listener);
  }

  /** True when `url` (absolute) is on the target's origin: the only place a request, and a credential, may go. */
  isTargetOrigin(url: string): boolean {
    return originOf(url) === this.origin;
  }

  /** Milliseconds left before the run's deadline (Infinity without one). */
  timeLeft(): number {
    return this.options.deadline === undefined ? Infinity : this.options.deadline - Date.now();
  }

  /**
   * Ends the run's traffic: every exchange in flight is cut, every wait ends, and every later send throws `reason`
   * (by default the spent time budget).
   */
  stop(reason: Error = new TimeBudgetSpent(this.options.maxTimeSeconds ?? 0)): void {
    if (!this.stopped) this.stopped = reason;
    for (const abort of [...this.inFlight]) abort(reason);
    for (const wake of [...this.sleepers]) wake();
    this.agent.destroy();
  }

  /** Why the run's traffic stopped (its time spent), or undefined while it goes on. */
  get stopReason(): string | undefined {
    return this.stopped?.message;
  }

  /** Releases the connections kept alive to the target; the log keeps only what reports show of each answer. */
  close(): void {
    this.agent.destroy();
    this.log.trimAll();
  }

  /** Waits `ms`, but never past the run's deadline and never after the run stopped. */
  async wait(ms: number): Promise<void> {
    const bounded = Math.min(ms, this.timeLeft());
    if (this.stopped || !(bounded > 0)) return;
    if (this.options.sleep) return this.options.sleep(bounded);
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, bounded);
      this.sleepers.add(wake);
    });
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
    if (wait > 0) await this.wait(wait);
    bucket.remaining = undefined;
  }

  private remember(label: TokenLabel, headers: Record<string, string>): void {
    const remaining =
      integerHeader(headers, RATE_LIMIT.remaining) ?? integerHeader(headers, RATE_LIMIT.legacyRemaining);
    const reset = integerHeader(headers, RATE_LIMIT.reset) ?? integerHeader(headers, RATE_LIMIT.legacyReset);
    if (remaining === undefined) return;
    this.buckets.set(label, { remaining, resetAt: reset === undefined ? undefined : Date.now() + reset * 1000 });
  }

  /**
   * Sends one request; with pacing, a 429 is waited out (Retry-After, at most --max-wait and never past the run's
   * deadline) and retried up to twice.
   */
  async send(options: SendOptions): Promise<Exchange> {
    const pace = options.pace ?? true;
    let exchange = await this.sendOnce(options, pace);
    for (let retry = 0; pace && retry < 2 && exchange.response?.status === 429; retry++) {
      const retryAfter = integerHeader(exchange.response.headers, RETRY_AFTER) ?? 1;
      await this.wait(Math.min(retryAfter * 1000, this.options.maxWaitMs ?? 65000));
      exchange = await this.sendOnce(options, pace);
    }
    return exchange;
  }

  /** Where a request goes: below the base path, or an absolute URL on the target's origin (else refused). */
  private locate(path: string): { root: string; path: string } {
    if (!/^https?:\/\//i.test(path)) return { root: this.basePath, path };
    const url = new URL(path);
    if (url.origin !== this.origin) throw new OffOriginRefused(url.href);
    // An absolute URL (a resolved Location) is requested exactly where it points (RFC 3986), not under the base path;
    // `path` stays relative to the base path when it lies below it, for the hooks that look operations up.
    const below = url.pathname === this.basePath || url.pathname.startsWith(`${this.basePath}/`);
    return {
      root: below ? this.basePath : '',
      path: (below ? url.pathname.slice(this.basePath.length) : url.pathname) + url.search,
    };
  }

  private checkRunning(): void {
    if (this.stopped) throw this.stopped;
    if (this.timeLeft() <= 0) {
      this.stop();
      throw this.stopped;
    }
  }

  private async sendOnce(options: SendOptions, pace: boolean): Promise<Exchange> {
    const located = this.locate(options.path);
    const { label, value } = this.authorization(options.auth);
    this.checkRunning();
    if (pace) await this.waitForQuota(label);
    this.checkRunning();
    if (this.count >= this.options.maxRequests) throw new BudgetExhausted(this.options.maxRequests);
    this.count++;
    const bucket = this.buckets.get(label);
    if (bucket?.remaining !== undefined) bucket.remaining--;

    const { root } = located;
    let { path } = located;
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
        url: this.origin + root + path,
        path: root === this.basePath ? path : this.origin + path,
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
      const wire = (text: string, encode: (token: string) => string) =>
        text
          .split(TOKEN_A_MARK)
          .join(encode(this.options.tokenA))
          .split(encodeURIComponent(TOKEN_A_MARK))
          .join(encode(this.options.tokenA));
      const wireHeaders: Record<string, string> = {};
      for (const [name, headerValue] of Object.entries(headers)) wireHeaders[name] = wire(headerValue, String);
      if (rawBody !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length'))
        wireHeaders['Content-Length'] = String(Buffer.byteLength(rawBody));
      const timeoutMs = this.options.timeoutMs ?? 15000;
      const left = this.timeLeft();
      // The request line goes to the target's own origin, whatever the path holds: no path can name another host.
      const answer = await exchangeOnWire(
        new URL(this.origin),
        {
          method: exchange.request.method,
          path: wire(root + path, encodeURIComponent),
          headers: wireHeaders,
          body: rawBody,
          agent: this.agent,
        },
        {
          maxBytes: this.maxResponseBytes,
          timeoutMs: Math.min(timeoutMs, left),
          timeoutText:
            left < timeoutMs
              ? `the run's --max-time ended the exchange`
              : `no complete answer within ${timeoutMs} ms (--timeout)`,
        },
        this.inFlight,
      );
      let body: unknown;
      if (answer.text.length > 0 && !answer.truncated) {
        try {
          body = JSON.parse(answer.text);
        } catch {
          body = undefined;
        }
      }
      exchange.response = { status: answer.status, headers: answer.headers, body, text: answer.text };
      if (answer.truncated) exchange.response.truncated = true;
      this.remember(label, answer.headers);
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
    }
    exchange.receivedAt = Date.now();
    exchange.receivedTick = ++this.tick;
    this.exchanges.push(exchange);
    this.log.add(exchange);
    for (const listener of this.listeners) listener(exchange);
    // An exchange the run's end cut short is no answer of the target's: the check stops instead of judging it.
    if (exchange.error && (this.stopped || this.timeLeft() <= 0)) {
      this.stop();
      throw this.stopped;
    }
    return exchange;
  }
}
