import type { Classification, DiffRule } from './rules';
import type { OperationPart } from '../../../conformance/checks/inputs';

/** The part of an operation a change touches, set where the change is made (the checks read the same parts). */
export type ChangePart = OperationPart;

/** Where a change is: its location as reports show it, and the part of the operation it touches. */
export type Place = { location: string; part: ChangePart };

/** One classified difference between the base and head specs. */
export type Change = {
  rule: string;
  classification: Classification;
  /**
   * `GET /x/{uuid}`, `(document)` for document-wide changes, `webhook thingCreated (POST)` or
   * `callback onDone {$request.body#/url} (POST) of POST /things` for a notification the API sends.
   */
  operation: string;
  /** Set for a change to a notification the API sends (a webhook, or a callback of an operation). */
  channel?: 'webhook' | 'callback';
  /** The operation a callback belongs to (`POST /things`). */
  parentOperation?: string;
  /** Where inside the operation, e.g. `response 200 application/json › workflow.name`: for display and waivers. */
  location: string;
  /** The part it touches (`{ kind: 'response', status: '200', mediaType, field: 'workflow.name' }`): for impact. */
  part: ChangePart;
  /** What changed, one line. */
  detail: string;
  /** Why it is classified so (the rule's reason). */
  reason: string;
  /** Where a reviewer edits it: the file and line of the changed node in the head spec (base when removed). */
  source?: { side: 'head' | 'base'; file: string; line?: number; pointer?: string };
  /** Set when an entry of the waiver file accepts this change. */
  waived?: { reason: string; approvedBy: string; expires: string };
  /** Client and test impact of a breaking change (see impact.ts). */
  impact?: { clientTypes: string[]; conformanceChecks: string[] };
};

/**
 * The nodes of the dereferenced documents a change is located at, for source lines. `key`: the member of that
 * node the change is about (its line is shown when the node has it); `path`: tokens further down (`required`, `2`:
 * the entry of a required list), followed as far as the node has them.
 */
export type Anchor = { head?: unknown; base?: unknown; key?: string; path?: string[] };

/** Reports a change of a rule defined with `defineRules` (a rule id as text does not compile). */
export type Emit = (rule: DiffRule, place: Place, detail: string, anchor?: Anchor) => void;

const anchors = new WeakMap<Change, Anchor>();

export function anchorOf(change: Change): Anchor | undefined {
  return anchors.get(change);
}

export function makeChange(rule: DiffRule, operation: string, place: Place, detail: string, anchor?: Anchor): Change {
  const { location, part } = place;
  const change: Change = {
    rule: rule.id,
    classification: rule.classification,
    operation,
    location,
    part,
    detail,
    reason: rule.reason,
  };
  if (anchor) anchors.set(change, anchor);
  return change;
}

/** Short JSON rendering of a value for one-line details. */
export function show(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
