// The reference page's interactive part: search, and a try-it panel per operation that calls a running server
// (the mock by default) with a token and a `Prefer` preset, plus curl and openapi-fetch snippets. One inline
// script, no dependencies, so the page stays one file that opens offline (the calls go where the user points).

import { asArray, asObject, isObject, type JsonObject, type Operation } from '../../../spec/lib';
import { escapeHtml } from './html';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';
export const DEFAULT_TOKEN = 'mock-token-a';
/** Where the snippets import the generated types from: this package's `./types` export. */
export const TYPES_MODULE = 'workspace-automation-api-contract/types';

/** What the mock answers to `Prefer` (README "Scenario control"); Prism's vocabulary plus the mock's own. */
export const PREFER_PRESETS = [
  '',
  'code=400',
  'code=401',
  'code=404',
  'code=429',
  'code=500',
  'example=empty',
  'dynamic=true',
  'latency=1500',
  'outcome=error',
  'outcome=skipped',
  'outcome=cancelled',
  'duration=10000',
  'fault=reset',
  'fault=empty',
  'fault=truncated',
  'fault=malformed-json',
  'fault=hang',
];

type Param = { name: string; in: string; required: boolean; array: boolean; sample: unknown };

/** The operation's parameters as the model merged them (an operation's own overriding its path item's). */
function parametersOf(op: Operation): Param[] {
  return op.parameters.map((p) => ({
    name: p.name,
    in: p.in,
    required: p.required,
    array: p.schema.type === 'array',
    sample: sampleOf(p.schema, 0),
  }));
}

