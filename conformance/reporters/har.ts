/** HAR 1.2 reporter (`--har <file>`): every exchange of the run, to open in a browser's devtools or replay elsewhere. */
import { writeFileSync } from 'node:fs';
import { stringifyJson } from '../../spec/lib';
import { TOKEN_VARIABLES, type Credentials } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import type { Reporter, RunEvent } from '../runner';
import { exchangeRecord } from './ndjson';

const pairs = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));

/** @see http://www.softwareishard.com/blog/har-12-spec/#entries */
export function toHarEntry(exchange: Exchange, credentials: Credentials = TOKEN_VARIABLES): Record<string, unknown> {
  const record = exchangeRecord(exchange, credentials);
  const url = new URL(record.request.url);
  const requestType = Object.entries(record.request.headers).find(
    ([name]) => name.toLowerCase() === 'content-type',
  )?.[1];
  const response = record.response;
  return {
    startedDateTime: record.startedAt,
    time: record.durationMs,
    request: {
      method: record.request.method,
      url: record.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(record.request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(record.request.body !== undefined
        ? { postData: { mimeType: requestType ?? 'application/octet-stream', text: record.request.body } }
        : {}),
      headersSize: -1,
      bodySize: record.request.body === undefined ? 0 : Buffer.byteLength(record.request.body),
    },
    response: {
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response?.headers ?? {}),
      content: {
        size: Buffer.byteLength(response?.body ?? ''),
        mimeType: response?.headers['content-type'] ?? 'x-unknown',
        text: response?.body ?? '',
      },
      redirectURL: response?.headers.location ?? '',
      headersSize: -1,
      bodySize: Buffer.byteLength(response?.body ?? ''),
      ...(record.error ? { _error: record.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: record.durationMs, receive: 0 },
    _checkId: record.checkId,
    _operationId: record.operationId,
  };
}

export class HarReporter implements Reporter {
  /** The exchanges themselves, converted when written: the client's bound on the log's text holds here too. */
  private readonly exchanges: Exchange[] = [];

  constructor(
    private readonly file: string,
    private readonly credentials: Credentials = TOKEN_VARIABLES,
  ) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'exchange') this.exchanges.push(event.exchange);
    if (event.type === 'run-end' || event.type === 'snapshot')
      writeFileSync(
        this.file,
        stringifyJson(
          {
            log: {
              version: '1.2',
              creator: { name: 'workspace-automation-api conformance', version: '0.1.0' },
              pages: [],
              entries: this.exchanges.map((exchange) => toHarEntry(exchange, this.credentials)),
            },
          },
          1,
        ),
      );
  }
}
