// Every diff rule, with every comparison that defines them loaded first: the diff's entry (compare-operations.ts)
// imports each compare-*.ts module, and each defines its rules when it loads. Read the registry here, never from
// rules.ts, so no listing misses a module not loaded yet.

import './compare-operations';
import { type DiffRule, registeredRules } from './rules';

/** A rule by its id, for ids read as text (a fixture case's `want`, a waiver); the diff emits the objects. */
export function getRule(id: string): DiffRule {
  const rule = registeredRules().get(id);
  if (!rule) throw new Error(`unknown diff rule "${id}"`);
  return rule;
}

export function listRules(): DiffRule[] {
  return [...registeredRules().values()];
}
