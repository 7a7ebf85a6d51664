import { ApiError } from '../errors';
import { safeDict } from '../safety/dict';
import type { OperationInfo } from './load';

export type RouteMatch = { operation: OperationInfo; params: Record<string, string> };

type Template = { regex: RegExp; names: string[]; byMethod: Map<string, OperationInfo>; literalSegments: number };

/**
 * Matches a path (without the base) to the spec's operations. Literal paths are a map lookup (the hot path);
 * templated paths are tried most-literal first, so `/runs/download` wins over `/runs/{uuid}`.
 */
export function createRouter(operations: OperationInfo[]) {
  const literal = new Map<string, Map<string, OperationInfo>>();
  const templates = new Map<string, Template>();
  for (const op of operations) {
    if (!op.pathTemplate.includes('{')) {
      if (!literal.has(op.pathTemplate)) literal.set(op.pathTemplate, new Map());
      literal.get(op.pathTemplate)!.set(op.method, op);
      continue;
    }
    let template = templates.get(op.pathTemplate);
    if (!template) {
      const names: string[] = [];
      const source = op.pathTemplate
        .split('/')
        .map((segment) =>
          segment.replace(/\{([^}]+)\}|[^{}]+/g, (whole, name?: string) => {
            if (name) {
              names.push(name);
              return '([^/]+)';
            }
            return whole.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          }),
        )
        .join('/');
      const literalSegments = op.pathTemplate.split('/').filter((s) => s && !s.includes('{')).length;
      template = { regex: new RegExp(`^${source}$`), names, byMethod: new Map(), literalSegments };
      templates.set(op.pathTemplate, template);
    }
    template.byMethod.set(op.method, op);
  }
  const ordered = [...templates.values()].sort((a, b) => b.literalSegments - a.literalSegments);

  /** Returns the match, or throws 404 (no such path) / 405 (path exists, method does not). */
  return function matchRoute(method: string, path: string): RouteMatch {
    const normalised = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const methods: string[] = [];
    const exact = literal.get(normalised);
    if (exact) {
      const operation = exact.get(method);
      if (operation) return { operation, params: {} };
      methods.push(...exact.keys());
    }
    for (const template of ordered) {
      const found = template.regex.exec(normalised);
      if (!found) continue;
      const operation = template.byMethod.get(method);
      if (operation) {
        const params = safeDict<string>();
        template.names.forEach((name, i) => {
          params[name] = safeDecode(found[i + 1]);
        });
        return { operation, params };
      }
      methods.push(...template.byMethod.keys());
    }
    if (methods.length > 0) {
      const allow = [...new Set(methods)].join(', ');
      throw new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed on ${normalised}; allowed: ${allow}.`, {}, { allow });
    }
    throw new ApiError(404, 'not_found', `No operation at ${method} ${normalised}.`);
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
