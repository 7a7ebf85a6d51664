// A single-file API reference: plain HTML, inline CSS and one inline script (search, try-it), no fonts, no remote
// anything, so it opens from disk (file://); without the script every operation, example and snippet is still shown.
import { asArray, asObject, isObject, type JsonObject, listOperations, type Operation } from '../../../spec/lib';
import { renderMediaExamples, renderToolbar, renderTryIt, TRY_IT_SCRIPT, TRY_IT_STYLE } from './try-it';
// It lists every operation on one page. Redoc 3 (what `redocly build-docs` ships in
// @redocly/cli 2.x) is a routed app whose tag links lead to missing files when opened from disk.
// @see https://spec.openapis.org/oas/v3.1.0#openapi-object

import { escapeHtml } from './html';

export { escapeHtml };

/** The little Markdown spec descriptions use: paragraphs, `- ` lists, `code`, **bold**, [text](url). */
export function renderMarkdown(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const inline = (s: string) =>
    escapeHtml(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => /^\s*[-*] /.test(l)))
        return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*] /, ''))}</li>`).join('')}</ul>`;
      return `<p>${inline(block.replace(/\s*\n\s*/g, ' '))}</p>`;
    })
    .join('\n');
}

function anchor(kind: string, name: string): string {
  return `${kind}/${name}`;
}

type Names = Map<object, string>;

const CONSTRAINTS = [
  'format',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'default',
] as const;

function typeLabel(schema: JsonObject): string {
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  if (types.length === 0 && isObject(schema.properties)) types.push('object');
  if (types.length === 0 && schema.items !== undefined) types.push('array');
  return types.join(' | ');
}

/** Patterns of named schemas (the uuid rule): a property using one names the rule instead of printing its regex. */
let namedPatterns = new Map<string, string>();

function renderConstraints(schema: JsonObject, self?: string): string {
  const chips: string[] = [];
  const named = typeof schema.pattern === 'string' ? namedPatterns.get(schema.pattern) : undefined;
  const rule = named === self ? undefined : named;
  if (rule)
    chips.push(
      `<span class="chip" title="${escapeHtml(schema.pattern)}">matches the <a class="ref" href="#${escapeHtml(anchor('schema', rule))}">${escapeHtml(rule)}</a> rule</span>`,
    );
  for (const key of CONSTRAINTS) {
    if (key === 'pattern' && rule) continue;
    if (schema[key] !== undefined)
      chips.push(`<span class="chip">${key}: <code>${escapeHtml(JSON.stringify(schema[key]))}</code></span>`);
  }
  if (Array.isArray(schema.enum))
    chips.push(
      `<span class="chip">one of: ${schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' ')}</span>`,
    );
  if (schema.const !== undefined)
    chips.push(`<span class="chip">const: <code>${escapeHtml(JSON.stringify(schema.const))}</code></span>`);
  const examples = [
    ...(schema.example !== undefined ? [schema.example] : []),
    ...(Array.isArray(schema.examples) ? schema.examples : []),
  ];
  for (const example of examples)
    chips.push(`<span class="chip example">e.g. <code>${escapeHtml(JSON.stringify(example))}</code></span>`);
  if (schema.additionalProperties === false) chips.push('<span class="chip">no additional properties</span>');
  if (schema.readOnly === true) chips.push('<span class="chip">read-only</span>');
  if (schema.writeOnly === true) chips.push('<span class="chip">write-only</span>');
  if (schema.deprecated === true) chips.push('<span class="chip warn">deprecated</span>');
  return chips.join(' ');
}

function renderSchema(raw: unknown, names: Names, depth: number): string {
  if (!isObject(raw)) return '<span class="type">any</span>';
  const name = names.get(raw);
  if (name && depth > 0) return `<a class="ref" href="#${escapeHtml(anchor('schema', name))}">${escapeHtml(name)}</a>`;
  if (depth > 6) return '<span class="type">…</span>';
  const parts: string[] = [];
  const type = typeLabel(raw);
  if (type) parts.push(`<span class="type">${escapeHtml(type)}</span>`);
  const constraints = renderConstraints(raw, name);
  if (constraints) parts.push(constraints);
  if (depth > 0 && raw.description) parts.push(`<div class="desc">${renderMarkdown(raw.description)}</div>`);
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    const branches = asArray(raw[combinator]);
    if (branches.length === 0) continue;
    const label = { allOf: 'all of', oneOf: 'exactly one of', anyOf: 'any of' }[combinator];
    parts.push(
      `<div class="combinator">${label}:<ol>${branches.map((b) => `<li>${renderSchema(b, names, depth + 1)}</li>`).join('')}</ol></div>`,
    );
  }
  if (raw.items !== undefined)
    parts.push(`<div class="items">items: ${renderSchema(raw.items, names, depth + 1)}</div>`);
  const properties = asObject(raw.properties);
  if (Object.keys(properties).length > 0) {
    const required = new Set(asArray(raw.required).map(String));
    const rows = Object.entries(properties).map(
      ([prop, schema]) =>
        `<tr><td><code>${escapeHtml(prop)}</code>${required.has(prop) ? ' <span class="req">required</span>' : ''}</td><td>${renderSchema(schema, names, depth + 1)}</td></tr>`,
    );
    parts.push(`<table class="props"><tbody>${rows.join('')}</tbody></table>`);
  }
  if (isObject(raw.additionalProperties))
    parts.push(
      `<div class="items">other properties: ${renderSchema(raw.additionalProperties, names, depth + 1)}</div>`,
    );
  return parts.join(' ');
}

