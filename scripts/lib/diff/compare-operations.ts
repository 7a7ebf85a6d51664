// Per-operation comparison: operations matched by method and path template (parameter names ignored, so a renamed
// path parameter is still the same endpoint), then parameters, request body, responses and security.
// @see https://spec.openapis.org/oas/v3.1.0#operation-object

import { type Anchor, type Change, type Emit, makeChange } from './change';
import { compareLifecycle, isRetired } from './compare-lifecycle';
import { compareSchema, SCHEMA_RULES } from './compare-schemas';
import { pathSlot, sameTarget, similarNames } from './rename';
import { sameShape } from './shape';
import { mediaTypeKey } from './semantics';
import { compareComponents, compareSecuritySchemes } from './compare-document';
import { compareCallbacks, compareWebhooks } from './compare-notifications';
import { compareContent, compareOperationMeta, compareResponseHeaders, type CompareOptions } from './compare-parts';
import { asArray, asObject, isObject, type JsonObject } from '../../../spec/lib/json';
import { formatDate, isDeprecated, serverBasePath } from '../../../spec/lib/document';
import {
  listOperations,
  type Operation,
  parameterKey,
  type ParameterObject,
  readParameterObject,
  retirementOf,
} from '../../../spec/lib/operations';
import * as at from './place';
import { defineRules, NEW_PATH, NO_TYPES } from './rules';

/** Paths, operations, servers, parameters, request bodies, response statuses and security requirements. */
export const OPERATION_RULES = defineRules({
  'path-removed': ['breaking', `clients calling it get 404; ${NEW_PATH}`],
  'operation-removed': ['breaking', `clients calling it get 404 and its Sunset has not passed; ${NEW_PATH}`],
  'operation-removed-after-sunset': ['non-breaking', 'its Sunset date has passed, so the contract allows retiring it'],
  'path-added': ['non-breaking', 'adding an endpoint is not breaking'],
  'operation-added': ['non-breaking', 'adding an endpoint is not breaking'],
  'server-url-changed': ['breaking', `every client is configured with the old base address; ${NEW_PATH}`, NO_TYPES],
  'parameter-removed-after-sunset': ['non-breaking', 'its Sunset date has passed, so the contract allows retiring it'],
  'parameter-removed': ['breaking', 'clients still sending it are rejected or silently lose its effect'],
  'parameter-renamed': ['breaking', 'clients send the old name, which the server no longer reads'],
  'path-parameter-renamed': ['informational', 'path parameters are positional; the URL clients build is unchanged'],
  'parameter-added-required': ['breaking', 'existing clients do not send it and get 400'],
  'parameter-added-optional': ['non-breaking', 'adding an optional request parameter is not breaking'],
  'parameter-made-required': ['breaking', 'clients that omit it now get 400'],
  'parameter-made-optional': ['non-breaking', 'requests that send it keep working'],
  'parameter-serialisation-changed': [
    'breaking',
    'clients serialise the value the old way (style, explode, content), which the server no longer parses',
    NO_TYPES,
  ],
  'parameter-allow-reserved-removed': [
    'warning',
    'requests that percent-encode reserved characters decode the same; whether clients sent them unencoded (which the server now reads differently) is not stated',
    NO_TYPES,
  ],
  'request-body-removed': ['breaking', 'clients still send a body the operation no longer describes'],
  'request-body-made-required': ['breaking', 'clients that send no body now get 400'],
  'request-body-made-optional': ['non-breaking', 'requests that send a body keep working'],
  'request-body-added': ['non-breaking', 'an optional body clients need not send'],
  'response-status-removed': [
    'breaking',
    'clients handling this success status lose it; behaviour they rely on changed',
  ],
  'error-response-status-removed': [
    'warning',
    'clients still handle the status by its class, but the contract no longer documents it',
  ],
  'response-status-added': [
    'non-breaking',
    'a new documented status; clients should already handle unknown statuses by class',
  ],
  'security-changed': ['breaking', 'credentials clients send today may no longer be accepted (401/403)', NO_TYPES],
  'security-alternative-added': ['non-breaking', 'credentials accepted before are still accepted', NO_TYPES],
  'security-relaxed': [
    'non-breaking',
    'the operation asks for fewer schemes or scopes; credentials accepted before still are',
    NO_TYPES,
  ],
  'security-removed': [
    'informational',
    'clients still sending credentials keep working; spec:lint rejects an operation without security',
    NO_TYPES,
  ],
});

