import { readConfigFromEnv } from './config';
import { readComposeExample } from './testing/compose-example';
import { defined } from './testing/defined';

/**
 * The shared-deployment example works as written: every replica links to the balancer's address, the control
 * plane it exposes needs a secret (none given: no start), and Redis never evicts the mock's keys (an evicting
 * policy dropped idempotency keys, and retries created duplicate runs). `redis-full.test.ts` runs a Redis with
 * this policy full to the brim.
 */
describe('examples/compose.shared-mock.yml', () => {
  it('should give every replica the public address and an admin token', () => {
    const { replicaEnv } = readComposeExample({ MOCK_ADMIN_TOKEN: 'a-secret' });
    const config = readConfigFromEnv(replicaEnv);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(new URL(defined(config.authUrl, 'config.authUrl')).origin).toBe(config.publicUrl);
    expect(config.adminToken).toBe('a-secret');
    expect(config.redisUrl).toMatch(/^redis:\/\//);
  });

  it('should not start a replica without an admin token', () => {
    const { replicaEnv } = readComposeExample({});
    expect(() => readConfigFromEnv(replicaEnv)).toThrow(/MOCK_ADMIN_TOKEN/);
  });

  it('should run Redis with a policy that never evicts the mock keys', () => {
    expect(readComposeExample().redisFlags['maxmemory-policy']).toBe('noeviction');
  });
});
