import type { LintRule } from '../types';
import { deprecationHeaders } from './deprecation-headers';
import { errorResponsesDeclared } from './error-responses-declared';
import { errorSchema } from './error-schema';
import { examplesValidate } from './examples-validate';
import { idempotencyKey } from './idempotency-key';
import { operationDescription } from './operation-description';
import { ratelimitHeaders } from './ratelimit-headers';
import { securityRequired } from './security-required';
import { unusedComponents } from './unused-components';
import { uuidPathParameters } from './uuid-path-parameters';

function registerRules(rules: LintRule[]): LintRule[] {
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.id)) throw new Error(`lint rule "${rule.id}" is registered twice`);
    seen.add(rule.id);
  }
  return rules;
}

export const LINT_RULES = registerRules([
  ratelimitHeaders,
  errorSchema,
  idempotencyKey,
  securityRequired,
  deprecationHeaders,
  uuidPathParameters,
  errorResponsesDeclared,
  operationDescription,
  examplesValidate,
  unusedComponents,
]);
