// Request path → operation. Paths are matched below the base path; the ranking of templated paths is defined
// here once: segment by segment from the left, a literal segment beats a templated one (OAS 3.1 §4.8.8.2:
// "concrete paths are matched before their templated counterparts"); equal shapes keep document order.
// @see https://spec.openapis.org/oas/v3.1.0#path-templating-matching

import type { Operation } from './operations';

export type RouteResult =
  | { kind: 'match'; operation: Operation; params: Record<string, string> }
  | { kind: 'not-found' }
  /** The path exists, the method does not; `allow` lists the methods that do (for the Allow header). */
  | { kind: 'method-not-allowed'; allow: string[] };

type Template = {
  path: string;
  regex: RegExp;
  names: string[];
  shape: boolean[];
  byMethod: Map<string, Operation>;
  order: number;
};

function compileTemplate(path: string, order: number): Template {
  const names: string[] = [];
  const segments = path.split('/');
  const source = segments
    .map((segment) =>
      segment.replace(/\{([^}]+)\}|[^{}]+/g, (whole, name?: string) => {
        if (name === undefined) return whole.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '([^/]+)';
      }),
    )
    .join('/');
  return {
    path,
    regex: new RegExp(`^${source}$`),
    names,
    shape: segments.map((s) => s.includes('{')),
    byMethod: new Map(),
    order,
  };
}

/** Negative when `a` is matched before `b`: at the first segment where they differ, the literal one wins. */
export function compareTemplates(
  a: { shape: boolean[]; order: number },
  b: { shape: boolean[]; order: number },
): number {
  for (let i = 0; i < Math.min(a.shape.length, b.shape.length); i++)
    if (a.shape[i] !== b.shape[i]) return a.shape[i] ? 1 : -1;
  return a.order - b.order;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export type Router = (method: string, path: string) => RouteResult;

/** Where the path ends: at its query or fragment, whichever comes first, else at its end (-1). */
function pathEnd(target: string): number {
  const query = target.indexOf('?');
  const fragment = target.indexOf('#');
  return query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment);
}

/** A router over the operations: literal paths are a map lookup, templated ones are tried in rank order. */
export function createRouter(operations: readonly Operation[]): Router {
  const literal = new Map<string, Map<string, Operation>>();
  const templates = new Map<string, Template>();
  for (const operation of operations) {
    if (!operation.path.includes('{')) {
      let byMethod = literal.get(operation.path);
      if (!byMethod) literal.set(operation.path, (byMethod = new Map()));
      byMethod.set(operation.method, operation);
      continue;
    }
    let template = templates.get(operation.path);
    if (!template) templates.set(operation.path, (template = compileTemplate(operation.path, templates.size)));
    template.byMethod.set(operation.method, operation);
  }
  const ranked = [...templates.values()].sort(compareTemplates);

  return (rawMethod, rawPath) => {
    const method = rawMethod.toUpperCase();
    // The path before any query or fragment (no array made, no pattern run: this runs on every request).
    const end = pathEnd(rawPath);
    const pathname = end === -1 ? rawPath : rawPath.slice(0, end);
    // A trailing slash names the same resource.
    const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
    const exact = literal.get(path);
    const direct = exact?.get(method);
    if (direct) return { kind: 'match', operation: direct, params: {} };
    const allow = new Set<string>(exact?.keys());
    for (const template of ranked) {
      const found = template.regex.exec(path);
      if (!found) continue;
      const operation = template.byMethod.get(method);
      if (operation) {
        // Null prototype: a parameter value never meets Object.prototype's keys.
        const params: Record<string, string> = Object.create(null);
        template.names.forEach((name, i) => (params[name] = safeDecode(found[i + 1])));
        return { kind: 'match', operation, params };
      }
      for (const m of template.byMethod.keys()) allow.add(m);
    }
    return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow] } : { kind: 'not-found' };
  };
}
