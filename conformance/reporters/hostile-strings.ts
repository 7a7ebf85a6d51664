/**
 * Strings a hostile target (or a hostile client of the passive proxy) can put into any field the reports show, and
 * what must never reach each output format. The output tests drive every reporter with them.
 */

/** Each a separate attack; `HOSTILE_TEXT` joins them on line feeds, as a body spanning lines would. */
export const HOSTILE_STRINGS: ReadonlyArray<readonly [name: string, text: string]> = [
  ['an ANSI colour and a screen clear', '\u001b[31mRED\u001b[0m\u001b[2J\u001b[H'],
  ['an OSC 8 hyperlink', '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007'],
  ['a CSI as one C1 character', '\u009b31mred\u009b0m'],
  ['a lone carriage return over a verdict', 'FAIL\rPASS'],
  ['a line and a paragraph separator', 'one\u2028two\u2029three'],
  ['a next-line character', 'one\u0085two'],
  ['bidirectional overrides and isolates', 'safe\u202etxt.exe\u2066x\u2069'],
  ['noncharacters XML forbids', 'a\ufffeb\uffffc'],
  ['lone surrogates', 'a\ud800b\udfffc'],
  ['NUL and other C0 controls', 'a\u0000b\u0008c\u000bd\u000ce\u001ff\u007fg'],
  ['a workflow command at the start', '::error file=x::pwned'],
  ['a mask command after a line feed', 'ok\n::add-mask::secret-value'],
  ['an indented stop-commands', 'ok\n    ::stop-commands::token123'],
  ['a tab-indented set-output', 'ok\n\t::set-output name=x::y'],
  ['an Azure logging command mid-line', 'ok ##vso[task.setvariable variable=x]1'],
  ['an Azure group', '##[group]hidden'],
  ['raw HTML', '<script>alert(1)</script><img src=x onerror=alert(2)>"\'><b>bold</b>'],
  ['an XML CDATA end and an entity', ']]><!ENTITY x SYSTEM "file:///etc/passwd">&x;'],
  ['backticks and a fence', '`code` ```\n```js'],
];

export const HOSTILE_TEXT = HOSTILE_STRINGS.map(([, text]) => text).join('\n');

/**
 * Characters a terminal or log acts on (C0 but tab and line feed, DEL, C1, line and paragraph separators, bidi
 * controls, zero-width and BOM, noncharacters) and lone surrogates.
 */
export const TERMINAL_FORBIDDEN =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2066-\u2069\uFEFF\uFFF9-\uFFFB\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A line GitHub Actions (after trimming) or Azure Pipelines (anywhere) reads as a command. */
export const WORKFLOW_COMMAND = /^\s*::|##(?:vso)?\[/im;

/** What a terminal or CI log must never receive; `undefined` when the text is safe. */
export function terminalViolation(text: string): string | undefined {
  const control = TERMINAL_FORBIDDEN.exec(text);
  if (control)
    return `U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${control.index}: …${text.slice(Math.max(0, control.index - 30), control.index + 10)}…`;
  const command = WORKFLOW_COMMAND.exec(text);
  if (command) return `a workflow command at ${command.index}: …${text.slice(command.index, command.index + 40)}…`;
  return undefined;
}

/** Line breaks of every kind a line-oriented reader may split on (Python's `splitlines`, older JavaScript). */
export const ANY_LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/;
