// The diff rules: one id per kind of change, its classification and the reason a reviewer reads.
// Classifications follow the contract's Versioning section: a breaking change ships as a new path; adding a
// response field, an optional request field or an endpoint is not breaking; clients ignore unknown response
// fields; a deprecated endpoint is served until its Sunset passes. Enumerations follow the contract's own marking:
// a schema with `enum` is a closed set stated in full (a new value in a response is breaking), a string with
// `examples` is an open enumeration (a new value is informational), and a node carrying `x-assumption` rests on
// a reading of the description, not on a statement (a new value there is a warning).
// `warning`: may break some clients or cannot be proven harmless; a reviewer decides (`--fail-on warning`).

export type Classification = 'breaking' | 'warning' | 'non-breaking' | 'informational';

export const CLASSIFICATIONS: readonly Classification[] = ['breaking', 'warning', 'non-breaking', 'informational'];

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
const SUNSET_GAP = 'the contract puts Sunset at least 180 days after Deprecation';

// Paths and operations
defineRule('path-removed', 'breaking', `clients calling it get 404; ${NEW_PATH}`);
defineRule('operation-removed', 'breaking', `clients calling it get 404 and its Sunset has not passed; ${NEW_PATH}`);
defineRule(
  'operation-removed-after-sunset',
  'non-breaking',
  'its Sunset date has passed, so the contract allows retiring it',
);
defineRule('path-added', 'non-breaking', 'adding an endpoint is not breaking');
defineRule('operation-added', 'non-breaking', 'adding an endpoint is not breaking');
defineRule(
  'operation-id-changed',
  'informational',
  'generated clients rename the method; the wire format is unchanged',
);
defineRule('operation-docs-changed', 'informational', 'documentation only; the wire format is unchanged');
defineRule('server-url-changed', 'breaking', `every client is configured with the old base address; ${NEW_PATH}`);
defineRule('webhook-removed', 'breaking', 'subscribers stop receiving the notifications they were promised');
defineRule('webhook-added', 'non-breaking', 'a new notification does not change existing ones');
defineRule('callback-removed', 'breaking', 'subscribers stop receiving the callbacks they were promised');
defineRule('callback-added', 'non-breaking', 'a new callback does not change existing ones');
defineRule('notification-payload-removed', 'breaking', 'subscribers reading the payload receive none');
defineRule('notification-payload-added', 'non-breaking', 'subscribers ignore a body they do not read');
defineRule(
  'subscriber-answer-status-removed',
  'breaking',
  'subscribers answering with it have their delivery counted as failed',
);
defineRule('subscriber-answer-status-added', 'non-breaking', 'answers accepted before are still accepted');
defineRule(
  'component-schema-removed',
  'warning',
  'generated clients lose the named type; code importing it stops compiling',
);
defineRule('component-schema-added', 'informational', 'a new named type in generated clients');

// Lifecycle (deprecation and Sunset) of operations, parameters and properties
for (const subject of ['operation', 'parameter', 'property'] as const) {
  defineRule(
    `${subject}-deprecated`,
    'non-breaking',
    'still served until its Sunset passes; clients should plan to migrate',
  );
  defineRule(
    `${subject}-deprecated-without-sunset`,
    'warning',
    'the contract allows Sunset later, but clients get no removal date to plan for; add x-sunset once it is fixed',
  );
  defineRule(`${subject}-reactivated`, 'informational', 'no longer scheduled for retirement');
  defineRule(
    `${subject}-sunset-removed`,
    'warning',
    'the removal date clients were given is withdrawn while it stays deprecated',
  );
  defineRule(
    `${subject}-sunset-moved-earlier`,
    'breaking',
    'clients planned their migration on the date announced before',
  );
  defineRule(`${subject}-sunset-postponed`, 'informational', 'clients get more time to migrate');
  defineRule(`${subject}-sunset-too-soon`, 'breaking', SUNSET_GAP);
  defineRule(`${subject}-sunset-invalid`, 'breaking', 'the Sunset date cannot be read, so clients cannot plan for it');
}
defineRule(
  'parameter-removed-after-sunset',
  'non-breaking',
  'its Sunset date has passed, so the contract allows retiring it',
);
defineRule(
  'property-removed-after-sunset',
  'non-breaking',
  'its Sunset date has passed, so the contract allows retiring it',
);

