// Schema errors as a person reads them: one problem per place and rule, each with the JSON pointer of the value
// it is about (RFC 6901), the rule named in words rather than printed as ajv's message or a long regex.

import type { ErrorObject } from 'ajv/dist/2020';
import { CONTRACT_UUID_PATTERN } from './schemas';

/** One thing wrong with a value: where (a JSON pointer into the value checked) and what, in words. */
export type SchemaProblem = { pointer: string; message: string };

/** Patterns shown by name: a person cannot read them, and they are the contract's own rules. */
const MUST_BE_A_UUID = 'must be a UUID (versions 1–8, variant 8, 9, a or b; or the nil or max UUID)';
const NAMED_PATTERNS = new Map<string, string>([[CONTRACT_UUID_PATTERN, MUST_BE_A_UUID]]);
const NAMED_FORMATS: Record<string, string> = {
  uuid: MUST_BE_A_UUID,
  'date-time': 'must be a date-time (RFC 3339, e.g. 2026-01-31T09:00:00Z)',
  date: 'must be a date (e.g. 2026-01-31)',
  email: 'must be an email address',
  uri: 'must be an absolute URI',
  'uri-reference': 'must be a URI reference',
};
/** Longer patterns are named by the schema that holds them instead of printed. */
const PATTERN_SHOWN_UP_TO = 40;

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const plural = (n: unknown, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;
const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The schema a keyword sits in, by its component name when it has one (`#/components/schemas/Uuid/pattern`). */
function schemaName(schemaPath: string): string | undefined {
  return /#\/components\/schemas\/([^/]+)\//.exec(schemaPath)?.[1];
}

/** The rule an error breaks, in words. */
export function describeRule(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not allowed';
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return `must be ${types.map((t: string) => TYPE_NAMES[t] ?? t).join(' or ')}`;
    }
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern': {
      const pattern = String(params.pattern);
      const named = NAMED_PATTERNS.get(pattern);
      if (named) return named;
      const name = schemaName(error.schemaPath);
      return pattern.length <= PATTERN_SHOWN_UP_TO || !name
        ? `must match ${pattern}`
        : `must match the pattern of ${name}`;
    }
    case 'format':
      return NAMED_FORMATS[String(params.format)] ?? `must be a ${String(params.format)}`;
    case 'maxLength':
      return `must have at most ${plural(params.limit, 'character')}`;
    case 'minLength':
      return `must have at least ${plural(params.limit, 'character')}`;
    case 'maxItems':
      return `must have at most ${plural(params.limit, 'item')}`;
    case 'minItems':
      return `must have at least ${plural(params.limit, 'item')}`;
    case 'maxProperties':
      return `must have at most ${plural(params.limit, 'property')}`.replace(/propertys$/, 'properties');
    case 'minProperties':
      return `must have at least ${plural(params.limit, 'property')}`.replace(/propertys$/, 'properties');
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(params.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(params.multipleOf)}`;
    case 'uniqueItems':
      return `must not repeat an item (items ${String(params.j)} and ${String(params.i)} are equal)`;
    default:
      return error.message ?? 'is not valid';
  }
}

/** The pointer an error is about: the missing or unexpected property itself, not the object that holds it. */
function pointerOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${error.instancePath}/${escapeToken(String(params.missingProperty))}`;
  if (error.keyword === 'additionalProperties')
    return `${error.instancePath}/${escapeToken(String(params.additionalProperty))}`;
  if (error.keyword === 'unevaluatedProperties')
    return `${error.instancePath}/${escapeToken(String(params.unevaluatedProperty))}`;
  return error.instancePath;
}

/**
 * The failed `anyOf`/`oneOf` each error belongs to. ajv reports a failed alternative right after the errors of its
 * branches, so those are the errors just before it, below its value; their schema paths do not always start with
 * the alternative's (a branch that is a `$ref` reports the path of its target), so a branch ends, going back, at
 * an error of the schema that holds the alternative (a sibling keyword) or one about another value.
 */
function branchesOf(errors: readonly ErrorObject[]): Map<ErrorObject, ErrorObject> {
  const branches = new Map<ErrorObject, ErrorObject>();
  errors.forEach((alt, index) => {
    if (alt.keyword !== 'anyOf' && alt.keyword !== 'oneOf') return;
    const holder = alt.schemaPath.slice(0, alt.schemaPath.lastIndexOf('/'));
    for (let j = index - 1; j >= 0; j--) {
      const error = errors[j];
      if (branches.has(error)) continue; // already a branch of a nested alternative that is itself in this one
      const below = error.instancePath === alt.instancePath || error.instancePath.startsWith(`${alt.instancePath}/`);
      const inAlt = error.schemaPath.startsWith(`${alt.schemaPath}/`);
      const sibling =
        !inAlt &&
        error.schemaPath.startsWith(`${holder}/`) &&
        !(holder === '#' && /^#\/(components|\$defs)\//.test(error.schemaPath));
      if (!below || sibling) break;
      branches.set(error, alt);
    }
  });
  return branches;
}

/**
 * Every problem once, in the order ajv found them. The branches of a failed `anyOf`/`oneOf` become one problem
 * ("must be a UUID (…) or null") instead of one per branch plus ajv's "must match a schema in anyOf", or, when a
 * branch failed inside the value (a nullable object with a missing field), the problems inside it; the same
 * rule at the same place (a `$ref` reached twice, a required field of two `allOf` parts) is listed once.
 */
export function schemaProblems(errors: readonly ErrorObject[]): SchemaProblem[] {
  const branches = branchesOf(errors);
  const branchOf = (error: ErrorObject) => branches.get(error);
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  const add = (pointer: string, message: string) => {
    const key = `${pointer}\n${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push({ pointer, message });
  };
  for (const error of errors) {
    if (branchOf(error)) continue;
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const branchErrors = errors.filter((e) => branchOf(e) === error);
      // A branch that got past this value's own rules (its type) failed inside it: those problems are the useful
      // ones (a discriminator another branch refused, `not`, says nothing a person can fix).
      const inside = branchErrors.filter((e) => pointerOf(e) !== error.instancePath && e.keyword !== 'not');
      if (inside.length > 0) {
        for (const e of inside) add(pointerOf(e), describeRule(e));
        continue;
      }
      // Else what each branch asked of this very value, in one problem: "must be a UUID (…) or null".
      const asked = branchErrors.filter((e) => e.keyword !== 'not').map(describeRule);
      const unique = [...new Set(asked)].map((rule, i) => (i === 0 ? rule : rule.replace(/^must be /, '')));
      add(error.instancePath, unique.length > 0 ? unique.join(' or ') : 'must match one of its allowed forms');
      continue;
    }
    add(pointerOf(error), describeRule(error));
  }
  return problems;
}
