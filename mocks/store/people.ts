import { WORKSPACE_A, WORKSPACE_B } from '../defaults';
import { createPrng, hashString } from './prng';

export type Person = { uuid: string; firstName: string; lastName: string; email: string };

/**
 * The person each seeded workspace's tokens act as. The OAuth server's mock users carry the same names
 * (mocks/oauth defaultAuthConfig; a test keeps them equal), so userinfo and the data agree.
 */
const OWNER_NAMES = new Map<string, { firstName: string; lastName: string; email: string }>([
  [WORKSPACE_A, { firstName: 'Ada', lastName: 'Mock', email: 'ada@workspace-a.example' }],
  [WORKSPACE_B, { firstName: 'Bo', lastName: 'Mock', email: 'bo@workspace-b.example' }],
]);

const COLLEAGUES: [string, string][] = [
  ['Grace', 'Hopper'],
  ['Alan', 'Turing'],
  ['Barbara', 'Liskov'],
  ['Edsger', 'Dijkstra'],
  ['Radia', 'Perlman'],
];

export function ownerOf(workspaceUuid: string, userUuid: string): Person {
  const named = OWNER_NAMES.get(workspaceUuid) ?? {
    firstName: 'Dev',
    lastName: 'Mock',
    email: `dev@${workspaceUuid.slice(0, 8)}.example`,
  };
  return { uuid: userUuid, ...named };
}

/** A few colleagues per workspace with stable uuids, so shared recipes name a handful of people, not one per recipe. */
export function colleaguesOf(workspaceUuid: string, seed: number): Person[] {
  const rng = createPrng(hashString(`${seed}:${workspaceUuid}:people`));
  const domain = `${workspaceUuid.slice(0, 8)}.example`;
  return COLLEAGUES.map(([firstName, lastName]) => ({
    uuid: rng.uuid(),
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}@${domain}`,
  }));
}