function renderContent(content: unknown, names: Names, label = 'Response'): string {
  return (
    Object.entries(asObject(content))
      .map(
        ([type, media]) =>
          `<div class="media"><span class="mediatype">${escapeHtml(type)}</span> ${renderSchema(asObject(media).schema, names, 0)}</div>`,
      )
      .join('') + renderMediaExamples(content, label)
  );
}

/** Responses declared once under components and shared by operations, by identity in the dereferenced document. */
let sharedResponses = new Map<object, string>();

/** The parameters in force, as the model merged them (an operation's own overriding its path item's). */
function renderParameters(op: Operation, names: Names): string {
  const params = op.parameters.map((p) => p.node);
  if (params.length === 0) return '';
  const rows = params.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code>${p.required === true ? ' <span class="req">required</span>' : ''}</td>` +
      `<td>${escapeHtml(p.in)}</td><td>${renderSchema(p.schema, names, 1)}${renderMarkdown(p.description)}${p.example === undefined ? '' : ` <span class="chip example">e.g. <code>${escapeHtml(JSON.stringify(p.example))}</code></span>`}${Object.entries(
        asObject(p.examples),
      )
        .map(
          ([name, e]) =>
            ` <span class="chip example">${escapeHtml(name)}: <code>${escapeHtml(JSON.stringify(asObject(e).value))}</code></span>`,
        )
        .join('')}</td></tr>`,
  );
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Schema</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Header names only: their schemas are listed once, in the Headers section. */
function renderHeaders(headers: unknown): string {
  const entries = Object.entries(asObject(headers));
  if (entries.length === 0) return '';
  return `<div class="headers">Headers: ${entries
    .map(
      ([name, h]) =>
        `<span class="chip" title="${escapeHtml(asObject(h).description ?? '')}"><code>${escapeHtml(name)}</code>${asObject(h).required === true ? '' : '?'}</span>`,
    )
    .join(' ')}</div>`;
}

function renderOperation(op: Operation, names: Names): string {
  const o = op.node;
  const method = op.method.toLowerCase();
  const id = typeof o.operationId === 'string' ? o.operationId : `${method}-${op.path}`;
  const security = op.security.map((req) => Object.keys(req).join(' + ') || 'anonymous').join(' | ') || 'none';
  const meta = [`operationId <code>${escapeHtml(id)}</code>`, `security: ${escapeHtml(security)}`];
  if (o.deprecated === true)
    meta.push(
      `<span class="chip warn">deprecated${o['x-sunset'] ? `, sunset ${escapeHtml(o['x-sunset'])}` : ''}</span>`,
    );
  const body = isObject(o.requestBody)
    ? `<h4>Request body${o.requestBody.required === true ? ' <span class="req">required</span>' : ''}</h4>${renderMarkdown(o.requestBody.description)}${renderContent(o.requestBody.content, names, 'Request')}`
    : '';
  const responses = Object.entries(asObject(o.responses))
    .map(([status, r]) => {
      const response = asObject(r);
      const shared = sharedResponses.get(response);
      if (shared) {
        return `<div class="response shared-response s${escapeHtml(status[0])}"><b>${escapeHtml(status)}</b> <a class="ref" href="#${escapeHtml(anchor('response', shared))}">${escapeHtml(shared)}</a> ${renderMarkdown(
          response.description,
        ).replace(/^<p>|<\/p>$/g, '')}</div>`;
      }
      return (
        `<div class="response s${escapeHtml(status[0])}"><div class="status"><b>${escapeHtml(status)}</b> ${renderMarkdown(response.description).replace(/^<p>|<\/p>$/g, '')}</div>` +
        `${renderHeaders(response.headers)}${renderContent(response.content, names)}</div>`
      );
    })
    .join('');
  return `<article class="operation" id="${escapeHtml(anchor('operation', id))}">
<h3><span class="method ${method}">${op.method}</span> <code class="path">${escapeHtml(op.path)}</code> <span class="summary">${escapeHtml(o.summary ?? id)}</span></h3>
<p class="meta">${meta.join(' · ')}</p>
${renderMarkdown(o.description)}
${renderParameters(op, names)}
${body}
<h4>Responses</h4>${responses}
${renderTryIt(op, id)}
</article>`;
}

const STYLE = `
:root{--fg:#1d2433;--muted:#5c6677;--line:#dfe3ea;--bg:#fff;--side:#f6f7f9;--accent:#2a5bd7}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
nav{position:fixed;top:0;bottom:0;left:0;width:300px;overflow:auto;background:var(--side);border-right:1px solid var(--line);padding:16px;font-size:13px}
nav ul{list-style:none;padding-left:8px;margin:4px 0 12px}nav a{color:var(--fg);text-decoration:none}nav a:hover{color:var(--accent)}
main{margin-left:300px;padding:24px 40px;max-width:1100px}h1 small{color:var(--muted);font-weight:normal;font-size:60%}
h2{border-bottom:2px solid var(--line);padding-bottom:4px;margin-top:48px}h3{margin:0 0 4px;font-size:17px}
.operation{border:1px solid var(--line);border-radius:8px;padding:16px;margin:20px 0}.meta{color:var(--muted);font-size:13px;margin:0 0 8px}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:2px 6px;background:#777}
.get{background:#2f855a}.post{background:#2a5bd7}.put{background:#b7791f}.patch{background:#805ad5}.delete{background:#c53030}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f3f6;padding:1px 4px;border-radius:3px;word-break:break-word}
table{border-collapse:collapse;width:100%;margin:6px 0}td,th{border:1px solid var(--line);padding:4px 8px;vertical-align:top;text-align:left;font-size:13px}
table.props td:first-child{white-space:nowrap;width:1%}.req{color:#c53030;font-size:11px}.type{color:#6b46c1;font-weight:600;font-size:13px}
.chip{display:inline-block;background:#eef1f6;border-radius:10px;padding:0 8px;margin:1px;font-size:12px}.chip.warn{background:#fde8e8;color:#9b2c2c}
.chip.example{background:#eaf6ee}.response{border-left:4px solid var(--line);padding:4px 10px;margin:6px 0}.response.s2{border-color:#2f855a}
.response.s4{border-color:#dd6b20}.response.s5{border-color:#c53030}.status p{display:inline;margin:0}.mediatype{color:var(--muted);font-size:12px}
.desc p{margin:2px 0;color:var(--muted);font-size:13px}a.ref{color:var(--accent)}.generated{color:var(--muted);font-size:12px}
@media (max-width:900px){nav{position:static;width:auto}main{margin-left:0;padding:16px}}
`;

/** The whole page. `operations` of the document are listed under their first tag, in document order. */
export function renderReference(api: JsonObject, source = 'spec/openapi.yaml'): string {
  const info = asObject(api.info);
  const title = String(info.title ?? 'API reference');
  const components = asObject(api.components);
  const schemas = asObject(components.schemas);
  const names: Names = new Map();
  for (const [name, schema] of Object.entries(schemas)) if (isObject(schema)) names.set(schema, name);
  namedPatterns = new Map(
    Object.entries(schemas).flatMap(([name, s]) =>
      isObject(s) && typeof s.pattern === 'string' ? [[s.pattern, name] as [string, string]] : [],
    ),
  );
  const responsesByName = Object.entries(asObject(components.responses)).filter(([, r]) => isObject(r));
  sharedResponses = new Map(responsesByName.map(([name, r]) => [r as object, name]));
  const sharedSection =
    responsesByName.length === 0
      ? ''
      : `<section id="responses"><h2>Shared responses</h2>${responsesByName
          .map(([name, r]) => {
            const response = asObject(r);
            return `<article class="schema" id="${escapeHtml(anchor('response', name))}"><h3>${escapeHtml(name)}</h3>${renderMarkdown(response.description)}${renderHeaders(response.headers)}${renderContent(response.content, names)}</article>`;
          })
          .join('')}</section>`;

  const operations = listOperations(api);
  const tagOrder = asArray(api.tags)
    .filter(isObject)
    .map((t) => String(t.name));
  const byTag = new Map<string, Operation[]>();
  for (const op of operations) {
    const tag = String(asArray(op.node.tags)[0] ?? 'other');
    if (!tagOrder.includes(tag)) tagOrder.push(tag);
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  const tagDescription = (tag: string) =>
    asObject(asArray(api.tags).find((t) => isObject(t) && t.name === tag)).description;
  const opId = (op: Operation) => String(op.node.operationId ?? `${op.method.toLowerCase()}-${op.path}`);

  const groups = tagOrder.flatMap((tag): [string, Operation[]][] => {
    const ops = byTag.get(tag);
    return ops ? [[tag, ops]] : [];
  });

  const toc = groups
    .map(
      ([tag, ops]) =>
        `<li><a href="#${escapeHtml(anchor('tag', tag))}">${escapeHtml(tag)}</a><ul>${ops
          .map(
            (op) =>
              `<li data-op="${escapeHtml(anchor('operation', opId(op)))}"><a href="#${escapeHtml(anchor('operation', opId(op)))}"><span class="method ${op.method.toLowerCase()}">${op.method}</span> ${escapeHtml(op.node.summary ?? opId(op))}</a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');

  const servers = asArray(api.servers)
    .filter(isObject)
    .map((s) => {
      const vars = Object.entries(asObject(s.variables))
        .map(([k, v]) => ` (<code>${escapeHtml(k)}</code> defaults to <code>${escapeHtml(asObject(v).default)}</code>)`)
        .join('');
      return `<li><code>${escapeHtml(s.url)}</code>${vars} ${renderMarkdown(s.description).replace(/^<p>|<\/p>$/g, '')}</li>`;
    })
    .join('');
  const schemes = Object.entries(asObject(components.securitySchemes))
    .map(
      ([name, s]) =>
        `<h3 id="${escapeHtml(anchor('security', name))}">${escapeHtml(name)} <small>(${escapeHtml(asObject(s).type)}${asObject(s).scheme ? ` ${escapeHtml(asObject(s).scheme)}` : ''})</small></h3>${renderMarkdown(asObject(s).description)}`,
    )
    .join('');
  const rules = asArray(api['x-rules']).filter(isObject);
  const rulesTable =
    rules.length === 0
      ? ''
      : `<section id="rules"><h2>Contract rules</h2><table><tbody>${rules
          .map(
            (r) =>
              `<tr><td id="${escapeHtml(anchor('rule', String(r.id)))}"><code>${escapeHtml(r.id)}</code></td><td>${escapeHtml(r.text)}</td></tr>`,
          )
          .join('')}</tbody></table></section>`;
  const headers = Object.entries(asObject(components.headers))
    .map(
      ([name, h]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td>${renderSchema(asObject(h).schema, names, 1)}${renderMarkdown(asObject(h).description)}</td></tr>`,
    )
    .join('');
  const schemaSections = Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<article class="schema" id="${escapeHtml(anchor('schema', name))}"><h3>${escapeHtml(name)}</h3>${renderMarkdown(asObject(schema).description)}${renderSchema(schema, names, 0)}</article>`,
    )
    .join('');
  const tags = groups
    .map(
      ([tag, ops]) =>
        `<section id="${escapeHtml(anchor('tag', tag))}"><h2>${escapeHtml(tag)}</h2>${renderMarkdown(tagDescription(tag))}${ops
          .map((op) => renderOperation(op, names))
          .join('\n')}</section>`,
    )
    .join('\n');

  return `<!doctype html>
<!-- auto-generated by \`npm run docs\` from ${escapeHtml(source)}: do not make direct changes -->
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}${TRY_IT_STYLE}</style></head>
<body>
<nav><strong>${escapeHtml(title)}</strong><ul><li><a href="#servers">Servers</a></li><li><a href="#authentication">Authentication</a></li>${rules.length ? '<li><a href="#rules">Contract rules</a></li>' : ''}</ul>
<ul>${toc}</ul><ul>${sharedSection ? '<li><a href="#responses">Shared responses</a></li>' : ''}<li><a href="#headers">Headers</a></li><li><a href="#schemas">Schemas</a></li></ul></nav>
<main>
${renderToolbar()}
<header><h1>${escapeHtml(title)} <small>${escapeHtml(info.version ?? '')} · OpenAPI ${escapeHtml(api.openapi ?? '')}</small></h1>
${info.summary ? `<p><strong>${escapeHtml(info.summary)}</strong></p>` : ''}${renderMarkdown(info.description)}
<p class="generated">${operations.length} operations.</p></header>
<section id="servers"><h2>Servers</h2><ul>${servers}</ul></section>
<section id="authentication"><h2>Authentication</h2>${schemes}</section>
${rulesTable}
${tags}
${sharedSection}
<section id="headers"><h2>Headers</h2><table><tbody>${headers}</tbody></table></section>
<section id="schemas"><h2>Schemas</h2>${schemaSections}</section>
</main><script>${TRY_IT_SCRIPT}</script></body></html>
`;
}
