// The diff rules: one id per kind of change, its classification and the reason a reviewer reads.
// Classifications follow the contract's Versioning section: a breaking change ships as a new path; adding a
// response field, an optional request field or an endpoint is not breaking; clients ignore unknown response fields
// (and, the contract keeping one-value enums open, unknown enum values); a deprecated endpoint is served until
// its Sunset passes.

export type Classification = 'breaking' | 'non-breaking' | 'informational';

export type DiffRule = { id: string; classification: Classification; reason: string };

const registry = new Map<string, DiffRule>();

function defineRule(id: string, classification: Classification, reason: string): DiffRule {
  if (registry.has(id)) throw new Error(`diff rule "${id}" is defined twice`);
  const rule = { id, classification, reason };
  registry.set(id, rule);
  return rule;
}

export function getRule(id: string): DiffRule {
  const rule = registry.get(id);
  if (!rule) throw new Error(`unknown diff rule "${id}"`);
  return rule;
}

export function listRules(): DiffRule[] {
  return [...registry.values()];
}

const NEW_PATH = 'a breaking change must ship as a new path';

// Paths and operations
defineRule('path-removed', 'breaking', `clients calling it get 404; ${NEW_PATH}`);
defineRule('operation-removed', 'breaking', `clients calling it get 404 and its Sunset has not passed; ${NEW_PATH}`);
defineRule('operation-removed-after-sunset', 'non-breaking', 'its Sunset date has passed, so the contract allows retiring it');
defineRule('path-added', 'non-breaking', 'adding an endpoint is not breaking');
defineRule('operation-added', 'non-breaking', 'adding an endpoint is not breaking');
defineRule('operation-deprecated', 'non-breaking', 'still served until its Sunset passes; clients should plan to migrate');
defineRule('operation-undeprecated', 'informational', 'the operation is no longer scheduled for retirement');
defineRule('operation-sunset-changed', 'informational', 'the announced retirement date moved; check it stays ≥ 180 days after Deprecation');
defineRule('operation-id-changed', 'informational', 'generated clients rename the method; the wire format is unchanged');
defineRule('operation-docs-changed', 'informational', 'documentation only; the wire format is unchanged');
defineRule('server-url-changed', 'breaking', `every client is configured with the old base address; ${NEW_PATH}`);

// Parameters (input)
defineRule('parameter-removed', 'breaking', 'clients still sending it are rejected or silently lose its effect');
defineRule('parameter-renamed', 'breaking', 'clients send the old name, which the server no longer reads');
defineRule('path-parameter-renamed', 'informational', 'path parameters are positional; the URL clients build is unchanged');
defineRule('parameter-added-required', 'breaking', 'existing clients do not send it and get 400');
defineRule('parameter-added-optional', 'non-breaking', 'adding an optional request parameter is not breaking');
defineRule('parameter-made-required', 'breaking', 'clients that omit it now get 400');
defineRule('parameter-made-optional', 'non-breaking', 'requests that send it keep working');

// Request body (input)
defineRule('request-body-removed', 'breaking', 'clients still send a body the operation no longer describes');
defineRule('request-body-made-required', 'breaking', 'clients that send no body now get 400');
defineRule('request-media-type-removed', 'breaking', 'clients sending this media type get 415');
defineRule('request-media-type-added', 'non-breaking', 'an extra accepted media type is not breaking');
defineRule('request-field-removed', 'breaking', 'clients still sending it are rejected or silently lose its effect');
defineRule('request-field-renamed', 'breaking', 'clients send the old name, which the server no longer reads');
defineRule('request-field-added-required', 'breaking', 'existing clients do not send it and get 400');
defineRule('request-field-added-optional', 'non-breaking', 'adding an optional request field is not breaking');
defineRule('request-field-made-required', 'breaking', 'clients that omit it now get 400');
defineRule('request-field-made-optional', 'non-breaking', 'requests that send it keep working');

// Schemas in the input direction (request bodies and parameters)
defineRule('input-type-changed', 'breaking', 'values clients send today no longer validate (400)');
defineRule('input-type-widened', 'non-breaking', 'every value accepted before is still accepted');
defineRule('input-constraint-tightened', 'breaking', 'values clients send today can now be rejected with 400');
defineRule('input-constraint-loosened', 'non-breaking', 'every value accepted before is still accepted');
defineRule('input-enum-narrowed', 'breaking', 'clients sending a removed value now get 400');
defineRule('input-enum-widened', 'non-breaking', 'every value accepted before is still accepted');
defineRule('input-nullability-removed', 'breaking', 'clients sending null now get 400');
defineRule('input-nullability-added', 'non-breaking', 'every value accepted before is still accepted');

// Responses (output)
defineRule('response-status-removed', 'breaking', 'clients handling this status lose it; behaviour they rely on changed');
defineRule('response-status-added', 'non-breaking', 'a new documented status; clients should already handle unknown statuses by class');
defineRule('response-media-type-removed', 'breaking', 'clients asking for this media type no longer get it');
defineRule('response-media-type-added', 'non-breaking', 'an extra response media type is not breaking');
defineRule('response-field-removed', 'breaking', 'clients reading this field break');
defineRule('response-field-added', 'non-breaking', 'clients ignore response fields they do not recognise');
defineRule('response-field-made-optional', 'breaking', 'clients expecting the field to be present break when it is absent');
defineRule('response-field-made-required', 'non-breaking', 'the field is now always present');
defineRule('response-object-opened', 'informational', 'clients ignore response fields they do not recognise');
defineRule('response-enum-value-added', 'informational', 'clients ignore unknown values; the contract keeps enums open in responses');
defineRule('response-enum-value-removed', 'non-breaking', 'responses use fewer values than before');
defineRule('output-type-widened', 'breaking', 'clients receive values of a type they do not parse');
defineRule('output-type-narrowed', 'non-breaking', 'every value returned now was valid before');
defineRule('output-nullability-added', 'breaking', 'clients receive null where they expect a value');
defineRule('output-nullability-removed', 'non-breaking', 'every value returned now was valid before');
defineRule('output-constraint-loosened', 'breaking', 'clients receive values outside the range they were promised');
defineRule('output-constraint-tightened', 'non-breaking', 'every value returned now was valid before');
defineRule('response-header-removed', 'breaking', 'clients reading this header break');
defineRule('response-header-added', 'non-breaking', 'clients ignore headers they do not read');
defineRule('response-header-made-optional', 'breaking', 'clients expecting the header break when it is absent');

// Security
defineRule('security-changed', 'breaking', 'credentials clients send today may no longer be accepted (401/403)');
defineRule('security-alternative-added', 'non-breaking', 'credentials accepted before are still accepted');
defineRule('security-removed', 'informational', 'clients still sending credentials keep working; spec:lint rejects an operation without security');
