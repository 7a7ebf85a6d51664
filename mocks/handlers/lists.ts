import { whenKnown } from '../maybe-promise';
import { jsonResponse, type AdmittedCtx } from '../context';
import { freezeDeep } from '../json-text';
import type { RecipeEntry, Suppression } from '../store/types';
import type { MockResponse } from '../types';
import { page, readPage } from './paging';
import type { HandlerDeps, Handlers } from './types';

/** Pages of suppressions, kept per list (nothing in the API edits suppressions); at most this many per list. */
const PAGE_CACHE_SIZE = 64;
const suppressionPages = new WeakMap<Suppression[], Map<string, unknown>>();

function cachedPage(list: Suppression[], key: string, build: () => unknown): unknown {
  let pages = suppressionPages.get(list);
  if (!pages) suppressionPages.set(list, (pages = new Map()));
  let body = pages.get(key);
  if (body === undefined) {
    const oldest = pages.size >= PAGE_CACHE_SIZE ? pages.keys().next() : undefined;
    if (oldest && !oldest.done) pages.delete(oldest.value);
    pages.set(key, (body = freezeDeep(build())));
  }
  return body;
}

/** listSuppressions, listAllocations, listRecipes: filters, then `count` of all matches, then the page. */
export function listHandlers(deps: HandlerDeps) {
  return {
    // The read-only lists answer at once when the store holds them in this process (`whenKnown`): no promise,
    // no turn of the microtask queue, for the most frequent request of a frontend.
    listSuppressions(ctx) {
      const query = ctx.input.query;
      const paging = readPage(query);
      const reasons = query.reasons as string[] | undefined;
      // The parsed list is the same object while the stored text is unchanged, so its pages stay cached.
      return whenKnown(deps.store.suppressions(ctx.caller.workspaceUuid), (all) => {
        const key = `${all.length}|${reasons ? [...new Set(reasons)].sort().join(',') : '*'}|${paging.limit}|${paging.offset}`;
        const body = cachedPage(all, key, () => {
          const matching = reasons && reasons.length > 0 ? all.filter((s) => reasons.includes(s.reason)) : all;
          return { count: matching.length, suppressions: page(matching, paging).map((s) => ({ ...s })) };
        });
        return jsonResponse(200, body);
      });
    },

    listAllocations(ctx) {
      const query = ctx.input.query;
      const paging = readPage(query);
      const members = query.memberUuids as string[] | undefined;
      return whenKnown(deps.store.allocations(ctx.caller.workspaceUuid), (all) => {
        const matching = all
          .filter(
            ({ allocation, territoryUuid }) =>
              (!members || members.length === 0 || members.includes(allocation.memberUuid as string)) &&
              (query.capacityUuid === undefined || allocation.capacityUuid === query.capacityUuid) &&
              (query.territoryUuid === undefined || territoryUuid === query.territoryUuid),
          )
          .map((entry) => entry.allocation);
        return jsonResponse(200, { allocations: page(matching, paging) });
      });
    },

    listRecipes(ctx) {
      const workspaceUuid = ctx.caller.workspaceUuid;
      const recipes = deps.store.recipes(workspaceUuid);
      const userUuid = deps.store.userUuidKnown(workspaceUuid);
      // At once when both are known (the user is remembered after the workspace's first read).
      if (!(recipes instanceof Promise) && userUuid !== undefined) return recipesPage(ctx, recipes, userUuid);
      return Promise.all([recipes, userUuid ?? deps.store.userUuid(workspaceUuid)]).then(([all, user]) =>
        recipesPage(ctx, all, user),
      );
    },
  } satisfies Handlers;
}

/** The page of recipes a list request asks for, of the workspace's recipes (`userUuid`: the token's user). */
function recipesPage(ctx: AdmittedCtx, recipes: RecipeEntry[], userUuid: string): MockResponse {
  const query = ctx.input.query;
  const paging = readPage(query);
  const uiTypes = query.uiTypes as string[] | undefined;
  const categories = query.categories as string[] | undefined;
  const name = typeof query.name === 'string' ? query.name.toLowerCase() : undefined;
  const tab = (query.tab as string | undefined) ?? 'all';
  const matching = recipes
    .filter(({ recipe, uiType, category }) => {
      if (uiTypes && uiTypes.length > 0 && !uiTypes.includes(uiType)) return false;
      if (categories && categories.length > 0 && !categories.includes(category)) return false;
      if (name && !String(recipe.name).toLowerCase().includes(name)) return false;
      if (tab === 'user') return recipe.userUuid === userUuid;
      if (tab === 'workspace') return !recipe.isPublic;
      if (tab === 'favorites') return recipe.isFavorite === true;
      return true;
    })
    .map((entry) => entry.recipe);
  return jsonResponse(200, { recipes: page(matching, paging) });
}
