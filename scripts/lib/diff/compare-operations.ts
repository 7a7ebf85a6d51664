// Per-operation comparison: operations matched by method and path template (parameter names ignored, so a renamed
// path parameter is still the same endpoint), then parameters, request body, responses and security.
// @see https://spec.openapis.org/oas/v3.1.0#operation-object

import { type Change, type Emit, makeChange, show } from './change';
import { compareSchema, type Direction, sameShape } from './compare-schemas';
import {
  asArray, asObject, effectiveParameters, effectiveSecurity, isObject, type JsonObject, listOperations,
  type OperationRef, type Parameter, parameterKey, serverPath,
} from '../spec/openapi';
import { formatDate, isDeprecated, sunsetDate } from '../spec/sunset';

export type CompareOptions = { now: Date };

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
  const emitFor = (operation: string): Emit => (rule, location, detail) => changes.push(makeChange(rule, operation, location, detail));

  compareServers(base, head, emitFor('(document)'));
  compareSecuritySchemes(base, head, emitFor('(document)'));

  const basePaths = groupByPath(listOperations(base));
  const headPaths = groupByPath(listOperations(head));
  for (const [shape, baseOps] of basePaths) {
    const headOps = headPaths.get(shape) ?? [];
    const retired = (op: OperationRef) => {
      const sunset = sunsetDate(op.operation);
      return isDeprecated(op.operation) && sunset !== undefined && sunset.getTime() <= options.now.getTime();
    };
    if (headOps.length === 0 && !baseOps.every(retired)) {
      const methods = baseOps.map((op) => op.method.toUpperCase()).join(', ');
      emitFor(baseOps[0].path)('path-removed', 'path', `path ${baseOps[0].path} removed (${methods})`);
      continue;
    }
    for (const baseOp of baseOps) {
      const headOp = headOps.find((op) => op.method === baseOp.method);
      if (headOp) {
        compareOperation(base, head, baseOp, headOp, emitFor(headOp.key));
      } else if (retired(baseOp)) {
        emitFor(baseOp.key)('operation-removed-after-sunset', 'operation',
          `operation removed; its Sunset ${formatDate(sunsetDate(baseOp.operation))} has passed`);
      } else {
        const sunset = sunsetDate(baseOp.operation);
        const why = !isDeprecated(baseOp.operation) ? 'it was never deprecated'
          : sunset ? `its Sunset ${formatDate(sunset)} has not passed` : 'it has no Sunset date (x-sunset)';
        emitFor(baseOp.key)('operation-removed', 'operation', `operation removed while ${why}`);
      }
    }
  }
  for (const [shape, headOps] of headPaths) {
    const baseOps = basePaths.get(shape) ?? [];
    if (baseOps.length === 0) {
      const methods = headOps.map((op) => op.method.toUpperCase()).join(', ');
      emitFor(headOps[0].path)('path-added', 'path', `path ${headOps[0].path} added (${methods})`);
      continue;
    }
    for (const headOp of headOps) {
      if (!baseOps.some((op) => op.method === headOp.method)) emitFor(headOp.key)('operation-added', 'operation', 'operation added');
    }
  }
  return changes;
}

function compareServers(base: JsonObject, head: JsonObject, emit: Emit): void {
  if (asArray(base.servers).length === 0 || asArray(head.servers).length === 0) return; // nothing to compare
  const b = serverPath(base) || '/';
  const h = serverPath(head) || '/';
  if (b !== h) emit('server-url-changed', 'servers', `base path changed from ${b} to ${h}`);
}

function compareSecuritySchemes(base: JsonObject, head: JsonObject, emit: Emit): void {
  const bSchemes = asObject(asObject(base.components).securitySchemes);
  const hSchemes = asObject(asObject(head.components).securitySchemes);
  for (const [name, scheme] of Object.entries(bSchemes)) {
    const now = hSchemes[name];
    if (now === undefined) emit('security-changed', `securitySchemes.${name}`, `security scheme \`${name}\` removed`);
    else if (!sameShape(scheme, now)) emit('security-changed', `securitySchemes.${name}`, `security scheme \`${name}\` changed`);
  }
}

function compareOperation(baseApi: JsonObject, headApi: JsonObject, b: OperationRef, h: OperationRef, emit: Emit): void {
  compareOperationMeta(b, h, emit);
  compareParameters(b, h, emit);
  compareRequestBody(b.operation.requestBody, h.operation.requestBody, emit);
  compareResponses(asObject(b.operation.responses), asObject(h.operation.responses), emit);
  compareSecurity(effectiveSecurity(baseApi, b.operation), effectiveSecurity(headApi, h.operation), emit);
}

