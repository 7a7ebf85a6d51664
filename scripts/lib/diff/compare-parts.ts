// The parts operations, webhooks and callbacks share: operationId, lifecycle and documentation; the media types of a
// body; a map of headers. compare-operations.ts compares operations with them, compare-notifications.ts the
// notifications the API sends (directions reversed).
// @see https://spec.openapis.org/oas/v3.1.0#media-type-object

import { type Anchor, type Emit, type Place, show } from './change';
import { compareLifecycle } from './compare-lifecycle';
import { compareSchema, type Direction, SCHEMA_RULES } from './compare-schemas';
import { mediaTypeKey } from './semantics';
import { sameShape } from './shape';
import * as at from './place';
import { asObject, isObject, type JsonObject } from '../../../spec/lib/json';
import { defineRules, NO_TYPES } from './rules';

/** What operations, webhooks and callbacks share: operationId, documentation, media types, response headers. */
export const PART_RULES = defineRules({
  'operation-id-changed': ['informational', 'generated clients rename the method; the wire format is unchanged'],
  'operation-docs-changed': ['informational', 'documentation only; the wire format is unchanged', NO_TYPES],
  'request-media-type-removed': ['breaking', 'clients sending this media type get 415'],
  'request-media-type-added': ['non-breaking', 'an extra accepted media type is not breaking'],
  'response-media-type-removed': ['breaking', 'clients asking for this media type no longer get it'],
  'response-media-type-added': ['non-breaking', 'an extra response media type is not breaking'],
  'response-header-removed': ['breaking', 'clients reading this header break'],
  'optional-response-header-removed': [
    'warning',
    'the header was not always sent, but clients reading it when present lose it',
  ],
  'response-header-added': ['non-breaking', 'clients ignore headers they do not read'],
  'response-header-made-optional': ['breaking', 'clients expecting the header break when it is absent'],
});

export type CompareOptions = {
  now: Date;
  /** The component a node of either side was written as (`/components/schemas/Thing`): evidence of a rename. */
  targetOf?: (node: object) => string | undefined;
};

/** The operationId, lifecycle and documentation of two Operation Objects (operations, webhooks, callbacks). */
export function compareOperationMeta(
  bo: JsonObject,
  ho: JsonObject,
  emit: Emit,
  now: Date,
  subject = 'the operation',
): void {
  const anchor = { head: ho, base: bo };
  if (bo.operationId !== ho.operationId) {
    emit(
      PART_RULES['operation-id-changed'],
      at.documentation('operationId'),
      `operationId changed from ${show(bo.operationId)} to ${show(ho.operationId)}`,
      { ...anchor, key: 'operationId' },
    );
  }
  compareLifecycle('operation', subject, bo, ho, now, emit, at.lifecycle('deprecated'));
  for (const key of ['summary', 'description', 'tags']) {
    if (!sameShape(bo[key] ?? null, ho[key] ?? null))
      emit(PART_RULES['operation-docs-changed'], at.documentation(key), `${key} changed`, { ...anchor, key });
  }
}

export function compareContent(
  baseContent: unknown,
  headContent: unknown,
  direction: Direction,
  where: Place,
  emit: Emit,
  options: CompareOptions,
  anchor: Anchor,
): void {
  // Keyed by what the media type means: `application/json; charset=utf-8` is `application/json`.
  const byMeaning = (content: unknown) => {
    const out: JsonObject = {};
    for (const [type, media] of Object.entries(asObject(content))) out[mediaTypeKey(type)] ??= media;
    return out;
  };
  const names = new Map(
    [...Object.keys(asObject(baseContent)), ...Object.keys(asObject(headContent))].map((t) => [mediaTypeKey(t), t]),
  );
  const b = byMeaning(baseContent);
  const h = byMeaning(headContent);
  const [removedRule, addedRule] =
    direction === 'input'
      ? [PART_RULES['request-media-type-removed'], PART_RULES['request-media-type-added']]
      : [PART_RULES['response-media-type-removed'], PART_RULES['response-media-type-added']];
  for (const type of Object.keys(b)) {
    const name = names.get(type) ?? type;
    if (!(type in h))
      emit(removedRule, at.mediaTypeOf(where, name), `media type ${name} removed`, {
        head: anchor.head,
        base: b[type],
      });
  }
  for (const type of Object.keys(h)) {
    const name = names.get(type) ?? type;
    const place = at.mediaTypeOf(where, name);
    if (!(type in b)) {
      emit(addedRule, place, `media type ${name} added`, { head: h[type] });
      continue;
    }
    const bs = asObject(b[type]).schema;
    const hs = asObject(h[type]).schema;
    if (isObject(bs) !== isObject(hs)) {
      // A media type that gains a schema constrains what was free (and the reverse).
      const tightened = isObject(hs);
      const rule =
        direction === 'input'
          ? tightened
            ? SCHEMA_RULES['input-constraint-tightened']
            : SCHEMA_RULES['input-constraint-loosened']
          : tightened
            ? SCHEMA_RULES['output-constraint-tightened']
            : SCHEMA_RULES['output-constraint-loosened'];
      emit(rule, place, `schema of ${name} ${tightened ? 'added' : 'removed'}`, { head: h[type], base: b[type] });
      continue;
    }
    compareSchema(bs, hs, '', {
      direction,
      emit,
      where: place,
      now: options.now,
      targetOf: options.targetOf,
      subject: `the ${where.location}`,
      prefix: 'body',
      body: true,
    });
  }
}

export function compareResponseHeaders(
  b: JsonObject,
  h: JsonObject,
  headerAt: (name: string) => Place,
  emit: Emit,
  options: CompareOptions,
  response: JsonObject,
): void {
  const lower = (m: JsonObject) =>
    new Map(Object.entries(m).map(([k, v]) => [k.toLowerCase(), { name: k, header: asObject(v) }]));
  const bh = lower(b);
  const hh = lower(h);
  for (const [key, { name, header }] of bh) {
    if (hh.has(key)) continue;
    emit(
      header.required === true ? PART_RULES['response-header-removed'] : PART_RULES['optional-response-header-removed'],
      headerAt(name),
      `${header.required === true ? '' : 'optional '}response header \`${name}\` removed`,
      { head: response, base: header },
    );
  }
  for (const [key, { name, header }] of hh) {
    const place = headerAt(name);
    const before = bh.get(key);
    if (!before) {
      emit(PART_RULES['response-header-added'], place, `response header \`${name}\` added`, { head: header });
      continue;
    }
    if (before.header.required === true && header.required !== true) {
      emit(PART_RULES['response-header-made-optional'], place, `response header \`${name}\` is no longer always sent`, {
        head: header,
        base: before.header,
        key: 'required',
      });
    }
    compareSchema(before.header.schema, header.schema, '', {
      direction: 'output',
      emit,
      where: place,
      now: options.now,
      targetOf: options.targetOf,
      subject: `header \`${name}\``,
      prefix: name,
    });
  }
}