// Parameters (input)
defineRule('parameter-removed', 'breaking', 'clients still sending it are rejected or silently lose its effect');
defineRule('parameter-renamed', 'breaking', 'clients send the old name, which the server no longer reads');
defineRule(
  'path-parameter-renamed',
  'informational',
  'path parameters are positional; the URL clients build is unchanged',
);
defineRule('parameter-added-required', 'breaking', 'existing clients do not send it and get 400');
defineRule('parameter-added-optional', 'non-breaking', 'adding an optional request parameter is not breaking');
defineRule('parameter-made-required', 'breaking', 'clients that omit it now get 400');
defineRule('parameter-made-optional', 'non-breaking', 'requests that send it keep working');
defineRule(
  'parameter-serialisation-changed',
  'breaking',
  'clients serialise the value the old way (style, explode, content), which the server no longer parses',
);
defineRule(
  'parameter-allow-reserved-removed',
  'warning',
  'requests that percent-encode reserved characters decode the same; whether clients sent them unencoded (which the server now reads differently) is not stated',
);

// Request body (input)
defineRule('request-body-removed', 'breaking', 'clients still send a body the operation no longer describes');
defineRule('request-body-made-required', 'breaking', 'clients that send no body now get 400');
defineRule('request-body-made-optional', 'non-breaking', 'requests that send a body keep working');
defineRule('request-body-added', 'non-breaking', 'an optional body clients need not send');
defineRule('request-media-type-removed', 'breaking', 'clients sending this media type get 415');
defineRule('request-media-type-added', 'non-breaking', 'an extra accepted media type is not breaking');
defineRule('request-field-removed', 'breaking', 'clients still sending it are rejected or silently lose its effect');
defineRule('request-field-renamed', 'breaking', 'clients send the old name, which the server no longer reads');
defineRule('request-field-added-required', 'breaking', 'existing clients do not send it and get 400');
defineRule('request-field-added-optional', 'non-breaking', 'adding an optional request field is not breaking');
defineRule('request-field-made-required', 'breaking', 'clients that omit it now get 400');
defineRule('request-field-made-optional', 'non-breaking', 'requests that send it keep working');
defineRule(
  'request-field-became-read-only',
  'warning',
  'clients should stop sending it; a server may reject or ignore what they send',
);
defineRule(
  'request-body-wrapped-in-one-of',
  'breaking',
  'a body valid before may now match two branches and fail oneOf, and generated clients change the body type',
);

// Schemas in the input direction (request bodies and parameters)
defineRule('input-type-changed', 'breaking', 'values clients send today no longer validate (400)');
defineRule('input-type-widened', 'non-breaking', 'every value accepted before is still accepted');
defineRule('input-constraint-tightened', 'breaking', 'values clients send today can now be rejected with 400');
defineRule('input-constraint-loosened', 'non-breaking', 'every value accepted before is still accepted');
defineRule(
  'input-pattern-changed',
  'warning',
  'the new pattern (or format) cannot be proven to accept every value the old one did',
);
defineRule(
  'input-format-incompatible',
  'breaking',
  'no value is of both formats: every value clients send today is rejected with 400',
);
defineRule('input-enum-narrowed', 'breaking', 'clients sending a removed value now get 400');
defineRule('input-enum-widened', 'non-breaking', 'every value accepted before is still accepted');
defineRule('input-const-added', 'breaking', 'only the fixed value is accepted now; clients sending others get 400');
defineRule('input-const-changed', 'breaking', 'clients sending the old fixed value get 400');
defineRule('input-const-removed', 'non-breaking', 'every value accepted before is still accepted');
defineRule('input-nullability-removed', 'breaking', 'clients sending null now get 400');
defineRule('input-nullability-added', 'non-breaking', 'every value accepted before is still accepted');
defineRule('input-alternative-added', 'non-breaking', 'a new accepted shape; every shape accepted before still is');
defineRule('input-alternative-removed', 'breaking', 'clients sending the removed shape now get 400');
defineRule(
  'input-default-added',
  'warning',
  'clients omitting the value now get a stated behaviour that may differ from what the server did before',
);
defineRule('input-default-changed', 'breaking', 'clients omitting the value silently get a different behaviour');
defineRule(
  'input-default-removed',
  'breaking',
  'clients omitting the value relied on the default, which is no longer promised',
);
defineRule(
  'input-encoding-changed',
  'breaking',
  'clients encode the value the old way (contentEncoding / contentMediaType), which the server no longer decodes',
);

