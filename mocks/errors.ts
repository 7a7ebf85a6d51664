import { StoreUnavailableError } from './store/port';

/**
 * The contract's one error shape (x-rules: error-shape): an open object with a human-readable
 * `errorMessage` and a machine-readable `reason`. Every stage raises ApiError; one serialiser writes it.
 */
export type ErrorBody = { errorMessage: string; reason: string; [extra: string]: unknown };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return { ...this.extra, errorMessage: this.message, reason: this.reason };
  }
}

/** Turns anything thrown into an ApiError; unknown failures become a 500 that leaks no stack trace. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreUnavailableError) {
    // Never a silent fall-back to this process's own state: the client is told to retry shortly.
    return new ApiError(
      503,
      'store_unavailable',
      'The mock cannot reach its shared store (Redis); retry shortly.',
      {},
      { 'retry-after': '1' },
    );
  }
  return new ApiError(500, 'internal_error', 'The mock failed to answer this request.');
}
