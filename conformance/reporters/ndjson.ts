/**
 * NDJSON reporter (`--ndjson <file>`): one JSON object per line as the run goes — run, check, case, exchange,
 * failure and warning events — written synchronously, so a crashed or interrupted run leaves every line so far.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { stringifyJson } from '../../spec/lib';
import { redactHeaders, TOKEN_VARIABLES, type Credentials } from '../lib/failure';
import { reportedText, type Exchange } from '../lib/http-client';
import type { Reporter, RunEvent } from '../runner';

/** An exchange as reports show it: tokens written as the run was given them, bodies as text. */
export function exchangeRecord(exchange: Exchange, credentials: Credentials) {
  return {
    id: exchange.id,
    checkId: exchange.checkId,
    operationId: exchange.operationId,
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      headers: redactHeaders(exchange, credentials),
      body: exchange.request.rawBody,
    },
    response: exchange.response && {
      status: exchange.response.status,
      headers: exchange.response.headers,
      body: reportedText(exchange.response.text),
    },
    error: exchange.error,
    startedAt: new Date(exchange.sentAt).toISOString(),
    durationMs: exchange.receivedAt - exchange.sentAt,
  };
}

export function toNdjsonRecord(event: RunEvent, credentials: Credentials = TOKEN_VARIABLES): Record<string, unknown> {
  const time = new Date().toISOString();
  switch (event.type) {
    case 'run-start':
      return {
        event: 'run',
        phase: 'start',
        time,
        target: event.target,
        seed: event.seed,
        specPath: event.specPath,
        checks: event.checks.map((c) => c.id),
        operations: event.operations,
        shard: event.shard,
        workers: event.workers,
      };
    case 'check-start':
      return { event: 'check', phase: 'start', time, id: event.check.id, ruleId: event.check.ruleId };
    case 'check-end': {
      const { failures, warnings, ...rest } = event.result;
      return { event: 'check', phase: 'end', time, ...rest, failures: failures.length, warnings: warnings.length };
    }
    case 'case':
      return {
        event: 'case',
        time,
        checkId: event.checkId,
        property: event.property,
        index: event.index,
        passed: event.passed,
        value: event.value,
      };
    case 'exchange':
      return { event: 'exchange', time, ...exchangeRecord(event.exchange, credentials) };
    case 'finding':
      return { event: event.failure.severity === 'failure' ? 'failure' : 'warning', time, ...event.failure };
    case 'run-end':
    case 'snapshot': {
      const { results, ...rest } = event.summary;
      return {
        event: 'run',
        phase: event.type === 'run-end' ? 'end' : 'snapshot',
        time,
        ...rest,
        checks: results.map((r) => ({
          id: r.id,
          status: r.status,
          failures: r.failures.length,
          warnings: r.warnings.length,
        })),
      };
    }
  }
}

export class NdjsonReporter implements Reporter {
  private fd?: number;

  constructor(
    private readonly file: string,
    private readonly credentials: Credentials = TOKEN_VARIABLES,
  ) {}

  onEvent(event: RunEvent): void {
    this.fd ??= openSync(this.file, 'w');
    writeSync(this.fd, `${stringifyJson(toNdjsonRecord(event, this.credentials))}\n`);
    if (event.type === 'run-end') {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
