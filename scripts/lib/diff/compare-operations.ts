// Per-operation comparison: operations matched by method and path template (parameter names ignored, so a renamed
// path parameter is still the same endpoint), then parameters, request body, responses and security.
// @see https://spec.openapis.org/oas/v3.1.0#operation-object

import { type Anchor, type Change, type Emit, makeChange, show } from './change';
import { compareLifecycle, isRetired } from './compare-lifecycle';
import { compareSchema, type Direction } from './compare-schemas';
import { pathSlot, sameTarget, similarNames } from './rename';
import { sameShape } from './shape';
import { mediaTypeKey } from './semantics';
import { compareComponents, compareSecuritySchemes } from './compare-document';
import { compareCallbacks, compareWebhooks } from './compare-notifications';
import { asArray, asObject, isObject, type JsonObject } from '../../../spec/lib/json';
import {
  effectiveParameters,
  effectiveSecurity,
  formatDate,
  isDeprecated,
  listOperationObjects,
  type OperationRef,
  type ParameterObject,
  serverBasePath,
} from '../../../spec/lib/document';
import { parameterKey, retirementOf } from '../../../spec/lib/operations';

export type CompareOptions = {
  now: Date;
  /** The component a node of either side was written as (`/components/schemas/Thing`): evidence of a rename. */
  targetOf?: (node: object) => string | undefined;
};