/** `/a/{uuid}/b` and `/a/{id}/b` are the same endpoint for clients. */
function pathShape(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

/** `GET /x/{uuid}`: how an operation is named in reports. */
function keyOf(op: Operation): string {
  return `${op.method} ${op.path}`;
}

function groupByPath(ops: Operation[]): Map<string, Operation[]> {
  const out = new Map<string, Operation[]>();
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

  const basePaths = groupByPath(listOperations(base));
  const headPaths = groupByPath(listOperations(head));
  for (const [shape, baseOps] of basePaths) {
    const headOps = headPaths.get(shape) ?? [];
    const retired = (op: Operation) => isRetired(op.node, options.now);
    if (headOps.length === 0 && !baseOps.every(retired)) {
      const methods = baseOps.map((op) => op.method).join(', ');
      emitFor(baseOps[0].path)(
        OPERATION_RULES['path-removed'],
        at.wholeOperation('path'),
        `path ${baseOps[0].path} removed (${methods})`,
        {
          base: baseOps[0].pathItem,
          head: head.paths,
        },
      );
      continue;
    }
    for (const baseOp of baseOps) {
      const headOp = headOps.find((op) => op.method === baseOp.method);
      if (headOp) {
        compareOperation(head, baseOp, headOp, emitFor(keyOf(headOp)), options);
        compareCallbacks(baseOp.node, headOp.node, keyOf(headOp), changes, options);
      } else if (retired(baseOp)) {
        emitFor(keyOf(baseOp))(
          OPERATION_RULES['operation-removed-after-sunset'],
          at.wholeOperation('operation'),
          `operation removed; its Sunset ${formatDate(retirementOf(baseOp.node).sunset)} has passed`,
          { base: baseOp.node, head: headOps[0]?.pathItem },
        );
      } else {
        const sunset = retirementOf(baseOp.node).sunset;
        const why = !isDeprecated(baseOp.node)
          ? 'it was never deprecated'
          : sunset
            ? `its Sunset ${formatDate(sunset)} has not passed`
            : 'it has no Sunset date (x-sunset)';
        emitFor(keyOf(baseOp))(
          OPERATION_RULES['operation-removed'],
          at.wholeOperation('operation'),
          `operation removed while ${why}`,
          {
            base: baseOp.node,
            head: headOps[0]?.pathItem,
          },
        );
      }
    }
  }
  for (const [shape, headOps] of headPaths) {
    const baseOps = basePaths.get(shape) ?? [];
    if (baseOps.length === 0) {
      const methods = headOps.map((op) => op.method).join(', ');
      emitFor(headOps[0].path)(
        OPERATION_RULES['path-added'],
        at.wholeOperation('path'),
        `path ${headOps[0].path} added (${methods})`,
        {
          head: headOps[0].pathItem,
        },
      );
      continue;
    }
    for (const headOp of headOps) {
      if (!baseOps.some((op) => op.method === headOp.method))
        emitFor(keyOf(headOp))(OPERATION_RULES['operation-added'], at.wholeOperation('operation'), 'operation added', {
          head: headOp.node,
        });
    }
  }
  return changes;
}

function compareServers(base: JsonObject, head: JsonObject, emit: Emit): void {
  if (asArray(base.servers).length === 0 || asArray(head.servers).length === 0) return; // nothing to compare
  const b = serverBasePath(base) || '/';
  const h = serverBasePath(head) || '/';
  if (b !== h)
    emit(OPERATION_RULES['server-url-changed'], at.wholeOperation('servers'), `base path changed from ${b} to ${h}`, {
      head: head.servers,
      base: base.servers,
    });
}

function compareOperation(headApi: JsonObject, b: Operation, h: Operation, emit: Emit, options: CompareOptions): void {
  compareOperationMeta(b.node, h.node, emit, options.now);
  compareParameters(b, h, emit, options);
  compareRequestBody(b.node.requestBody, h.node.requestBody, emit, options);
  compareResponses(asObject(b.node.responses), asObject(h.node.responses), emit, options);
  compareSecurity(b.security, h.security, emit, { head: h.node.security ?? headApi.security, base: b.node });
}

/** The parameters in force, as written (the model merged them; the diff compares what the document says). */
function parametersOf(op: Operation): Map<string, ParameterObject> {
  const out = new Map<string, ParameterObject>();
  for (const p of op.parameters) {
    const object = readParameterObject(p.node);
    if (object) out.set(parameterKey(object), object);
  }
  return out;
}

/** The schema a parameter is validated with: `schema`, or the one media type of `content`. */
function parameterSchema(p: ParameterObject): unknown {
  if (p.schema !== undefined) return p.schema;
  const media = Object.values(asObject(p.content))[0];
  return asObject(media).schema;
}

function compareParameters(b: Operation, h: Operation, emit: Emit, options: CompareOptions): void {
  const { now } = options;
  const bParams = parametersOf(b);
  const hParams = parametersOf(h);
  const removed = [...bParams].filter(([key]) => !hParams.has(key)).map(([, p]) => p);
  const added = [...hParams].filter(([key]) => !bParams.has(key)).map(([, p]) => p);
  // Removed → added parameter, where the evidence says it is one parameter renamed.
  const renamed = new Map<ParameterObject, ParameterObject>();
  const renamedTo = new Set<ParameterObject>();
  for (const bp of removed) {
    const match = added.find((hp) => {
      const evidence =
        bp.in === 'path'
          ? pathSlot(b.path, bp.name) >= 0 && pathSlot(b.path, bp.name) === pathSlot(h.path, hp.name)
          : similarNames(bp.name, hp.name) || sameTarget(options.targetOf, bp, hp);
      return (
        !renamedTo.has(hp) &&
        hp.in === bp.in &&
        (hp.required === true) === (bp.required === true) &&
        evidence &&
        sameShape(parameterSchema(bp), parameterSchema(hp))
      );
    });
    if (match) {
      renamed.set(bp, match);
      renamedTo.add(match);
    }
  }
  for (const bp of removed) {
    const hp = renamed.get(bp);
    if (hp) {
      emit(
        bp.in === 'path' ? OPERATION_RULES['path-parameter-renamed'] : OPERATION_RULES['parameter-renamed'],
        at.parameter(bp),
        `${bp.in} parameter \`${bp.name}\` renamed to \`${hp.name}\``,
        { head: hp, base: bp },
      );
    } else if (isRetired(bp, now)) {
      emit(
        OPERATION_RULES['parameter-removed-after-sunset'],
        at.parameter(bp),
        `${bp.in} parameter \`${bp.name}\` removed after its Sunset ${formatDate(retirementOf(bp).sunset)}`,
        { head: h.node, base: bp },
      );
    } else {
      emit(OPERATION_RULES['parameter-removed'], at.parameter(bp), `${bp.in} parameter \`${bp.name}\` removed`, {
        head: h.node,
        base: bp,
      });
    }
  }
  for (const hp of added) {
    if (renamedTo.has(hp)) continue;
    const required = hp.required === true;
    emit(
      required ? OPERATION_RULES['parameter-added-required'] : OPERATION_RULES['parameter-added-optional'],
      at.parameter(hp),
      `${required ? 'required' : 'optional'} ${hp.in} parameter \`${hp.name}\` added`,
      { head: hp },
    );
  }
  for (const [key, bp] of bParams) {
    const hp = hParams.get(key);
    if (!hp) continue;
    const where = at.parameter(hp);
    const anchor = { head: hp, base: bp };
    const was = bp.required === true;
    const is = hp.required === true;
    if (was !== is)
      emit(
        is ? OPERATION_RULES['parameter-made-required'] : OPERATION_RULES['parameter-made-optional'],
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
          SCHEMA_RULES['input-constraint-loosened'],
          where,
          `\`${hp.name}\` now also accepts reserved characters unencoded (allowReserved); encoded requests decode the same`,
          { ...anchor, key: 'allowReserved' },
        );
      else
        emit(
          OPERATION_RULES['parameter-allow-reserved-removed'],
          where,
          `\`${hp.name}\` no longer allows reserved characters unencoded (allowReserved removed)`,
          { ...anchor, key: 'allowReserved' },
        );
    }
    if (serialisation(bp) !== serialisation(hp)) {
      emit(
        OPERATION_RULES['parameter-serialisation-changed'],
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

function compareRequestBody(baseBody: unknown, headBody: unknown, emit: Emit, options: CompareOptions): void {
  if (!isObject(baseBody) && !isObject(headBody)) return;
  const where = at.requestBody();
  const anchor = { head: headBody, base: baseBody };
  if (!isObject(headBody)) {
    emit(OPERATION_RULES['request-body-removed'], where, 'request body removed', anchor);
    return;
  }
  const nowRequired = headBody.required === true;
  if (!isObject(baseBody)) {
    emit(
      nowRequired ? OPERATION_RULES['request-body-made-required'] : OPERATION_RULES['request-body-added'],
      where,
      `${nowRequired ? 'required' : 'optional'} request body added`,
      anchor,
    );
    return;
  }
  const wasRequired = baseBody.required === true;
  const required = { ...anchor, key: 'required' };
  if (!wasRequired && nowRequired)
    emit(OPERATION_RULES['request-body-made-required'], where, 'request body is now required', required);
  if (wasRequired && !nowRequired)
    emit(OPERATION_RULES['request-body-made-optional'], where, 'request body is now optional', required);
  compareContent(baseBody.content, headBody.content, 'input', where, emit, options, anchor);
}

function isSuccess(status: string): boolean {
  return /^[123]/.test(status) || status.toLowerCase() === 'default';
}

function compareResponses(b: JsonObject, h: JsonObject, emit: Emit, options: CompareOptions): void {
  for (const status of Object.keys(b)) {
    if (!(status in h)) {
      emit(
        isSuccess(status)
          ? OPERATION_RULES['response-status-removed']
          : OPERATION_RULES['error-response-status-removed'],
        at.response(status),
        `response ${status} removed`,
        { head: h, base: b[status] },
      );
    }
  }
  for (const status of Object.keys(h)) {
    const where = at.response(status);
    if (!(status in b)) {
      emit(OPERATION_RULES['response-status-added'], where, `response ${status} added`, { head: h[status] });
      continue;
    }
    const bResp = asObject(b[status]);
    const hResp = asObject(h[status]);
    const headerAt = (name: string) => at.responseHeader(status, name);
    compareResponseHeaders(asObject(bResp.headers), asObject(hResp.headers), headerAt, emit, options, hResp);
    compareContent(bResp.content, hResp.content, 'output', where, emit, options, { head: hResp, base: bResp });
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

function compareSecurity(bReqs: JsonObject[], hReqs: JsonObject[], emit: Emit, anchor: Anchor): void {
  const open = (reqs: JsonObject[]) => reqs.length === 0 || reqs.some((r) => Object.keys(r).length === 0);
  const label = (reqs: JsonObject[]) =>
    reqs.length === 0 ? '(none)' : reqs.map(requirementKey).join(' | ') || '(anonymous)';
  if (label(bReqs) === label(hReqs)) return;
  const detail = `security changed from ${label(bReqs)} to ${label(hReqs)}`;
  if (open(hReqs)) {
    if (!open(bReqs)) emit(OPERATION_RULES['security-removed'], at.security('security'), detail, anchor);
    return;
  }
  if (open(bReqs) || !bReqs.every((req) => stillSatisfied(req, hReqs)))
    emit(OPERATION_RULES['security-changed'], at.security('security'), detail, anchor);
  else if (hReqs.length > bReqs.length)
    emit(OPERATION_RULES['security-alternative-added'], at.security('security'), detail, anchor);
  else emit(OPERATION_RULES['security-relaxed'], at.security('security'), detail, anchor);
}
