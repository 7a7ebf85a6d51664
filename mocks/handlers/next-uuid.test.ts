import { CONTRACT_UUID_PATTERN } from '../../spec/lib/schemas';
import { nextUuid } from './resources';

describe('nextUuid', () => {
  // 2 000 uuids: the pool of random bytes (256 uuids) is refilled several times.
  it('should make version 4 uuids with the RFC variant, inside the contract rule, none twice across refills', () => {
    const seen = new Set<string>();
    const rule = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (let i = 0; i < 2_000; i++) {
      const uuid = nextUuid();
      expect(uuid).toMatch(rule);
      expect(uuid).toMatch(new RegExp(CONTRACT_UUID_PATTERN));
      seen.add(uuid);
    }
    expect(seen.size).toBe(2_000);
  });
});