function compareOperationMeta(b: OperationRef, h: OperationRef, emit: Emit): void {
  const bo = b.operation;
  const ho = h.operation;
  if (bo.operationId !== ho.operationId) {
    emit('operation-id-changed', 'operationId', `operationId changed from ${show(bo.operationId)} to ${show(ho.operationId)}`);
  }
  const wasDeprecated = isDeprecated(bo);
  const nowDeprecated = isDeprecated(ho);
  if (!wasDeprecated && nowDeprecated) {
    emit('operation-deprecated', 'deprecated', `operation deprecated; Sunset ${formatDate(sunsetDate(ho))}`);
  } else if (wasDeprecated && !nowDeprecated) {
    emit('operation-undeprecated', 'deprecated', 'operation no longer deprecated');
  } else if (nowDeprecated && formatDate(sunsetDate(bo)) !== formatDate(sunsetDate(ho))) {
    emit('operation-sunset-changed', 'x-sunset', `Sunset moved from ${formatDate(sunsetDate(bo))} to ${formatDate(sunsetDate(ho))}`);
  }
  for (const key of ['summary', 'description', 'tags']) {
    if (!sameShape(bo[key] ?? null, ho[key] ?? null)) emit('operation-docs-changed', key, `${key} changed`);
  }
}

function parameterLabel(p: Parameter): string {
  return `parameter ${p.in} ${p.name}`;
}

function compareParameters(b: OperationRef, h: OperationRef, emit: Emit): void {
  const bParams = new Map(effectiveParameters(b).map((p) => [parameterKey(p), p]));
  const hParams = new Map(effectiveParameters(h).map((p) => [parameterKey(p), p]));
  const removed = [...bParams.keys()].filter((k) => !hParams.has(k));
  const added = [...hParams.keys()].filter((k) => !bParams.has(k));
  const renamed = new Map<string, string>();
  for (const r of removed) {
    const bp = bParams.get(r)!;
    const match = added.find((a) => {
      const hp = hParams.get(a)!;
      return ![...renamed.values()].includes(a) && hp.in === bp.in && (hp.required === true) === (bp.required === true) && sameShape(bp.schema, hp.schema);
    });
    if (match) renamed.set(r, match);
  }
  for (const r of removed) {
    const bp = bParams.get(r)!;
    const to = renamed.get(r);
    if (to) {
      const hp = hParams.get(to)!;
      emit(bp.in === 'path' ? 'path-parameter-renamed' : 'parameter-renamed', parameterLabel(bp), `${bp.in} parameter \`${bp.name}\` renamed to \`${hp.name}\``);
    } else {
      emit('parameter-removed', parameterLabel(bp), `${bp.in} parameter \`${bp.name}\` removed`);
    }
  }
  for (const a of added) {
    if ([...renamed.values()].includes(a)) continue;
    const hp = hParams.get(a)!;
    const required = hp.required === true;
    emit(required ? 'parameter-added-required' : 'parameter-added-optional', parameterLabel(hp),
      `${required ? 'required' : 'optional'} ${hp.in} parameter \`${hp.name}\` added`);
  }
  for (const [key, bp] of bParams) {
    const hp = hParams.get(key);
    if (!hp) continue;
    const where = parameterLabel(hp);
    const was = bp.required === true;
    const now = hp.required === true;
    if (was !== now) emit(now ? 'parameter-made-required' : 'parameter-made-optional', where, `${hp.in} parameter \`${hp.name}\` is now ${now ? 'required' : 'optional'}`);
    for (const key2 of ['style', 'explode'] as const) {
      if (bp[key2] !== undefined && hp[key2] !== undefined && bp[key2] !== hp[key2]) {
        emit('input-type-changed', where, `${key2} changed from ${show(bp[key2])} to ${show(hp[key2])}: clients serialise it differently`);
      }
    }
    compareSchema(bp.schema, hp.schema, '', { direction: 'input', emit, where, subject: `\`${hp.name}\``, prefix: hp.name });
  }
}

function compareContent(baseContent: unknown, headContent: unknown, direction: Direction, where: string, emit: Emit): void {
  const b = asObject(baseContent);
  const h = asObject(headContent);
  const [removedRule, addedRule] = direction === 'input'
    ? ['request-media-type-removed', 'request-media-type-added']
    : ['response-media-type-removed', 'response-media-type-added'];
  for (const type of Object.keys(b)) {
    if (!(type in h)) emit(removedRule, `${where} ${type}`, `media type ${type} removed`);
  }
  for (const type of Object.keys(h)) {
    if (!(type in b)) emit(addedRule, `${where} ${type}`, `media type ${type} added`);
    else compareSchema(asObject(b[type]).schema, asObject(h[type]).schema, '', { direction, emit, where: `${where} ${type}`, subject: `the ${where}`, prefix: 'body' });
  }
}