// Responses (output)
defineRule(
  'response-status-removed',
  'breaking',
  'clients handling this success status lose it; behaviour they rely on changed',
);
defineRule(
  'error-response-status-removed',
  'warning',
  'clients still handle the status by its class, but the contract no longer documents it',
);
defineRule(
  'response-status-added',
  'non-breaking',
  'a new documented status; clients should already handle unknown statuses by class',
);
defineRule('response-media-type-removed', 'breaking', 'clients asking for this media type no longer get it');
defineRule('response-media-type-added', 'non-breaking', 'an extra response media type is not breaking');
defineRule('response-field-removed', 'breaking', 'clients reading this field break');
defineRule('response-field-added', 'non-breaking', 'clients ignore response fields they do not recognise');
defineRule(
  'response-field-made-optional',
  'breaking',
  'clients expecting the field to be present break when it is absent',
);
defineRule('response-field-made-required', 'non-breaking', 'the field is now always present');
defineRule('response-field-became-write-only', 'breaking', 'the field is no longer returned; clients reading it break');
defineRule('response-object-opened', 'informational', 'clients ignore response fields they do not recognise');
defineRule(
  'response-enum-value-added',
  'breaking',
  'the set is stated in full (a closed enum: generated clients type it as a closed union), so clients do not expect the new value',
);
defineRule(
  'response-enum-value-added-assumed',
  'warning',
  'the closed set rests on an x-assumption, not on the description; clients typed on it may not expect the new value',
);
defineRule(
  'response-open-enum-value-added',
  'informational',
  'an open enumeration (examples, no enum): clients accept values not listed',
);
defineRule('response-enum-value-removed', 'non-breaking', 'responses use fewer values than before');
defineRule(
  'response-body-wrapped-in-one-of',
  'breaking',
  'responses may now take another shape; fields clients read may be absent',
);
defineRule('output-type-changed', 'breaking', 'clients receive values of a type they do not parse');
defineRule('output-type-widened', 'breaking', 'clients receive values of a type they did not expect');
defineRule('output-type-narrowed', 'non-breaking', 'every value returned now was valid before');
defineRule('output-nullability-added', 'breaking', 'clients receive null where they expect a value');
defineRule('output-nullability-removed', 'non-breaking', 'every value returned now was valid before');
defineRule('output-constraint-loosened', 'breaking', 'clients receive values outside the range they were promised');
defineRule('output-constraint-tightened', 'non-breaking', 'every value returned now was valid before');
defineRule(
  'output-pattern-changed',
  'warning',
  'the new pattern (or format) cannot be proven to admit only values the old one did',
);
defineRule(
  'output-format-incompatible',
  'breaking',
  'no value is of both formats: clients parsing the old format fail on every value',
);
defineRule('output-const-added', 'non-breaking', 'every value returned now was valid before');
defineRule('output-const-changed', 'breaking', 'clients relying on the fixed value receive another');
defineRule('output-const-removed', 'breaking', 'clients relying on the fixed value may receive others');
defineRule('output-alternative-added', 'breaking', 'responses may take a shape clients do not parse');
defineRule('output-alternative-removed', 'non-breaking', 'every value returned now was valid before');
defineRule(
  'output-default-changed',
  'informational',
  'a default in a response is an annotation; the values sent are unchanged',
);
defineRule(
  'output-encoding-changed',
  'breaking',
  'clients decode the value the old way (contentEncoding / contentMediaType)',
);
defineRule('response-header-removed', 'breaking', 'clients reading this header break');
defineRule(
  'optional-response-header-removed',
  'warning',
  'the header was not always sent, but clients reading it when present lose it',
);
defineRule('response-header-added', 'non-breaking', 'clients ignore headers they do not read');
defineRule('response-header-made-optional', 'breaking', 'clients expecting the header break when it is absent');

// Schemas in both directions
defineRule(
  'discriminator-changed',
  'informational',
  'generated clients may pick branches differently; the values on the wire are unchanged',
);
defineRule(
  'discriminator-mapping-value-removed',
  'breaking',
  'the mapping was the only statement of this value on the wire: clients sending or dispatching on it break',
);
defineRule('schema-keyword-changed', 'warning', 'a keyword this diff does not model changed; review it by hand');

// Security
defineRule('security-changed', 'breaking', 'credentials clients send today may no longer be accepted (401/403)');
defineRule('security-alternative-added', 'non-breaking', 'credentials accepted before are still accepted');
defineRule(
  'security-relaxed',
  'non-breaking',
  'the operation asks for fewer schemes or scopes; credentials accepted before still are',
);
defineRule(
  'security-removed',
  'informational',
  'clients still sending credentials keep working; spec:lint rejects an operation without security',
);
defineRule('security-scheme-removed', 'breaking', 'clients authenticate with a scheme the contract no longer defines');
defineRule('security-scheme-added', 'non-breaking', 'a new way to authenticate; existing ones are unchanged');
defineRule(
  'security-scheme-type-changed',
  'breaking',
  'clients build the credential for the old kind of scheme (type, scheme, bearerFormat, in, name)',
);
defineRule(
  'security-scheme-url-changed',
  'warning',
  'clients configured with the old OAuth/OpenID address must be reconfigured unless they discover it',
);
defineRule(
  'security-scheme-flow-removed',
  'breaking',
  'clients using the removed OAuth flow can no longer obtain tokens',
);
defineRule('security-scheme-flow-added', 'non-breaking', 'a new OAuth flow; existing ones are unchanged');
defineRule('security-scheme-scope-removed', 'warning', 'tokens requested with the removed scope may be refused');
defineRule('security-scheme-scope-added', 'non-breaking', 'a new scope; tokens issued before are unchanged');