/** `/a/{uuid}/b` and `/a/{id}/b` are the same endpoint for clients. */
function pathShape(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

function groupByPath(ops: OperationRef[]): Map<string, OperationRef[]> {
  const out = new Map<string, OperationRef[]>();
  for (const op of ops) {
    const key = pathShape(op.path);
    out.set(key, [...(out.get(key) ?? []), op]);
  }
  return out;
}

export function compareSpecs(base: JsonObject, head: JsonObject, options: CompareOptions): Change[] {
  const changes: Change[] = [];
  const emitFor =
    (operation: string): Emit =>
    (rule, location, detail, anchor) =>
      changes.push(makeChange(rule, operation, location, detail, anchor));

  compareServers(base, head, emitFor('(document)'));
  compareSecuritySchemes(base, head, emitFor('(document)'));
  compareWebhooks(base, head, changes, options);
  compareComponents(base, head, emitFor('(document)'));

  const basePaths = groupByPath(listOperationObjects(base));
  const headPaths = groupByPath(listOperationObjects(head));
  for (const [shape, baseOps] of basePaths) {
    const headOps = headPaths.get(shape) ?? [];
    const retired = (op: OperationRef) => isRetired(op.operation, options.now);
    if (headOps.length === 0 && !baseOps.every(retired)) {
      const methods = baseOps.map((op) => op.method.toUpperCase()).join(', ');
      emitFor(baseOps[0].path)('path-removed', 'path', `path ${baseOps[0].path} removed (${methods})`, {
        base: baseOps[0].pathItem,
        head: head.paths,
      });
      continue;
    }
    for (const baseOp of baseOps) {
      const headOp = headOps.find((op) => op.method === baseOp.method);
      if (headOp) {
        compareOperation(base, head, baseOp, headOp, emitFor(headOp.key), options);
        compareCallbacks(baseOp.operation, headOp.operation, headOp.key, changes, options);
      } else if (retired(baseOp)) {
        emitFor(baseOp.key)(
          'operation-removed-after-sunset',
          'operation',
          `operation removed; its Sunset ${formatDate(retirementOf(baseOp.operation).sunset)} has passed`,
          { base: baseOp.operation, head: headOps[0]?.pathItem },
        );
      } else {
        const sunset = retirementOf(baseOp.operation).sunset;
        const why = !isDeprecated(baseOp.operation)
          ? 'it was never deprecated'
          : sunset
            ? `its Sunset ${formatDate(sunset)} has not passed`
            : 'it has no Sunset date (x-sunset)';
        emitFor(baseOp.key)('operation-removed', 'operation', `operation removed while ${why}`, {
          base: baseOp.operation,
          head: headOps[0]?.pathItem,
        });
      }
    }
  }
  for (const [shape, headOps] of headPaths) {
    const baseOps = basePaths.get(shape) ?? [];
    if (baseOps.length === 0) {
      const methods = headOps.map((op) => op.method.toUpperCase()).join(', ');
      emitFor(headOps[0].path)('path-added', 'path', `path ${headOps[0].path} added (${methods})`, {
        head: headOps[0].pathItem,
      });
      continue;
    }
    for (const headOp of headOps) {
      if (!baseOps.some((op) => op.method === headOp.method))
        emitFor(headOp.key)('operation-added', 'operation', 'operation added', { head: headOp.operation });
    }
  }
  return changes;
}

function compareServers(base: JsonObject, head: JsonObject, emit: Emit): void {
  if (asArray(base.servers).length === 0 || asArray(head.servers).length === 0) return; // nothing to compare
  const b = serverBasePath(base) || '/';
  const h = serverBasePath(head) || '/';
  if (b !== h)
    emit('server-url-changed', 'servers', `base path changed from ${b} to ${h}`, {
      head: head.servers,
      base: base.servers,
    });
}

function compareOperation(
  baseApi: JsonObject,
  headApi: JsonObject,
  b: OperationRef,
  h: OperationRef,
  emit: Emit,
  options: CompareOptions,
): void {
  compareOperationMeta(b, h, emit, options.now);
  compareParameters(b, h, emit, options);
  compareRequestBody(b.operation.requestBody, h.operation.requestBody, emit, options);
  compareResponses(asObject(b.operation.responses), asObject(h.operation.responses), emit, options);
  compareSecurity(effectiveSecurity(baseApi, b.operation), effectiveSecurity(headApi, h.operation), emit, {
    head: h.operation.security ?? headApi.security,
    base: b.operation,
  });
}

export function compareOperationMeta(
  b: OperationRef,
  h: OperationRef,
  emit: Emit,
  now: Date,
  subject = 'the operation',
): void {
  const bo = b.operation;
  const ho = h.operation;
  const anchor = { head: ho, base: bo };
  if (bo.operationId !== ho.operationId) {
    emit(
      'operation-id-changed',
      'operationId',
      `operationId changed from ${show(bo.operationId)} to ${show(ho.operationId)}`,
      { ...anchor, key: 'operationId' },
    );
  }
  compareLifecycle('operation', subject, bo, ho, now, emit, 'deprecated');
  for (const key of ['summary', 'description', 'tags']) {
    if (!sameShape(bo[key] ?? null, ho[key] ?? null))
      emit('operation-docs-changed', key, `${key} changed`, { ...anchor, key });
  }
}

function parameterLabel(p: ParameterObject): string {
  return `parameter ${p.in} ${p.name}`;
}

/** The schema a parameter is validated with: `schema`, or the one media type of `content`. */
function parameterSchema(p: ParameterObject): unknown {
  if (p.schema !== undefined) return p.schema;
  const media = Object.values(asObject(p.content))[0];
  return asObject(media).schema;
}

function compareParameters(b: OperationRef, h: OperationRef, emit: Emit, options: CompareOptions): void {
  const { now } = options;
  const bParams = new Map(effectiveParameters(b).map((p) => [parameterKey(p), p]));
  const hParams = new Map(effectiveParameters(h).map((p) => [parameterKey(p), p]));
  const removed = [...bParams.keys()].filter((k) => !hParams.has(k));
  const added = [...hParams.keys()].filter((k) => !bParams.has(k));
  const renamed = new Map<string, string>();
  for (const r of removed) {
    const bp = bParams.get(r)!;
    const match = added.find((a) => {
      const hp = hParams.get(a)!;
      const evidence =
        bp.in === 'path'
          ? pathSlot(b.path, bp.name) >= 0 && pathSlot(b.path, bp.name) === pathSlot(h.path, hp.name)
          : similarNames(bp.name, hp.name) || sameTarget(options.targetOf, bp, hp);
      return (
        ![...renamed.values()].includes(a) &&
        hp.in === bp.in &&
        (hp.required === true) === (bp.required === true) &&
        evidence &&
        sameShape(parameterSchema(bp), parameterSchema(hp))
      );
    });
    if (match) renamed.set(r, match);
  }
  for (const r of removed) {
    const bp = bParams.get(r)!;
    const to = renamed.get(r);
    if (to) {
      const hp = hParams.get(to)!;
      emit(
        bp.in === 'path' ? 'path-parameter-renamed' : 'parameter-renamed',
        parameterLabel(bp),
        `${bp.in} parameter \`${bp.name}\` renamed to \`${hp.name}\``,
        { head: hp, base: bp },
      );
    } else if (isRetired(bp, now)) {
      emit(
        'parameter-removed-after-sunset',
        parameterLabel(bp),
        `${bp.in} parameter \`${bp.name}\` removed after its Sunset ${formatDate(retirementOf(bp).sunset)}`,
        { head: h.operation, base: bp },
      );
    } else {
      emit('parameter-removed', parameterLabel(bp), `${bp.in} parameter \`${bp.name}\` removed`, {
        head: h.operation,
        base: bp,
      });
    }
  }
  for (const a of added) {
    if ([...renamed.values()].includes(a)) continue;
    const hp = hParams.get(a)!;
    const required = hp.required === true;
    emit(
      required ? 'parameter-added-required' : 'parameter-added-optional',
      parameterLabel(hp),
      `${required ? 'required' : 'optional'} ${hp.in} parameter \`${hp.name}\` added`,
      { head: hp },
    );
  }
  for (const [key, bp] of bParams) {
    const hp = hParams.get(key);
    if (!hp) continue;
    const where = parameterLabel(hp);
    const anchor = { head: hp, base: bp };
    const was = bp.required === true;
    const is = hp.required === true;
    if (was !== is)
      emit(
        is ? 'parameter-made-required' : 'parameter-made-optional',
        where,
        `${hp.in} parameter \`${hp.name}\` is now ${is ? 'required' : 'optional'}`,
        { ...anchor, key: 'required' },
      );
    compareLifecycle('parameter', `${hp.in} parameter \`${hp.name}\``, bp, hp, now, emit, where);
    // Serialisation: the defaults (form + explode for query and cookie, simple otherwise) count as stated.
    const style = (p: ParameterObject) => p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple');
    const explode = (p: ParameterObject) => p.explode ?? style(p) === 'form';
    // On a primitive value explode changes nothing: `a=1` either way.
    const primitive = (p: ParameterObject) =>
      ['string', 'integer', 'number', 'boolean'].includes(String(asObject(parameterSchema(p)).type));
    const serialisation = (p: ParameterObject) =>
      p.content
        ? `content ${Object.keys(asObject(p.content)).map(mediaTypeKey).join(',')}`
        : `style ${String(style(p))}${primitive(bp) && primitive(hp) ? '' : `, explode ${String(explode(p))}`}`;
    // allowReserved only lets reserved characters through unencoded; percent-encoded requests decode the same.
    if (bp.in === 'query' && (bp.allowReserved === true) !== (hp.allowReserved === true)) {
      if (hp.allowReserved === true)
        emit(
          'input-constraint-loosened',
          where,
          `\`${hp.name}\` now also accepts reserved characters unencoded (allowReserved); encoded requests decode the same`,
          { ...anchor, key: 'allowReserved' },
        );
      else
        emit(
          'parameter-allow-reserved-removed',
          where,
          `\`${hp.name}\` no longer allows reserved characters unencoded (allowReserved removed)`,
          { ...anchor, key: 'allowReserved' },
        );
    }
    if (serialisation(bp) !== serialisation(hp)) {
      emit(
        'parameter-serialisation-changed',
        where,
        `serialisation of \`${hp.name}\` changed from ${serialisation(bp)} to ${serialisation(hp)}`,
        { ...anchor, key: hp.style !== undefined ? 'style' : 'explode' },
      );
    }
    compareSchema(parameterSchema(bp), parameterSchema(hp), '', {
      direction: 'input',
      emit,
      where,
      now,
      targetOf: options.targetOf,
      subject: `\`${hp.name}\``,
      prefix: hp.name,
    });
  }
}

export function compareContent(
  baseContent: unknown,
  headContent: unknown,
  direction: Direction,
  where: string,
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
      ? ['request-media-type-removed', 'request-media-type-added']
      : ['response-media-type-removed', 'response-media-type-added'];
  for (const type of Object.keys(b)) {
    const name = names.get(type) ?? type;
    if (!(type in h))
      emit(removedRule, `${where} ${name}`, `media type ${name} removed`, { head: anchor.head, base: b[type] });
  }
  for (const type of Object.keys(h)) {
    const name = names.get(type) ?? type;
    const at = `${where} ${name}`;
    if (!(type in b)) {
      emit(addedRule, at, `media type ${name} added`, { head: h[type] });
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
            ? 'input-constraint-tightened'
            : 'input-constraint-loosened'
          : tightened
            ? 'output-constraint-tightened'
            : 'output-constraint-loosened';
      emit(rule, at, `schema of ${name} ${tightened ? 'added' : 'removed'}`, { head: h[type], base: b[type] });
      continue;
    }
    compareSchema(bs, hs, '', {
      direction,
      emit,
      where: at,
      now: options.now,
      targetOf: options.targetOf,
      subject: `the ${where}`,
      prefix: 'body',
      body: true,
    });
  }
}

function compareRequestBody(baseBody: unknown, headBody: unknown, emit: Emit, options: CompareOptions): void {
  if (!isObject(baseBody) && !isObject(headBody)) return;
  const where = 'request body';
  const anchor = { head: headBody, base: baseBody };
  if (!isObject(headBody)) {
    emit('request-body-removed', where, 'request body removed', anchor);
    return;
  }
  const nowRequired = headBody.required === true;
  if (!isObject(baseBody)) {
    emit(
      nowRequired ? 'request-body-made-required' : 'request-body-added',
      where,
      `${nowRequired ? 'required' : 'optional'} request body added`,
      anchor,
    );
    return;
  }
  const wasRequired = baseBody.required === true;
  const required = { ...anchor, key: 'required' };
  if (!wasRequired && nowRequired) emit('request-body-made-required', where, 'request body is now required', required);
  if (wasRequired && !nowRequired) emit('request-body-made-optional', where, 'request body is now optional', required);
  compareContent(baseBody.content, headBody.content, 'input', where, emit, options, anchor);
}

function isSuccess(status: string): boolean {
  return /^[123]/.test(status) || status.toLowerCase() === 'default';
}

function compareResponses(b: JsonObject, h: JsonObject, emit: Emit, options: CompareOptions): void {
  for (const status of Object.keys(b)) {
    if (!(status in h)) {
      emit(
        isSuccess(status) ? 'response-status-removed' : 'error-response-status-removed',
        `response ${status}`,
        `response ${status} removed`,
        { head: h, base: b[status] },
      );
    }
  }
  for (const status of Object.keys(h)) {
    const where = `response ${status}`;
    if (!(status in b)) {
      emit('response-status-added', where, `response ${status} added`, { head: h[status] });
      continue;
    }
    const bResp = asObject(b[status]);
    const hResp = asObject(h[status]);
    compareResponseHeaders(asObject(bResp.headers), asObject(hResp.headers), where, emit, options, hResp);
    compareContent(bResp.content, hResp.content, 'output', where, emit, options, { head: hResp, base: bResp });
  }
}

export function compareResponseHeaders(
  b: JsonObject,
  h: JsonObject,
  where: string,
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
      header.required === true ? 'response-header-removed' : 'optional-response-header-removed',
      `${where} header ${name}`,
      `${header.required === true ? '' : 'optional '}response header \`${name}\` removed`,
      { head: response, base: header },
    );
  }
  for (const [key, { name, header }] of hh) {
    const at = `${where} header ${name}`;
    const before = bh.get(key);
    if (!before) {
      emit('response-header-added', at, `response header \`${name}\` added`, { head: header });
      continue;
    }
    if (before.header.required === true && header.required !== true) {
      emit('response-header-made-optional', at, `response header \`${name}\` is no longer always sent`, {
        head: header,
        base: before.header,
        key: 'required',
      });
    }
    compareSchema(before.header.schema, header.schema, '', {
      direction: 'output',
      emit,
      where: at,
      now: options.now,
      targetOf: options.targetOf,
      subject: `header \`${name}\``,
      prefix: name,
    });
  }
}

