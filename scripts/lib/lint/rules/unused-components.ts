// A component nothing uses is dead weight in generated clients and a trap for readers; one the contract keeps on
// purpose (a header waiting for the first retiring endpoint, a documented shape) is waived in scripts/waivers.yaml
// with its reason. Reachability starts at paths, webhooks and security requirements and follows `$ref`s.
// @see https://spec.openapis.org/oas/v3.1.0#components-object

import type { LintRule } from '../types';
import { getAtPointer, parsePointer } from '../../../../spec/lib';
import { asArray, isObject, type Json, type JsonObject } from '../../../../spec/lib';

/** Pointers (`#/components/schemas/X`) of every component reachable from outside `components`. */
export function usedComponents(document: JsonObject): Set<string> {
  const used = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: Json | undefined) => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) {
        const [, kind, name] = parsePointer(value);
        const target = `#/components/${kind}/${name}`;
        used.add(target);
        walk(getAtPointer(document, target) as Json | undefined);
      } else walk(value);
    }
  };
  walk(document.paths);
  walk(document.webhooks);
  const requirements = [...asArray(document.security)];
  for (const item of Object.values(isObject(document.paths) ? document.paths : {})) {
    for (const op of Object.values(isObject(item) ? item : {}))
      if (isObject(op)) requirements.push(...asArray(op.security));
  }
  for (const req of requirements)
    for (const name of Object.keys(isObject(req) ? req : {})) used.add(`#/components/securitySchemes/${name}`);
  return used;
}

export const unusedComponents: LintRule = {
  id: 'no-unused-components',
  contractRule: 'response-conformance',
  description:
    'Every component is used by an operation, a webhook or a security requirement, unless a waiver in scripts/waivers.yaml keeps it.',
  check(ctx) {
    const used = usedComponents(ctx.bundled);
    const components = isObject(ctx.bundled.components) ? ctx.bundled.components : {};
    for (const [kind, entries] of Object.entries(components)) {
      if (!isObject(entries)) continue;
      for (const name of Object.keys(entries)) {
        const pointer = `#/components/${kind}/${name}`;
        if (!used.has(pointer)) {
          ctx.reportAt(
            pointer,
            `${kind.replace(/s$/, '')} ${name} is used nowhere: add a $ref to it where it belongs, delete it, or add a lint waiver (rule no-unused-components, target '${pointer}') saying why it stays`,
          );
        }
      }
    }
  },
};
