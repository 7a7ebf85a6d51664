// Document-wide parts: security schemes and named component schemas (webhooks: compare-notifications.ts).
// @see https://spec.openapis.org/oas/v3.1.0#security-scheme-object

import { type Emit, show } from './change';
import { component, security } from './place';
import { asObject, type JsonObject } from '../../../spec/lib/json';
import { defineRules, NO_TYPES } from './rules';

/** Named component schemas and security schemes. */
export const DOCUMENT_RULES = defineRules({
  'component-schema-removed': ['warning', 'generated clients lose the named type; code importing it stops compiling'],
  'component-schema-added': ['informational', 'a new named type in generated clients'],
  'security-scheme-removed': [
    'breaking',
    'clients authenticate with a scheme the contract no longer defines',
    NO_TYPES,
  ],
  'security-scheme-added': ['non-breaking', 'a new way to authenticate; existing ones are unchanged', NO_TYPES],
  'security-scheme-type-changed': [
    'breaking',
    'clients build the credential for the old kind of scheme (type, scheme, bearerFormat, in, name)',
    NO_TYPES,
  ],
  'security-scheme-url-changed': [
    'warning',
    'clients configured with the old OAuth/OpenID address must be reconfigured unless they discover it',
    NO_TYPES,
  ],
  'security-scheme-flow-removed': [
    'breaking',
    'clients using the removed OAuth flow can no longer obtain tokens',
    NO_TYPES,
  ],
  'security-scheme-flow-added': ['non-breaking', 'a new OAuth flow; existing ones are unchanged', NO_TYPES],
  'security-scheme-scope-removed': ['warning', 'tokens requested with the removed scope may be refused', NO_TYPES],
  'security-scheme-scope-added': ['non-breaking', 'a new scope; tokens issued before are unchanged', NO_TYPES],
});

const KIND_KEYS = ['type', 'scheme', 'bearerFormat', 'in', 'name'] as const;
const URL_KEYS = ['authorizationUrl', 'tokenUrl', 'refreshUrl'] as const;

/** Each aspect of a changed security scheme gets its own line: what changed, not only that it did. */
export function compareSecuritySchemes(base: JsonObject, head: JsonObject, emit: Emit): void {
  const bSchemes = asObject(asObject(base.components).securitySchemes);
  const hSchemes = asObject(asObject(head.components).securitySchemes);
  for (const [name, raw] of Object.entries(bSchemes)) {
    const where = security(`securitySchemes.${name}`);
    const b = asObject(raw);
    if (!(name in hSchemes)) {
      emit(DOCUMENT_RULES['security-scheme-removed'], where, `security scheme \`${name}\` removed`, {
        base: b,
        head: hSchemes,
      });
      continue;
    }
    const h = asObject(hSchemes[name]);
    const anchor = { head: h, base: b };
    for (const key of KIND_KEYS) {
      if (String(b[key] ?? '').toLowerCase() !== String(h[key] ?? '').toLowerCase()) {
        emit(
          DOCUMENT_RULES['security-scheme-type-changed'],
          where,
          `security scheme \`${name}\`: ${key} changed from ${show(b[key])} to ${show(h[key])}`,
          anchor,
        );
      }
    }
    if (b.openIdConnectUrl !== h.openIdConnectUrl) {
      emit(
        DOCUMENT_RULES['security-scheme-url-changed'],
        where,
        `security scheme \`${name}\`: openIdConnectUrl changed from ${show(b.openIdConnectUrl)} to ${show(h.openIdConnectUrl)}`,
        anchor,
      );
    }
    const bFlows = asObject(b.flows);
    const hFlows = asObject(h.flows);
    for (const flow of Object.keys(bFlows)) {
      if (!(flow in hFlows))
        emit(
          DOCUMENT_RULES['security-scheme-flow-removed'],
          security(`${where.location}.flows.${flow}`),
          `security scheme \`${name}\`: OAuth flow ${flow} removed`,
          anchor,
        );
    }
    for (const [flow, rawFlow] of Object.entries(hFlows)) {
      const at = security(`${where.location}.flows.${flow}`);
      const hf = asObject(rawFlow);
      if (!(flow in bFlows)) {
        emit(
          DOCUMENT_RULES['security-scheme-flow-added'],
          at,
          `security scheme \`${name}\`: OAuth flow ${flow} added`,
          {
            head: hf,
            base: b,
          },
        );
        continue;
      }
      const bf = asObject(bFlows[flow]);
      const flowAnchor = { head: hf, base: bf };
      for (const key of URL_KEYS) {
        if (bf[key] !== hf[key]) {
          emit(
            DOCUMENT_RULES['security-scheme-url-changed'],
            at,
            `security scheme \`${name}\`: ${flow} ${key} changed from ${show(bf[key])} to ${show(hf[key])}`,
            flowAnchor,
          );
        }
      }
      const bScopes = Object.keys(asObject(bf.scopes));
      const hScopes = Object.keys(asObject(hf.scopes));
      const removed = bScopes.filter((s) => !hScopes.includes(s));
      const added = hScopes.filter((s) => !bScopes.includes(s));
      if (removed.length)
        emit(
          DOCUMENT_RULES['security-scheme-scope-removed'],
          at,
          `security scheme \`${name}\`: ${flow} scopes removed: ${removed.join(', ')}`,
          flowAnchor,
        );
      if (added.length)
        emit(
          DOCUMENT_RULES['security-scheme-scope-added'],
          at,
          `security scheme \`${name}\`: ${flow} scopes added: ${added.join(', ')}`,
          flowAnchor,
        );
    }
  }
  for (const [name, raw] of Object.entries(hSchemes)) {
    if (!(name in bSchemes))
      emit(
        DOCUMENT_RULES['security-scheme-added'],
        security(`securitySchemes.${name}`),
        `security scheme \`${name}\` added`,
        {
          head: raw,
        },
      );
  }
}

/** Named schemas are the type names of generated clients. */
export function compareComponents(base: JsonObject, head: JsonObject, emit: Emit): void {
  const b = asObject(asObject(base.components).schemas);
  const h = asObject(asObject(head.components).schemas);
  for (const name of Object.keys(b)) {
    if (!(name in h))
      emit(
        DOCUMENT_RULES['component-schema-removed'],
        component(`components.schemas.${name}`),
        `component schema \`${name}\` removed`,
        {
          base: b[name],
          head: h,
        },
      );
  }
  for (const name of Object.keys(h)) {
    if (!(name in b))
      emit(
        DOCUMENT_RULES['component-schema-added'],
        component(`components.schemas.${name}`),
        `component schema \`${name}\` added`,
        {
          head: h[name],
        },
      );
  }
}
