import { CONTRACT_UUID_PATTERN } from '../../spec/lib/schemas';
import { nextTimeOrderedUuid, nextUuid } from './resources';

describe('nextUuid', () => {
  // 2 000 uuids: the pool of random bytes (256 uuids) is refilled several times.
  it('should make version 4 uuids with the RFC variant, inside the contract rule, none twice across refills', () => {
    const seen = new Set<string>();
    const rule = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const contract = new RegExp(CONTRACT_UUID_PATTERN);
    const variants = new Set<string>();
    const made: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      const uuid = nextUuid();
      expect(uuid).toMatch(rule);
      expect(uuid).toMatch(contract);
      seen.add(uuid);
      variants.add(uuid[19]);
      made.push(uuid);
    }
    expect(seen.size).toBe(2_000);
    // Every variant digit the RFC allows comes out (the two bits below the variant's are random).
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
    // A uuid handed out is its own string: making more (the text buffer written again) does not change it.
    expect(made.every((uuid) => seen.has(uuid) && rule.test(uuid))).toBe(true);
  });

  it('should spread its random digits evenly (no byte of the pool used twice or left unfilled)', () => {
    // Each hex digit of the 30 random positions, over 4 096 uuids: about 256 of each value per position.
    const counts = Array.from({ length: 36 }, () => new Map<string, number>());
    for (let i = 0; i < 4_096; i++) {
      const uuid = nextUuid();
      for (let at = 0; at < 36; at++) counts[at].set(uuid[at], (counts[at].get(uuid[at]) ?? 0) + 1);
    }
    for (const at of [0, 7, 9, 12, 15, 17, 20, 22, 24, 35]) {
      expect(counts[at].size).toBe(16);
      for (const count of counts[at].values()) expect(count).toBeGreaterThan(150);
    }
    expect([...counts[14].keys()]).toEqual(['4']);
  });
});

describe('nextTimeOrderedUuid', () => {
  const rule = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const contract = new RegExp(CONTRACT_UUID_PATTERN);
  const msOf = (uuid: string) => parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);

  it('should make version 7 uuids inside the contract rule, in the order made, across and within milliseconds', () => {
    const made: string[] = [];
    // 3 000 in one millisecond (within the count's room from any start), then one a millisecond.
    for (let i = 0; i < 2_000; i++) made.push(nextTimeOrderedUuid(1_700_000_000_000));
    for (let i = 1; i <= 1_000; i++) made.push(nextTimeOrderedUuid(1_700_000_000_000 + i));
    for (const uuid of made) {
      expect(uuid).toMatch(rule);
      expect(uuid).toMatch(contract);
    }
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    expect(msOf(made[0])).toBe(1_700_000_000_000);
    expect(msOf(made[made.length - 1])).toBe(1_700_000_001_000);
  });

  it('should stay unique however many are made in one millisecond, or when the clock goes back', () => {
    const made = new Set<string>();
    for (let i = 0; i < 10_000; i++) made.add(nextTimeOrderedUuid(5));
    for (let i = 0; i < 1_000; i++) made.add(nextTimeOrderedUuid(4));
    expect(made.size).toBe(11_000);
    for (const uuid of made) expect(uuid).toMatch(rule);
  });
});