/** A value to start from: the schema's first example, else a skeleton of its properties (two levels deep). */
export function sampleOf(raw: unknown, depth: number): unknown {
  const schema = asObject(raw);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const branch = asArray(schema.oneOf ?? schema.anyOf)[0];
  if (!type && branch) return sampleOf(branch, depth);
  if (type === 'object' || isObject(schema.properties)) {
    if (depth >= 2) return {};
    return Object.fromEntries(
      Object.entries(asObject(schema.properties))
        .slice(0, 8)
        .map(([name, child]) => [name, sampleOf(child, depth + 1)]),
    );
  }
  if (type === 'array') return depth >= 2 ? [] : [sampleOf(schema.items, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return false;
  return 'string';
}

/** The request body to start from: the media type's example, else the schema's. */
function bodySample(op: Operation): unknown {
  const body = asObject(op.node.requestBody);
  const media = asObject(asObject(body.content)['application/json']);
  if (!isObject(body.content)) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(asObject(media.examples))[0];
  if (isObject(first) && first.value !== undefined) return first.value;
  return sampleOf(media.schema, 0);
}

function pathWith(op: Operation, params: Param[]): string {
  return op.path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    String(params.find((p) => p.name === name && p.in === 'path')?.sample ?? whole),
  );
}

/**
 * The places of a snippet that follow the page's choices (base URL, token, the form's `Prefer`): in the text, a
 * marker `\u0001<fill>:<quoting>\u0001`; in the page, a `<span data-fill data-quote>` the script keeps up to date.
 */
type Fill = 'base' | 'token' | 'prefer';
type Quoting = 'sh' | 'js' | 'prefer-sh' | 'prefer-js' | 'prefer-js-init';
const marker = (fill: Fill, quoting: Quoting) => `\u0001${fill}:${quoting}\u0001`;
const MARKER = /\u0001(base|token|prefer):([a-z-]+)\u0001/g;

/**
 * A chosen value as written in a snippet: inside single quotes of a shell word or a JavaScript string, or the
 * whole `Prefer` header (nothing when none is chosen). Plain JavaScript, run by the page and, for the defaults,
 * here: one implementation.
 */
const QUOTE_FILL = String.raw`function (value, quoting) {
    function sh(s) { return s.replace(/'/g, "'\\''"); }
    function js(s) { return s.replace(/\\/g, '\\\\').replace(/'/g, "\\'"); }
    if (quoting === 'sh') return sh(value);
    if (quoting === 'js') return js(value);
    if (!value) return '';
    if (quoting === 'prefer-sh') return " \\\n  -H 'Prefer: " + sh(value) + "'";
    if (quoting === 'prefer-js') return ", headers: { Prefer: '" + js(value) + "' }";
    return ", { headers: { Prefer: '" + js(value) + "' } }";
  }`;
const quoteFill = new Function(`return ${QUOTE_FILL}`)() as (value: string, quoting: Quoting) => string;
const shQuoted = (s: string) => quoteFill(s, 'sh');
const q = (s: string) => `'${shQuoted(s)}'`;

const DEFAULTS: Record<Fill, string> = { base: DEFAULT_BASE_URL, token: DEFAULT_TOKEN, prefer: '' };

/** The snippet as plain text, with the page's defaults. */
export function fillSnippet(template: string, values: Partial<Record<Fill, string>> = {}): string {
  return template.replace(MARKER, (_whole, fill: Fill, quoting: Quoting) =>
    quoteFill(values[fill] ?? DEFAULTS[fill], quoting),
  );
}

/** The snippet as HTML: each filled place a span the page's script rewrites when a choice changes. */
function snippetHtml(template: string): string {
  return template
    .split(MARKER)
    .map((part, index, parts) => {
      if (index % 3 === 0) return escapeHtml(part);
      if (index % 3 === 2) return '';
      const [fill, quoting] = [part as Fill, parts[index + 1] as Quoting];
      return `<span data-fill="${fill}" data-quote="${quoting}">${escapeHtml(quoteFill(DEFAULTS[fill], quoting))}</span>`;
    })
    .join('');
}

export function curlTemplate(op: Operation): string {
  const params = parametersOf(op);
  const body = bodySample(op);
  const lines = [
    `curl -i -X ${op.method} '${marker('base', 'sh')}${shQuoted(pathWith(op, params))}'`,
    `  -H 'Authorization: Bearer ${marker('token', 'sh')}'${marker('prefer', 'prefer-sh')}`,
  ];
  if (body !== undefined) lines.push(`  -H 'Content-Type: application/json'`, `  -d ${q(JSON.stringify(body))}`);
  return lines.join(' \\\n');
}

export function openapiFetchTemplate(op: Operation, typesModule: string): string {
  const params = parametersOf(op);
  const path = params.filter((p) => p.in === 'path');
  const options: string[] = [];
  if (path.length > 0)
    options.push(`params: { path: { ${path.map((p) => `${p.name}: ${JSON.stringify(p.sample)}`).join(', ')} } }`);
  const body = bodySample(op);
  if (body !== undefined) options.push(`body: ${JSON.stringify(body)}`);
  const init = options.length
    ? `, { ${options.join(', ')}${marker('prefer', 'prefer-js')} }`
    : marker('prefer', 'prefer-js-init');
  return [
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from '${typesModule}';`,
    ``,
    `const client = createClient<paths>({ baseUrl: '${marker('base', 'js')}', headers: { Authorization: 'Bearer ${marker('token', 'js')}' } });`,
    `const { data, error, response } = await client.${op.method}('${op.path}'${init});`,
  ].join('\n');
}

/** The panel under each operation: inputs for its parameters and body, a Prefer preset, Send, and the answer. */
export function renderTryIt(op: Operation, operationId: string, typesModule = TYPES_MODULE): string {
  const params = parametersOf(op).filter((p) => p.in !== 'cookie');
  const inputs = params
    .map((p) => {
      const value = p.in === 'path' ? String(p.sample ?? '') : '';
      const hint = p.array ? 'comma-separated' : p.in === 'path' ? '' : 'optional';
      return `<label>${escapeHtml(p.name)} <small>${escapeHtml(p.in)}${p.required ? ', required' : ''}</small> <input data-in="${escapeHtml(p.in)}" data-name="${escapeHtml(p.name)}"${p.array ? ' data-array="1"' : ''} value="${escapeHtml(value)}" placeholder="${escapeHtml(hint)}"></label>`;
    })
    .join('');
  const body = bodySample(op);
  const presets = PREFER_PRESETS.map(
    (p) => `<option value="${escapeHtml(p)}">${p ? escapeHtml(p) : '(no Prefer)'}</option>`,
  ).join('');
  return `<details class="tryit"><summary>Try it · curl · openapi-fetch</summary>
<form class="try" data-operation="${escapeHtml(operationId)}" data-method="${op.method}" data-path="${escapeHtml(op.path)}">
<div class="try-fields">${inputs}<label>Prefer <select data-prefer>${presets}</select></label></div>
${body === undefined ? '' : `<label class="try-body">Body (JSON)<textarea data-body rows="6">${escapeHtml(JSON.stringify(body, null, 2))}</textarea></label>`}
<button type="submit">Send</button> <span class="try-note">to the base URL and token at the top of the page</span>
<pre class="try-result" aria-live="polite"></pre>
</form>
<h5>curl</h5><pre class="snippet">${snippetHtml(curlTemplate(op))}</pre>
<h5>openapi-fetch</h5><pre class="snippet">${snippetHtml(openapiFetchTemplate(op, typesModule))}</pre>
</details>`;
}

/** The bar at the top: search, and where try-it sends (query `?base=…&token=…&q=…&run=<operationId>` presets them). */
export function renderToolbar(): string {
  return `<div class="toolbar"><input id="search" type="search" placeholder="Search operations, fields, schemas…" aria-label="Search">
<span id="search-count" class="generated"></span>
<label>Base URL <input id="try-base" value="${DEFAULT_BASE_URL}" size="28"></label>
<label>Token <input id="try-token" value="${DEFAULT_TOKEN}" size="14"></label></div>`;
}

export const TRY_IT_STYLE = `
.toolbar{position:sticky;top:0;background:#fff;border-bottom:1px solid var(--line);padding:8px 0;margin-bottom:8px;z-index:1;display:flex;gap:12px;flex-wrap:wrap;align-items:center;font-size:13px}
#search{flex:1;min-width:220px;padding:6px 8px;font-size:14px}.tryit{margin-top:10px;border-top:1px dashed var(--line);padding-top:6px}
.tryit summary{cursor:pointer;color:var(--accent)}.try-fields{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}.try-fields label{font-size:13px}
.try-body textarea{width:100%;font:13px ui-monospace,monospace}pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:12px;max-height:360px}
.try-result:empty{display:none}.try-note{color:var(--muted);font-size:12px}details.example summary{cursor:pointer;font-size:13px;color:var(--muted)}
.shared-response{font-size:13px}[hidden]{display:none!important}
`;

/** Runs in the page: search filtering, and try-it calls with fetch (CORS; the mock allows any origin). */
export const TRY_IT_SCRIPT = `(function () {
  var params = new URLSearchParams(location.search);
  var base = document.getElementById('try-base'), token = document.getElementById('try-token');
  if (params.get('base')) base.value = params.get('base');
  if (params.get('token')) token.value = params.get('token');
  var quoteFill = ${QUOTE_FILL};
  // ?prefer=code=404 presets every form's Prefer; a value beyond the presets is added to the list.
  var prefer = params.get('prefer');
  if (prefer) document.querySelectorAll('select[data-prefer]').forEach(function (select) {
    if (![].some.call(select.options, function (o) { return o.value === prefer; })) select.add(new Option(prefer, prefer));
    select.value = prefer;
  });
  function baseUrl() { return base.value.trim().replace(/\\/+$/, ''); }
  // Snippets show the base URL, token and Prefer the page would send.
  function fillSnippets() {
    document.querySelectorAll('span[data-fill]').forEach(function (span) {
      var fill = span.getAttribute('data-fill'), select = span.closest('details').querySelector('select[data-prefer]');
      var value = fill === 'base' ? baseUrl() : fill === 'token' ? token.value : select.value;
      span.textContent = quoteFill(value, span.getAttribute('data-quote'));
    });
  }
  [base, token].forEach(function (input) { input.addEventListener('input', fillSnippets); });
  document.querySelectorAll('select[data-prefer]').forEach(function (select) { select.addEventListener('change', fillSnippets); });
  fillSnippets();
  var search = document.getElementById('search'), count = document.getElementById('search-count');
  // The operation a link points at (?run=, #operation/…) stays shown whatever the search.
  function linked() {
    var ids = [];
    if (params.get('run')) ids.push('operation/' + params.get('run'));
    var hash = location.hash.slice(1);
    try { hash = decodeURIComponent(hash); } catch (e) { /* not percent-encoded text: kept as written */ }
    if (hash) ids.push(hash);
    return ids;
  }
  function filter() {
    var text = search.value.trim().toLowerCase(), shown = 0, pinned = linked(), kept = 0;
    document.querySelectorAll('article.operation, article.schema').forEach(function (a) {
      var match = !text || a.textContent.toLowerCase().indexOf(text) >= 0, keep = !match && pinned.indexOf(a.id) >= 0;
      a.hidden = !match && !keep;
      if (keep) kept++;
      if (match && a.classList.contains('operation')) shown++;
    });
    document.querySelectorAll('nav li[data-op]').forEach(function (li) {
      var a = document.getElementById(li.getAttribute('data-op')); li.hidden = !!a && a.hidden;
    });
    count.textContent = text ? shown + ' operation(s) match' + (kept ? ', and the linked one is shown' : '') : '';
  }
  search.addEventListener('input', filter);
  window.addEventListener('hashchange', filter);
  if (params.get('q')) { search.value = params.get('q'); filter(); }
  function send(form) {
    var out = form.querySelector('.try-result'), path = form.getAttribute('data-path'), query = new URLSearchParams();
    var headers = { Authorization: 'Bearer ' + token.value };
    form.querySelectorAll('input[data-in]').forEach(function (input) {
      var name = input.getAttribute('data-name'), where = input.getAttribute('data-in'), value = input.value.trim();
      if (!value) return;
      if (where === 'path') path = path.replace('{' + name + '}', encodeURIComponent(value));
      else if (where === 'query') (input.hasAttribute('data-array') ? value.split(',') : [value]).forEach(function (v) { query.append(name, v.trim()); });
      else if (where === 'header') headers[name] = value;
    });
    var prefer = form.querySelector('[data-prefer]').value;
    if (prefer) headers.Prefer = prefer;
    var bodyField = form.querySelector('[data-body]'), init = { method: form.getAttribute('data-method'), headers: headers };
    if (bodyField) { init.body = bodyField.value; headers['Content-Type'] = 'application/json'; }
    var url = baseUrl() + path + (query.toString() ? '?' + query : '');
    out.textContent = init.method + ' ' + url + ' …';
    out.removeAttribute('data-status');
    fetch(url, init).then(function (res) {
      return res.text().then(function (text) {
        var lines = [res.status + ' ' + res.statusText];
        res.headers.forEach(function (v, k) { lines.push(k + ': ' + v); });
        var shown = text;
        try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown as sent */ }
        out.setAttribute('data-status', String(res.status));
        out.textContent = lines.join('\\n') + '\\n\\n' + shown;
      });
    }).catch(function (error) {
      out.setAttribute('data-status', 'network-error');
      out.textContent = 'No answer: ' + error.message + ' (is the server running at ' + base.value + '?)';
    });
  }
  document.querySelectorAll('form.try').forEach(function (form) {
    form.addEventListener('submit', function (event) { event.preventDefault(); send(form); });
  });
  if (params.get('run')) {
    var form = document.querySelector('form.try[data-operation="' + params.get('run').replace(/"/g, '') + '"]');
    if (form) {
      form.closest('details').open = true;
      if (!location.hash) form.closest('article').scrollIntoView();
      send(form);
    }
  }
})();`;

/** The operation's examples: every named example of its request body and responses, each in a fold. */
export function renderMediaExamples(content: unknown, label: string): string {
  return Object.entries(asObject(content))
    .map(([type, media]) => {
      const m = asObject(media) as JsonObject;
      const all: [string, unknown][] = [];
      if (m.example !== undefined) all.push(['example', m.example]);
      for (const [name, ex] of Object.entries(asObject(m.examples))) {
        const e = asObject(ex);
        all.push([`${name}${e.summary ? ` — ${String(e.summary)}` : ''}`, e.value ?? e.externalValue]);
      }
      return all
        .map(
          ([name, value]) =>
            `<details class="example"><summary>${escapeHtml(label)} example: ${escapeHtml(name)} <span class="mediatype">${escapeHtml(type)}</span></summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`,
        )
        .join('');
    })
    .join('');
}
