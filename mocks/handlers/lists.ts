import { jsonResponse } from '../context';
import { page, readPage } from './paging';
import type { HandlerDeps, Handlers } from './types';

/** listSuppressions, listAllocations, listRecipes: filters, then `count` of all matches, then the page. */
export function listHandlers(deps: HandlerDeps): Handlers {
  return {
    listSuppressions(ctx) {
      const query = ctx.input!.query;
      const paging = readPage(query);
      const reasons = query.reasons as string[] | undefined;
      const all = deps.store.workspace(ctx.caller!.workspaceUuid).suppressions;
      const matching = reasons && reasons.length > 0 ? all.filter((s) => reasons.includes(s.reason)) : all;
      return jsonResponse(200, { count: matching.length, suppressions: page(matching, paging) });
    },

    listAllocations(ctx) {
      const query = ctx.input!.query;
      const paging = readPage(query);
      const members = query.memberUuids as string[] | undefined;
      const matching = deps.store
        .workspace(ctx.caller!.workspaceUuid)
        .allocations.filter(
          ({ allocation, territoryUuid }) =>
            (!members || members.length === 0 || members.includes(allocation.memberUuid as string)) &&
            (query.capacityUuid === undefined || allocation.capacityUuid === query.capacityUuid) &&
            (query.territoryUuid === undefined || territoryUuid === query.territoryUuid),
        )
        .map((entry) => entry.allocation);
      return jsonResponse(200, { allocations: page(matching, paging) });
    },

    listRecipes(ctx) {
      const query = ctx.input!.query;
      const paging = readPage(query);
      const state = deps.store.workspace(ctx.caller!.workspaceUuid);
      const uiTypes = query.uiTypes as string[] | undefined;
      const categories = query.categories as string[] | undefined;
      const name = typeof query.name === 'string' ? query.name.toLowerCase() : undefined;
      const tab = (query.tab as string | undefined) ?? 'all';
      const matching = state.recipes
        .filter(({ recipe, uiType, category }) => {
          if (uiTypes && uiTypes.length > 0 && !uiTypes.includes(uiType)) return false;
          if (categories && categories.length > 0 && !categories.includes(category)) return false;
          if (name && !String(recipe.name).toLowerCase().includes(name)) return false;
          if (tab === 'user') return recipe.userUuid === state.userUuid;
          if (tab === 'workspace') return !recipe.isPublic;
          if (tab === 'favorites') return recipe.isFavorite === true;
          return true;
        })
        .map((entry) => entry.recipe);
      return jsonResponse(200, { recipes: page(matching, paging) });
    },
  };
}
