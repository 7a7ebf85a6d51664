import {
  escapeHtml,
  escapeMarkdown,
  escapeWorkflowData,
  escapeWorkflowProperty,
  escapeTerminal,
  escapeTerminalLine,
  escapeXml,
  markdownCode,
  quoteShell,
  stringifyJson,
} from './escape';

/** XML 1.0's Char production: what a parser accepts. */
const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

describe('escapeTerminal', () => {
  it.each([
    ['an ANSI colour', 'a\u001b[31mred', 'a\\x1B[31mred'],
    ['a CSI as one C1 character', '\u009b2J', '\\x9B2J'],
    ['a lone carriage return', 'ok\rFAIL', 'ok\\x0DFAIL'],
    ['a bidirectional override', 'a\u202eb', 'a\\u202Eb'],
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
    ['a GitHub workflow command', '::add-mask::secret', '\\x3A:add-mask::secret'],
    ['an indented workflow command on a later line', 'x\n   ::error::boom', 'x\n   \\x3A:error::boom'],
    ['an Azure logging command mid-line', 'ok ##vso[task.setvariable]x', 'ok \\x23#vso[task.setvariable]x'],
    ['an Azure group', '##[group]x', '\\x23#[group]x'],
    ['plain text and a single colon', 'a: b\n\tc', 'a: b\n\tc'],
    ['a lone surrogate', 'a\ud800b', 'a\\uD800b'],
    ['an astral character kept', 'a😀b', 'a😀b'],
  ])('should show %s visibly', (_name, given, want) => {
    expect(escapeTerminal(given)).toBe(want);
  });

  it('should keep one line one line', () => {
    expect(escapeTerminalLine('a\nb\tc')).toBe('a\\x0Ab\\x09c');
  });
});

describe('escapeMarkdown and markdownCode', () => {
  it.each([
    ['a fake heading after a line break', 'x\r\n## ✅ No breaking changes', 'x \\#\\# ✅ No breaking changes'],
    ['raw HTML', '<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert\\(1\\)&gt;'],
    ['a link', '[click](https://evil)', '\\[click\\]\\(https\\://evil\\)'],
    ['a mention', '@org/team', '&#64;org/team'],
    ['a table break', 'a|b', 'a\\|b'],
  ])('should neutralise %s in prose', (_name, given, want) => {
    expect(escapeMarkdown(given)).toBe(want);
  });

  it.each([
    ['backticks inside', 'a`b', '``a`b``'],
    ['a backtick at an end', '`a', '`` `a ``'],
    ['a pipe', 'a|b', '`a\\|b`'],
    ['a line break', 'a\nb', '`a b`'],
    ['nothing', '', '` `'],
  ])('should fence a code span with %s', (_name, given, want) => {
    expect(markdownCode(given)).toBe(want);
  });

  it('should fence a text of 300 000 backtick runs (no call stack overflow)', () => {
    // `` ` ``` ``` … `` ``: the longest run is three, so the fence is four.
    const code = markdownCode('` ``'.repeat(300_000));
    expect(code.startsWith('```` ` ```')).toBe(true);
    expect(code.endsWith('``` `` ````')).toBe(true);
  });
});

describe('escapeXml and escapeHtml', () => {
  it('should leave only characters XML 1.0 allows', () => {
    const hostile = 'a\u0000b\u0008\u000b\u000c\u001f\ufffe\uffff\udfff\ud800z<&>"\'\r';
    const out = escapeXml(hostile);
    expect(out).toMatch(XML_CHAR);
    expect(out).toBe('a\\x00b\\x08\\x0B\\x0C\\x1F\\uFFFE\\uFFFF\\uDFFF\\uD800z&lt;&amp;&gt;&quot;&apos;&#13;');
  });

  it('should escape markup and show invisible characters in HTML', () => {
    expect(escapeHtml('<b a="1">\u202e')).toBe('&lt;b a=&quot;1&quot;&gt;\\u202E');
  });
});

describe('stringifyJson', () => {
  it.each([
    ['a line separator', 'a\u2028b', '"a\\u2028b"'],
    ['a paragraph separator', 'a\u2029b', '"a\\u2029b"'],
    ['a next-line character', 'a\u0085b', '"a\\u0085b"'],
    ['a lone surrogate', 'a\ud800b', '"a\\ud800b"'],
    ['an escape and a NUL', '\u001b[31m\u0000', '"\\u001b[31m\\u0000"'],
    ['a backslash before x85 as text', '\\x85', '"\\\\x85"'],
  ])('should write %s as an escape, the same value', (_name, given, want) => {
    const text = stringifyJson({ v: given });
    expect(text).toBe(`{"v":${want}}`);
    expect(JSON.parse(text)).toEqual({ v: given });
    expect(text.split(/\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/)).toHaveLength(1);
  });
});

describe('escapeWorkflowData and escapeWorkflowProperty', () => {
  it.each([
    ['a percent sign', '100%', '100%25', '100%25'],
    ['a line feed before a command', 'x\n::error::fake', 'x%0A::error::fake', 'x%0A%3A%3Aerror%3A%3Afake'],
    ['a carriage return', 'ok\rFAIL', 'ok%0DFAIL', 'ok%0DFAIL'],
    ['a property separator', 'a.yaml,line=1', 'a.yaml,line=1', 'a.yaml%2Cline=1'],
    ['an ANSI colour', '\u001b[31mred', '\\x1B[31mred', '\\x1B[31mred'],
    ['an encoded percent left encoded', '%0A', '%250A', '%250A'],
    [
      'an Azure logging command within the line',
      'q##vso[task.setvariable]1',
      'q\\x23#vso[task.setvariable]1',
      'q\\x23#vso[task.setvariable]1',
    ],
    ['an Azure group', '##[group]x', '\\x23#[group]x', '\\x23#[group]x'],
  ])('should keep %s inside one command', (_name, given, data, property) => {
    expect(escapeWorkflowData(given)).toBe(data);
    expect(escapeWorkflowProperty(given)).toBe(property);
    expect(escapeWorkflowProperty(given)).not.toMatch(/[\r\n:,]/);
    expect(escapeWorkflowData(given)).not.toMatch(/##(vso)?\[/i);
  });
});

describe('quoteShell', () => {
  it.each([
    ['plain text', 'a b', "'a b'"],
    ['a single quote', "it's", "'it'\\''s'"],
    ['a line feed and a quote', "a\n'b'", "$'a\\x0A\\'b\\''"],
    ['an escape and a backslash', '\u001b[31m\\', "$'\\x1B[31m\\\\'"],
    ['a C1 CSI and a line separator', '\u009b\u2028', "$'\\u009B\\u2028'"],
    ['a lone surrogate', 'a\ud800', "$'a\\uFFFD'"],
    ['non-ASCII text kept', 'é😀', "'é😀'"],
  ])('should quote %s as one word', (_name, given, want) => {
    expect(quoteShell(given)).toBe(want);
    expect(quoteShell(given)).not.toMatch(/[\n\r\u2028\u001b\u009b]/);
  });
});
