/**
 * x-rules idempotency-replay, idempotency-key-reuse-422, idempotency-concurrent-409, workspace-scoping,
 * auth-required-401, async-poll-terminal, list-filters-and-count, query-read-only-scoped, ratelimit-429-retry-after —
 * the rules that live in sequences: random sequences of commands over every operation and both workspaces (creates
 * with and without keys, replays, reuses, concurrent retries, failed requests then the same key, polls and cancels
 * by either workspace, reads by id, pages, filters, exports, queries, wrong credentials on every kind of route, a 429
 * within the budget), run against a model of what the description states (conformance/model/), every rule that
 * applies checked after each command. Proved by fixtures/broken/replay-twice-creates-record.ts and the other
 * fixtures whose `breaks` name this check.
 */
import { runModelPhase } from '../model/run';
import { RATE_LIMIT_HEADERS } from './inputs';
import { IDEMPOTENCY_KEY_HEADER } from '../../spec/lib';
import { defineCheck } from './registry';

export const statedRulesHoldAcrossCommandSequences = defineCheck({
  id: 'stated-rules-hold-across-command-sequences',
  ruleId: 'workspace-scoping',
  title:
    'After any sequence of commands over every operation and both workspaces, every stated rule that applies holds.',
  fixture: 'replay-twice-creates-record',
  covers: [
    'idempotency-replay: create*',
    'idempotency-key-reuse-422: create*',
    'workspace-scoping: run via get *',
    'workspace-scoping: batch via get *',
    'workspace-scoping: run via cancel *',
    'async-poll-terminal: * stays terminal',
    'auth-required-401: no credential',
    'auth-required-401: Authorization: another scheme',
  ],
  inputs: {
    operations: 'all',
    reads: {
      parts: ['operation', 'security', 'request-body'],
      statuses: ['*'],
      headers: [IDEMPOTENCY_KEY_HEADER, ...RATE_LIMIT_HEADERS],
    },
  },
  async run(ctx) {
    await runModelPhase(ctx);
  },
});
