import type { JsonObject, Operation } from '../../../spec/lib';

/** One contract-lint finding: where it is and what to add. */
export type Problem = {
  rule: string;
  /** `GET /x/{uuid}`, or `(document)`. */
  operation: string;
  /** JSON pointer into the entry document, e.g. `#/paths/~1x/get/responses/404`. */
  pointer: string;
  /** What is wrong and what to add, one line. */
  message: string;
  line?: number;
  /** Set when a lint waiver accepts this problem. */
  waived?: { reason: string; approvedBy: string; expires: string };
};

export type LintContext = {
  /** Fully dereferenced document: shared components are the same objects wherever they are referenced. */
  api: JsonObject;
  /** The operation model over `api`: parameters and security merged once, in spec/lib. */
  operations: Operation[];
  /** The document with split files bundled in and internal `$ref`s kept (spec/lib's bundleFile). */
  bundled: JsonObject;
  report(operation: Operation | undefined, pointer: string[], message: string): void;
  /** Report at a JSON pointer into the bundled document (`#/components/schemas/X`). */
  reportAt(pointer: string, message: string): void;
};

export type LintRule = {
  id: string;
  /** The contract rule (x-rules id) it guards. */
  contractRule: string;
  /** The rule as a sentence. */
  description: string;
  check(ctx: LintContext): void;
};
