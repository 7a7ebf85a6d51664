import { type Classification, getRule } from './rules';

/** One classified difference between the base and head specs. */
export type Change = {
  rule: string;
  classification: Classification;
  /** `GET /x/{uuid}`, or `(document)` for document-wide changes. */
  operation: string;
  /** Where inside the operation, e.g. `response 200 application/json › workflow.name`. */
  location: string;
  /** What changed, one line. */
  detail: string;
  /** Why it is classified so (the rule's reason). */
  reason: string;
};

export type Emit = (rule: string, location: string, detail: string) => void;

export function makeChange(rule: string, operation: string, location: string, detail: string): Change {
  const def = getRule(rule);
  return { rule, classification: def.classification, operation, location, detail, reason: def.reason };
}

/** Short JSON rendering of a value for one-line details. */
export function show(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
