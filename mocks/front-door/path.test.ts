import { ApiError } from '../errors';
import { readTarget } from './path';

describe('readTarget', () => {
  it.each([
    ['/v1/mailboxManagement/suppressions?limit=2', '/v1/mailboxManagement/suppressions', 'limit=2'],
    ['/v1/a.b/c..d?x=..', '/v1/a.b/c..d', 'x=..'],
    ['/v1/x?a=%2e%2e%2f', '/v1/x', 'a=..%2F'],
    ['http://mock.example/v1/x?y=1', '/v1/x', 'y=1'],
    ['/__mock/settings#frag', '/__mock/settings', ''],
  ])('should read %s as the path it names', (raw, path, query) => {
    const target = readTarget(raw);
    expect(target).not.toBeInstanceOf(ApiError);
    expect(target).toMatchObject({ path });
    expect(String((target as { query: URLSearchParams }).query)).toBe(query);
  });

  it.each([
    '/v1/%2e%2e/__mock/settings',
    '/v1/%2E%2e/__mock/settings',
    '/v1/.%2e/__mock/settings',
    '/v1/../__mock/settings',
    '/v1/./mailboxManagement/suppressions',
    '/v1/..%2f__mock/settings',
    '/v1%2f..%2f__mock',
    '/v1%5c..%5c__mock',
    '/v1\\..\\__mock',
    '/v1/%2e',
    'http://mock.example/v1/%2e%2e/__mock',
    '*',
  ])('should refuse %s with 400 invalid_path, before any mount', (raw) => {
    expect(readTarget(raw)).toMatchObject({ status: 400, reason: 'invalid_path' });
  });
});
