/** Every check of the suite, in the order they run; hooks (checks with onExchange) see every exchange. */
import { asyncCreateAnswers202WithLocation } from './async-create-answers-202-with-location';
import { concurrentSameKeyRequestsCreateOneRecord } from './concurrent-same-key-requests-create-one-record';
import { deprecationAndSunsetHeadersAreValid } from './deprecation-and-sunset-headers-are-valid';
import { filtersAndExportsStayInTheWorkspace } from './filters-and-exports-stay-in-the-workspace';
import { everyWriteRefusesAReusedKeyWith422 } from './every-write-refuses-a-reused-key-with-422';
import { everyWriteReplaysItsOriginalResponse } from './every-write-replays-its-original-response';
import { everyRouteRefusesAWrongCredential } from './every-route-refuses-a-wrong-credential';
import { errorResponsesUseTheErrorShape } from './error-responses-use-the-error-shape';
import { everyResponseCarriesRateLimitHeaders } from './every-response-carries-rate-limit-headers';
import { invalidRequestsAreRejectedWith400 } from './invalid-requests-are-rejected-with-400';
import { malformedOrOversizedBodiesGet4xx } from './malformed-or-oversized-bodies-get-4xx';
import { noRequestGetsAServerError } from './no-request-gets-a-server-error';
import { listFiltersSelectAndCount } from './list-filters-select-and-count';
import { multipartRequestWithIdempotencyKeyGets400 } from './multipart-request-with-idempotency-key-gets-400';
import { overlongIdempotencyKeyGets400 } from './overlong-idempotency-key-gets-400';
import { polledJobEndsTerminalAndStaysTerminal } from './polled-job-ends-terminal-and-stays-terminal';
import { CheckRegistry, type Check } from './registry';
import { replayedRequestReturnsOriginalResponse } from './replayed-request-returns-original-response';
import { requestsAreCountedPerWorkspace } from './requests-are-counted-per-workspace';
import { requestsWithoutValidCredentialGet401 } from './requests-without-valid-credential-get-401';
import { responsesArriveWithinMaxResponseTime } from './responses-arrive-within-max-response-time';
import { responsesMatchTheContract } from './responses-match-the-contract';
import { reusedKeyWithChangedRequestGets422 } from './reused-key-with-changed-request-gets-422';
import { statedLengthsCountCharacters } from './stated-lengths-count-characters';
import { statedRulesHoldAcrossCommandSequences } from './stated-rules-hold-across-command-sequences';
import { sqlQueryIsReadOnly } from './sql-query-is-read-only';
import { sqlQueryIsScopedPerTable } from './sql-query-is-scoped-per-table';
import { tooManyRequestsCarryRetryAfter } from './too-many-requests-carry-retry-after';
import { undeclaredMethodsAreRefused } from './undeclared-methods-are-refused';
import { validRequestsAreAccepted } from './valid-requests-are-accepted';
import { workspacesDoNotSeeEachOther } from './workspaces-do-not-see-each-other';

/**
 * Every check in run order. A const tuple: `CheckId` is derived from it, so a fixture naming a check that is not
 * listed here (its `breaks.checkId`, its `checks`) fails to compile, and the fixtures index requires the fixture of
 * every check listed.
 */
export const CHECKS = [
  responsesMatchTheContract,
  requestsWithoutValidCredentialGet401,
  everyRouteRefusesAWrongCredential,
  validRequestsAreAccepted,
  invalidRequestsAreRejectedWith400,
  malformedOrOversizedBodiesGet4xx,
  undeclaredMethodsAreRefused,
  listFiltersSelectAndCount,
  statedLengthsCountCharacters,
  asyncCreateAnswers202WithLocation,
  polledJobEndsTerminalAndStaysTerminal,
  replayedRequestReturnsOriginalResponse,
  reusedKeyWithChangedRequestGets422,
  concurrentSameKeyRequestsCreateOneRecord,
  everyWriteReplaysItsOriginalResponse,
  everyWriteRefusesAReusedKeyWith422,
  overlongIdempotencyKeyGets400,
  multipartRequestWithIdempotencyKeyGets400,
  workspacesDoNotSeeEachOther,
  filtersAndExportsStayInTheWorkspace,
  sqlQueryIsReadOnly,
  sqlQueryIsScopedPerTable,
  // The model phase: sequences over every operation, within its share of the budget, before the rate-limit checks.
  statedRulesHoldAcrossCommandSequences,
  requestsAreCountedPerWorkspace,
  // Its burst needs quota, so it runs before the 429 check spends it.
  everyResponseCarriesRateLimitHeaders,
  // Spends the rate limit, so it runs after every check that needs quota.
  tooManyRequestsCarryRetryAfter,
  errorResponsesUseTheErrorShape,
  deprecationAndSunsetHeadersAreValid,
  noRequestGetsAServerError,
  responsesArriveWithinMaxResponseTime,
] as const;

/** The id of a listed check. */
export type CheckId = (typeof CHECKS)[number]['id'];

/** The broken fixtures the listed checks name: each must be in the fixtures index (conformance/fixtures/index.ts). */
export type CheckFixtureName = (typeof CHECKS)[number]['fixture'];

export function createRegistry(): CheckRegistry {
  const registry = new CheckRegistry();
  for (const check of CHECKS) registry.register(check);
  return registry;
}

export function allChecks(): Check[] {
  return createRegistry().all();
}
