import { ApiError, toApiError } from './errors';

describe('ApiError', () => {
  it('should serialise to the contract error shape with extra fields kept', () => {
    const error = new ApiError(429, 'rate_limited', 'Too many requests.', { retryAfter: 3 });
    expect(error.toBody()).toEqual({ errorMessage: 'Too many requests.', reason: 'rate_limited', retryAfter: 3 });
  });

  it('should turn an unknown failure into a 500 without a stack trace', () => {
    const body = toApiError(new TypeError('boom at foo.ts:1')).toBody();
    expect(body).toEqual({ errorMessage: 'The mock failed to answer this request.', reason: 'internal_error' });
  });
});
