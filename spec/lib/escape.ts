// One escaping layer per output format, for text that comes from outside: a target's answers, a pull request's spec.
// Every writer (the suite's reporters, the passive proxy, the diff's reports) passes such text through here once, at
// the point where it enters its format, so no hostile byte reaches a terminal, a CI log, a PR comment or a report.
// Neutral: imports nothing; the contract library re-exports it so every tool reaches it the same way.

/** `\x1B`, `\u202E`: a character shown as the escape a reader can see and copy. */
function visible(c: string): string {
  const code = c.codePointAt(0) ?? 0xfffd;
  return code <= 0xff
    ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Characters a terminal or a log viewer acts on rather than shows: C0 controls but tab and line feed, DEL, C1
 * controls (CSI as U+009B), the line and paragraph separators, bidirectional overrides and isolates (text that reads
 * differently than it runs), zero-width and BOM characters, noncharacters, and lone surrogates.
 */
/** A character's entity from the table of those a format escapes; any other character as it is. */
function entity(c: string, table: Readonly<Record<string, string>>): string {
  return table[c] ?? c;
}

const TERMINAL_UNSAFE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2066-\u2069\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A line a CI runner would read as a command: GitHub Actions' `::name ...::` (leading whitespace is trimmed before
 * it is read) and Azure Pipelines' `##vso[` and `##[` (read anywhere on a line).
 */
const WORKFLOW_COMMAND = /^(\s*)(:)(?=:)|(#)(?=#(?:vso)?\[)/gim;

/**
 * Text from outside made safe for a terminal or a CI log: every control, escape or direction-changing character is
 * shown as `\xNN`/`\uNNNN`, and no line can begin a workflow command (its first `:` or `#` is shown as `\x3A`/`\x23`).
 * Line feeds and tabs are kept: a body spans lines.
 */
export function escapeTerminal(text: string): string {
  return text
    .replace(TERMINAL_UNSAFE, visible)
    .replace(WORKFLOW_COMMAND, (_m, space: string | undefined, colon: string | undefined, hash: string | undefined) =>
      colon ? `${space ?? ''}${visible(colon)}` : visible(hash ?? '#'),
    );
}

/** `escapeTerminal` for one line: line feeds and tabs shown too, so the text cannot start a line of its own. */
export function escapeTerminalLine(text: string): string {
  return escapeTerminal(text).replace(/[\n\t]/g, visible);
}

/** Line breaks of every kind (CR, LF, CRLF, NEL, U+2028/U+2029) folded to one space: inline text stays inline. */
function foldLines(text: string): string {
  return text.replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ');
}

/**
 * Text from outside as inline GitHub-flavoured markdown prose: one line (breaks folded), HTML and entities shown as
 * text, every markdown punctuation character backslash-escaped (emphasis, links, images, tables, headings, lists,
 * code spans, autolinks), and `@` broken so a spec cannot mention people or teams. Other controls shown visibly.
 */
export function escapeMarkdown(text: string): string {
  return foldLines(text)
    .replace(TERMINAL_UNSAFE, visible)
    .replace(/[&<>]/g, (c) => entity(c, { '&': '&amp;', '<': '&lt;', '>': '&gt;' }))
    .replace(/[\\`*_{}[\]()#+\-.!|~:"']/g, (c) => `\\${c}`)
    .replace(/@/g, '&#64;');
}

/**
 * Text from outside as a markdown code span: one line, opened and closed by a run of backticks longer than any inside
 * it (CommonMark), `|` escaped (GFM tables split cells on it even inside code), HTML shown as text. An empty text is
 * an empty span that still renders.
 */
export function markdownCode(text: string): string {
  const line = foldLines(text).replace(TERMINAL_UNSAFE, visible).replace(/\|/g, '\\|');
  // A loop, not Math.max(...runs): a text of 300 000 backtick runs would overflow the call stack as arguments.
  let longest = 0;
  for (const m of line.matchAll(/`+/g)) if (m[0].length > longest) longest = m[0].length;
  const fence = '`'.repeat(longest + 1);
  if (line === '') return '` `';
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * Characters XML 1.0 forbids (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates), shown as `\uNNNN`
 * text so a report still parses and the reader still sees what was there. CR is kept as `&#13;` by escapeXml.
 * @see https://www.w3.org/TR/xml/#charsets
 */
const XML_FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text from outside for XML text or attribute values: markup escaped, forbidden characters replaced visibly. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_FORBIDDEN, visible)
    .replace(/[<>&"'\r]/g, (c) =>
      entity(c, { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' }),
    );
}

/** Text from outside for HTML text or attribute values: markup escaped, invisible and direction characters shown. */
export function escapeHtml(text: string): string {
  return text
    .replace(TERMINAL_UNSAFE, visible)
    .replace(/[&<>"']/g, (c) => entity(c, { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }));
}

/**
 * A value as JSON for a file or a stream that line-oriented readers split: JSON.stringify (which already writes every
 * C0 control and every lone surrogate as a `\u` escape) with NEL, U+2028 and U+2029 escaped too, the line breaks
 * Python's `splitlines` and older JavaScript parsers act on. The same JSON value, on one line unless `space` is given.
 */
export function stringifyJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    /[\u0085\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/**
 * Text from outside as the message of a GitHub Actions workflow command (`::error file=…::<message>`): `%`, CR and LF
 * percent-encoded as the runner decodes them (its toolkit's `escapeData`), so the command stays on one line and no
 * later line can begin a command of its own; other control and direction characters, and the `#` that would start
 * an Azure Pipelines command within the line, shown as for a terminal.
 * @see https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
 */
export function escapeWorkflowData(text: string): string {
  return text
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A')
    .replace(TERMINAL_UNSAFE, visible)
    .replace(AZURE_COMMAND, visible);
}

/** Azure Pipelines' `##vso[` and `##[`, read anywhere on a line of a log (an annotation's line too): first `#` shown. */
const AZURE_COMMAND = /#(?=#(?:vso)?\[)/gi;

/**
 * Text from outside as a property value of a workflow command (`file=`, `title=`): `escapeWorkflowData` plus `:` and
 * `,` (the toolkit's `escapeProperty`), which would otherwise end the properties or start another one.
 */
export function escapeWorkflowProperty(text: string): string {
  return escapeWorkflowData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One shell word (bash, zsh, ksh) that gives back `text` exactly: single-quoted when it holds nothing a terminal acts
 * on; otherwise ANSI-C quoted (`$'…'`), every line break, control, escape and direction character written as `\xNN`
 * (ASCII) or `\uNNNN`, so a reproduction line stays one line and shows what it sends. A lone surrogate, which no
 * encoder can send, is written as U+FFFD, the character UTF-8 puts on the wire in its place.
 */
export function quoteShell(text: string): string {
  const unsafe = new RegExp(`${TERMINAL_UNSAFE.source}|[\\n\\t]`, 'g');
  if (!unsafe.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  const body = text
    .replace(/[\\']/g, (c) => `\\${c}`)
    .replace(unsafe, (c) => {
      const code = c.length === 1 && c >= '\uD800' && c <= '\uDFFF' ? 0xfffd : (c.codePointAt(0) ?? 0xfffd);
      return code < 0x80
        ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`
        : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    });
  return `$'${body}'`;
}