function compareRequestBody(baseBody: unknown, headBody: unknown, emit: Emit): void {
  if (!isObject(baseBody) && !isObject(headBody)) return;
  const where = 'request body';
  if (!isObject(headBody)) {
    emit('request-body-removed', where, 'request body removed');
    return;
  }
  const nowRequired = headBody.required === true;
  if (!isObject(baseBody)) {
    if (nowRequired) emit('request-body-made-required', where, 'required request body added');
    else compareContent({}, headBody.content, 'input', where, emit);
    return;
  }
  const wasRequired = baseBody.required === true;
  if (!wasRequired && nowRequired) emit('request-body-made-required', where, 'request body is now required');
  if (wasRequired && !nowRequired) emit('request-field-made-optional', where, 'request body is now optional');
  compareContent(baseBody.content, headBody.content, 'input', where, emit);
}

function compareResponses(b: JsonObject, h: JsonObject, emit: Emit): void {
  for (const status of Object.keys(b)) {
    if (!(status in h)) emit('response-status-removed', `response ${status}`, `response ${status} removed`);
  }
  for (const status of Object.keys(h)) {
    const where = `response ${status}`;
    if (!(status in b)) {
      emit('response-status-added', where, `response ${status} added`);
      continue;
    }
    const bResp = asObject(b[status]);
    const hResp = asObject(h[status]);
    compareResponseHeaders(asObject(bResp.headers), asObject(hResp.headers), where, emit);
    compareContent(bResp.content, hResp.content, 'output', where, emit);
  }
}

function compareResponseHeaders(b: JsonObject, h: JsonObject, where: string, emit: Emit): void {
  const lower = (m: JsonObject) => new Map(Object.entries(m).map(([k, v]) => [k.toLowerCase(), { name: k, header: asObject(v) }]));
  const bh = lower(b);
  const hh = lower(h);
  for (const [key, { name }] of bh) {
    if (!hh.has(key)) emit('response-header-removed', `${where} header ${name}`, `response header \`${name}\` removed`);
  }
  for (const [key, { name, header }] of hh) {
    const at = `${where} header ${name}`;
    const before = bh.get(key);
    if (!before) {
      emit('response-header-added', at, `response header \`${name}\` added`);
      continue;
    }
    if (before.header.required === true && header.required !== true) {
      emit('response-header-made-optional', at, `response header \`${name}\` is no longer always sent`);
    }
    compareSchema(before.header.schema, header.schema, '', { direction: 'output', emit, where: at, subject: `header \`${name}\``, prefix: name });
  }
}

function requirementKey(req: JsonObject): string {
  return Object.keys(req).sort().map((k) => `${k}[${asArray(req[k]).map(String).sort().join(' ')}]`).join('+');
}

/** A base alternative still works when some head alternative needs no more schemes or scopes than it. */
function stillSatisfied(bReq: JsonObject, head: JsonObject[]): boolean {
  return head.some((hReq) => Object.entries(hReq).every(([scheme, scopes]) => {
    if (!(scheme in bReq)) return false;
    const had = new Set(asArray(bReq[scheme]).map(String));
    return asArray(scopes).every((s) => had.has(String(s)));
  }));
}

function compareSecurity(b: JsonObject[] | undefined, h: JsonObject[] | undefined, emit: Emit): void {
  const bReqs = b ?? [];
  const hReqs = h ?? [];
  const open = (reqs: JsonObject[]) => reqs.length === 0 || reqs.some((r) => Object.keys(r).length === 0);
  const label = (reqs: JsonObject[]) => (reqs.length === 0 ? '(none)' : reqs.map(requirementKey).join(' | ') || '(anonymous)');
  if (label(bReqs) === label(hReqs)) return;
  const detail = `security changed from ${label(bReqs)} to ${label(hReqs)}`;
  if (open(hReqs)) {
    if (!open(bReqs)) emit('security-removed', 'security', detail);
    return;
  }
  if (open(bReqs) || !bReqs.every((req) => stillSatisfied(req, hReqs))) emit('security-changed', 'security', detail);
  else emit('security-alternative-added', 'security', detail);
}
