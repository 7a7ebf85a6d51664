// The diff rules: one id per kind of change, its classification and the reason a reviewer reads. Each rule is
// defined beside the comparison that emits it (`defineRules` in compare-*.ts) and emitted as the object defined
// there, so a rule emitted without its definition does not compile; this module keeps the registry (refusing an id
// defined twice), and all-rules.ts lists it with every comparison loaded.
// Classifications follow the contract's Versioning section: a breaking change ships as a new path; adding a
// response field, an optional request field or an endpoint is not breaking; clients ignore unknown response
// fields; a deprecated endpoint is served until its Sunset passes. Enumerations follow the contract's own marking:
// a schema with `enum` is a closed set stated in full (a new value in a response is breaking), a string with
// `examples` is an open enumeration (a new value is informational), and a node carrying `x-assumption` rests on
// a reading of the description, not on a statement (a new value there is a warning).
// `warning`: may break some clients or cannot be proven harmless; a reviewer decides (`--fail-on warning`).

export type Classification = 'breaking' | 'warning' | 'non-breaking' | 'informational';

export const CLASSIFICATIONS: readonly Classification[] = ['breaking', 'warning', 'non-breaking', 'informational'];

declare const defined: unique symbol;

/** A rule as `defineRules` made it (the brand keeps an object literal from passing for one). */
export type DiffRule<Id extends string = string> = {
  readonly id: Id;
  readonly classification: Classification;
  readonly reason: string;
  /**
   * Whether a change of this rule can move the client types openapi-typescript generates. `false` (documentation,
   * lifecycle, security, servers, serialisation, patterns): the generated types are the same on both sides, which
   * types.test.ts proves on each fixture case by generating them.
   */
  readonly types: boolean;
  readonly [defined]: true;
};

/** `[classification, reason]`, or with `NO_TYPES` when no change of the rule moves the generated client types. */
export type RuleSpec = readonly [Classification, string] | readonly [Classification, string, typeof NO_TYPES];

/** The third member of a RuleSpec whose changes leave the generated client types as they were. */
export const NO_TYPES = { types: false } as const;

const registry = new Map<string, DiffRule>();

function register<Id extends string>(id: Id, [classification, reason, options]: RuleSpec): DiffRule<Id> {
  if (registry.has(id)) throw new Error(`diff rule "${id}" is defined twice`);
  const rule = { id, classification, reason, types: options?.types ?? true } as DiffRule<Id>;
  registry.set(id, rule);
  return rule;
}

/** Defines rules by id; the result is what `emit` takes (`rules['path-removed']`). */
export function defineRules<const T extends Record<string, RuleSpec>>(
  specs: T,
): { readonly [K in keyof T & string]: DiffRule<K> } {
  const out: Record<string, DiffRule> = {};
  for (const [id, spec] of Object.entries(specs)) out[id] = register(id, spec);
  return out as { readonly [K in keyof T & string]: DiffRule<K> };
}

/** One rule per subject and kind, id `<subject>-<kind>` (`parameter-deprecated`): `family.parameter.deprecated`. */
export function defineRuleFamily<const S extends string, const T extends Record<string, RuleSpec>>(
  subjects: readonly S[],
  specs: T,
): { readonly [P in S]: { readonly [K in keyof T & string]: DiffRule<`${P}-${K}`> } } {
  const out: Record<string, Record<string, DiffRule>> = {};
  for (const subject of subjects) {
    out[subject] = {};
    for (const [kind, spec] of Object.entries(specs)) out[subject][kind] = register(`${subject}-${kind}`, spec);
  }
  return out as { readonly [P in S]: { readonly [K in keyof T & string]: DiffRule<`${P}-${K}`> } };
}

/** The rules defined so far; all-rules.ts is the reader that has every comparison loaded first. */
export function registeredRules(): ReadonlyMap<string, DiffRule> {
  return registry;
}

export const NEW_PATH = 'a breaking change must ship as a new path';
