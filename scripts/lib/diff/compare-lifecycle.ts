// Deprecation and Sunset of an operation, a parameter or a property, compared between base and head.
// The spec marks a retirement with `deprecated: true`, `x-deprecation` and `x-sunset` (see retirementOf in spec/lib/operations.ts);
// the contract (Versioning 4-6) puts Sunset at least 180 days after Deprecation and serves the thing until then.
// @see https://www.rfc-editor.org/rfc/rfc8594 (Sunset), https://www.rfc-editor.org/rfc/rfc9745 (Deprecation)

import type { Emit, Place } from './change';
import { defineRuleFamily, NO_TYPES } from './rules';
import { formatDate, isDeprecated } from '../../../spec/lib/document';
import { isObject, type JsonObject } from '../../../spec/lib/json';
import { MINIMUM_SUNSET_GAP_DAYS } from '../../../spec/lib/constants';
import { retirementOf } from '../../../spec/lib/operations';

const DAY = 24 * 60 * 60 * 1000;

const SUNSET_GAP = `the contract puts Sunset at least ${MINIMUM_SUNSET_GAP_DAYS} days after Deprecation`;

/** `operation-deprecated`, `parameter-deprecated`, `property-deprecated`, …: one rule per subject and kind. */
export const LIFECYCLE_RULES = defineRuleFamily(['operation', 'parameter', 'property'], {
  deprecated: ['non-breaking', 'still served until its Sunset passes; clients should plan to migrate', NO_TYPES],
  'deprecated-without-sunset': [
    'warning',
    'the contract allows Sunset later, but clients get no removal date to plan for; add x-sunset once it is fixed',
    NO_TYPES,
  ],
  reactivated: ['informational', 'no longer scheduled for retirement', NO_TYPES],
  'sunset-removed': ['warning', 'the removal date clients were given is withdrawn while it stays deprecated', NO_TYPES],
  'sunset-moved-earlier': ['breaking', 'clients planned their migration on the date announced before', NO_TYPES],
  'sunset-postponed': ['informational', 'clients get more time to migrate', NO_TYPES],
  'sunset-too-soon': ['breaking', SUNSET_GAP, NO_TYPES],
  'sunset-invalid': ['breaking', 'the Sunset date cannot be read, so clients cannot plan for it', NO_TYPES],
});

export type LifecycleSubject = keyof typeof LIFECYCLE_RULES;

/** A stated `x-sunset` that is not a date. */
function sunsetUnreadable(node: JsonObject): boolean {
  return node['x-sunset'] !== undefined && retirementOf(node).sunset === undefined;
}

/** Was it retired by `now`: deprecated with a Sunset that has passed. */
export function isRetired(node: unknown, now: Date): boolean {
  if (!isObject(node) || !isDeprecated(node)) return false;
  const sunset = retirementOf(node).sunset;
  return sunset !== undefined && sunset.getTime() <= now.getTime();
}

export function compareLifecycle(
  subject: LifecycleSubject,
  name: string,
  base: unknown,
  head: unknown,
  now: Date,
  emit: Emit,
  where: Place,
): void {
  if (!isObject(base) || !isObject(head)) return;
  const rules = LIFECYCLE_RULES[subject];
  const anchor = { head, base, key: head['x-sunset'] !== undefined ? 'x-sunset' : 'deprecated' };
  const was = isDeprecated(base);
  const is = isDeprecated(head);
  const before = retirementOf(base).sunset;
  const after = retirementOf(head).sunset;
  if (was && !is) {
    emit(rules.reactivated, where, `${name} is no longer deprecated`, anchor);
    return;
  }
  if (!is) return;
  if (sunsetUnreadable(head)) {
    emit(
      rules['sunset-invalid'],
      where,
      `${name} has x-sunset ${JSON.stringify(head['x-sunset'])}, which is not a date`,
      anchor,
    );
    return;
  }
  if (!was) {
    if (after) emit(rules.deprecated, where, `${name} deprecated; Sunset ${formatDate(after)}`, anchor);
    else emit(rules['deprecated-without-sunset'], where, `${name} deprecated without a Sunset date (x-sunset)`, anchor);
  } else if (before && !after) {
    emit(
      rules['sunset-removed'],
      where,
      `Sunset ${formatDate(before)} of ${name} removed; it stays deprecated`,
      anchor,
    );
  } else if (before && after && after.getTime() < before.getTime()) {
    emit(
      rules['sunset-moved-earlier'],
      where,
      `Sunset of ${name} moved earlier, from ${formatDate(before)} to ${formatDate(after)}`,
      anchor,
    );
  } else if (before && after && after.getTime() > before.getTime()) {
    emit(
      rules['sunset-postponed'],
      where,
      `Sunset of ${name} postponed from ${formatDate(before)} to ${formatDate(after)}`,
      anchor,
    );
  } else if (!before && after) {
    emit(rules.deprecated, where, `${name} now has a Sunset date: ${formatDate(after)}`, anchor);
  }
  if (after && (!before || after.getTime() !== before.getTime())) {
    // Without an x-deprecation date the deprecation starts with this change, i.e. now.
    const from = retirementOf(head).deprecation ?? now;
    const earliest = new Date(from.getTime() + MINIMUM_SUNSET_GAP_DAYS * DAY);
    if (after.getTime() < earliest.getTime()) {
      emit(
        rules['sunset-too-soon'],
        where,
        `Sunset ${formatDate(after)} of ${name} is less than ${MINIMUM_SUNSET_GAP_DAYS} days after ` +
          `${retirementOf(head).deprecation ? `its Deprecation ${formatDate(from)}` : `today (${formatDate(now)}), with no x-deprecation date`}; ` +
          `the earliest allowed is ${formatDate(earliest)}`,
        anchor,
      );
    }
  }
}
