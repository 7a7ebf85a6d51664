/**
 * After a 429 (x-rules ratelimit-headers-every-response, auth-required-401, ratelimit-429-retry-after): when the
 * tenant's remaining quota fits the model's allowance, it is spent to the first 429. Requests are counted per
 * workspace, so the other workspace is not refused for it; a request without a credential still gets 401 (it belongs
 * to no workspace); and a retry after waiting `Retry-After` seconds (when that is a few seconds) is not refused again.
 */
import type fc from 'fast-check';
import { describe } from '../../lib/exchange';
import { parseInteger, RATE_LIMIT, RETRY_AFTER } from '../../lib/headers';
import type { Exchange, SendOptions } from '../../lib/http-client';
import { fail, send, type Real } from '../real';
import { other, type Tenant, type WorldModel } from '../world';

/** The longest Retry-After the model waits out to see the retry go through. */
const MAX_WAIT_S = 5;

export class Provoke429Command implements fc.AsyncCommand<WorldModel, Real> {
  constructor(readonly tenant: Tenant) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 5 && !model.phase.quotaBeyondShare;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const list = real.roles.lists[0];
    if (!list || !real.facts[this.tenant]) return;
    const cheap = (auth: SendOptions['auth']): SendOptions => ({
      method: 'GET',
      path: list.op.path,
      auth,
      pace: false,
      operationId: list.op.operationId,
    });
    let last: Exchange = await send(model, real, cheap(this.tenant));
    const remaining = parseInteger(last.response?.headers[RATE_LIMIT.remaining]);
    if (remaining === undefined || remaining + 4 > model.allowance) {
      model.phase.quotaBeyondShare = true;
      real.unjudged.add(
        `a 429 and what follows it: ${remaining === undefined ? 'no RateLimit-Remaining to plan by' : "the requests left in the window are more than the model's share of --max-requests"} (judge it with a smaller rate limit or a larger --max-requests)`,
      );
      return;
    }
    // A window that ends on the way gives its quota back: the requests left are counted again, once.
    for (let round = 0, left = remaining; round < 2 && last.response?.status !== 429; round++) {
      for (let i = 0; i <= left + 1 && last.response?.status !== 429 && model.allowance > 3; i++)
        last = await send(model, real, cheap(this.tenant));
      left = parseInteger(last.response?.headers[RATE_LIMIT.remaining]) ?? Number.POSITIVE_INFINITY;
      if (left + 4 > model.allowance) break;
    }
    if (last.response?.status !== 429) return;
    const refused = last;
    const b = other(this.tenant);
    if (real.facts[b]) {
      const theirs = await send(model, real, cheap(b));
      if (theirs.response?.status === 429 && (parseInteger(theirs.response.headers[RATE_LIMIT.remaining]) ?? 1) > 0)
        fail({
          ruleId: 'ratelimit-headers-every-response',
          title: `After workspace ${this.tenant.toUpperCase()}'s 429, workspace ${b.toUpperCase()} was refused too`,
          expected: `workspace ${b.toUpperCase()}'s own quota: requests are counted per workspace`,
          received: describe(theirs),
          exchange: theirs,
          sequence: [refused],
        });
    }
    const anonymous = await send(model, real, cheap('none'));
    if (anonymous.response?.status !== 401)
      fail({
        ruleId: 'auth-required-401',
        title: `After workspace ${this.tenant.toUpperCase()}'s 429, a request without a credential did not get 401`,
        expected: '401: a request without a valid credential gets 401 (it is counted in no workspace)',
        received: describe(anonymous),
        exchange: anonymous,
        sequence: [refused],
      });
    const wait = parseInteger(refused.response?.headers[RETRY_AFTER]);
    if (wait === undefined || wait > MAX_WAIT_S) return;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
    const retry = await send(model, real, cheap(this.tenant));
    if (retry.response?.status === 429)
      fail({
        ruleId: 'ratelimit-429-retry-after',
        title: `A retry after waiting Retry-After (${wait} s) was refused with 429 again`,
        expected: 'the retry served: Retry-After is the number of seconds to wait before retrying',
        received: describe(retry),
        exchange: retry,
        sequence: [refused],
      });
  }

  toString(): string {
    return `provoke429(${this.tenant})`;
  }
}