function requirementKey(req: JsonObject): string {
  return Object.keys(req)
    .sort()
    .map((k) => `${k}[${asArray(req[k]).map(String).sort().join(' ')}]`)
    .join('+');
}

/** A base alternative still works when some head alternative needs no more schemes or scopes than it. */
function stillSatisfied(bReq: JsonObject, head: JsonObject[]): boolean {
  return head.some((hReq) =>
    Object.entries(hReq).every(([scheme, scopes]) => {
      if (!(scheme in bReq)) return false;
      const had = new Set(asArray(bReq[scheme]).map(String));
      return asArray(scopes).every((s) => had.has(String(s)));
    }),
  );
}

function compareSecurity(b: JsonObject[] | undefined, h: JsonObject[] | undefined, emit: Emit, anchor: Anchor): void {
  const bReqs = b ?? [];
  const hReqs = h ?? [];
  const open = (reqs: JsonObject[]) => reqs.length === 0 || reqs.some((r) => Object.keys(r).length === 0);
  const label = (reqs: JsonObject[]) =>
    reqs.length === 0 ? '(none)' : reqs.map(requirementKey).join(' | ') || '(anonymous)';
  if (label(bReqs) === label(hReqs)) return;
  const detail = `security changed from ${label(bReqs)} to ${label(hReqs)}`;
  if (open(hReqs)) {
    if (!open(bReqs)) emit('security-removed', 'security', detail, anchor);
    return;
  }
  if (open(bReqs) || !bReqs.every((req) => stillSatisfied(req, hReqs)))
    emit('security-changed', 'security', detail, anchor);
  else if (hReqs.length > bReqs.length) emit('security-alternative-added', 'security', detail, anchor);
  else emit('security-relaxed', 'security', detail, anchor);
}
