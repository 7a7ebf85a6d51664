/**
 * Every check of the suite, in the order they run; hooks (checks with onExchange) see every exchange. The list is
 * checks.generated.ts, written by `npm run generate` from every check a module of this folder exports (the order:
 * run-order.ts), so a new check is its file and nothing here; `npm test` fails while the list is stale.
 */
import { CHECKS } from './checks.generated';
import { CheckRegistry, type Check } from './registry';

/**
 * Every check in run order. A const tuple: `CheckId` is derived from it, so a fixture naming a check that is not
 * listed (its `breaks.checkId`, its `checks`) fails to compile, and the fixtures index requires the fixture of
 * every check listed.
 */
export { CHECKS };

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
