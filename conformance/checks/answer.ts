import { describe } from '../lib/exchange';
import type { Exchange } from '../lib/http-client';

/** The answer of an exchange already found answered (a 202, a 429, a status read); a clear error where none came. */
export function answerOf(exchange: Exchange): NonNullable<Exchange['response']> {
  if (!exchange.response) throw new Error(`no answer to judge: ${describe(exchange)}`);
  return exchange.response;
}
