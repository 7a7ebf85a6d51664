// What redocly build-docs is handed from a pull request's spec: nothing it would fetch while building, nothing
// Redoc's page would render as HTML or load as an image in a reader's browser (issue 34; build-docs.ts).

import { inertMarkdown, readyForRedoc } from './build-docs';
import type { JsonObject } from '../../../spec/lib';

describe('inertMarkdown', () => {
  it.each([
    ['raw HTML', 'hi <img src=x onerror=alert(1)>', 'hi &lt;img src=x onerror=alert(1)>'],
    ['a closing tag and a comment', '</p><!-- x -->', '&lt;/p>&lt;!-- x -->'],
    [
      'an HTML block that would interrupt a paragraph',
      'a\n<details open ontoggle=alert(1)>',
      'a\n&lt;details open ontoggle=alert(1)>',
    ],
    [
      'a code span across a blank line (not a code span)',
      '`a\n\n<script>x</script>\n`',
      '`a\n\n&lt;script>x&lt;/script>\n`',
    ],
    ['a code span across lines', '`a\n<style>@import x</style>`', '`a\n&lt;style>@import x&lt;/style>`'],
    ['an escaped backtick (opens no code span)', '\\`<img src=x>`', '\\`&lt;img src=x>`'],
    ['an escaped backslash before a real code span', '\\\\`<b>`', '\\\\`<b>`'],
    ['a code span of a line (kept as written)', 'Bearer `<ACCESS_TOKEN>` here', 'Bearer `<ACCESS_TOKEN>` here'],
    ['a double-backtick span holding one', '``a`<b>`` <i>', '``a`<b>`` &lt;i>'],
    ['an unclosed run', '`` <b> `', '`` &lt;b> `'],
    ['an image', '![x](http://127.0.0.1:9/i.png)', '!\\[x](http://127.0.0.1:9/i.png)'],
    ['a reference image', '![x][r]\n\n[r]: http://127.0.0.1:9/i.png', '!\\[x][r]\n\n[r]: http://127.0.0.1:9/i.png'],
    ['an autolink', '<http://127.0.0.1:9/>', '&lt;http://127.0.0.1:9/>'],
    ['CR line ends', 'a\r<b>\r\n<i>', 'a\r&lt;b>\r\n&lt;i>'],
    [
      'plain prose',
      'Lists **bold** and [a link](https://example.com).',
      'Lists **bold** and [a link](https://example.com).',
    ],
  ])('should make %s inert', (_name, given, want) => {
    expect(inertMarkdown(given)).toBe(want);
  });
});

describe('readyForRedoc', () => {
  const document = (): JsonObject => ({
    openapi: '3.1.0',
    info: { title: 't', version: '1', description: '<img src=x onerror=alert(1)>' },
    paths: {
      '/a': {
        get: {
          description: '![i](http://127.0.0.1:9/i.png)',
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { description: { type: 'string', description: '<b>' } },
                    example: { description: '<kept as data>' },
                  },
                  examples: { e: { externalValue: 'http://127.0.0.1:9/ev', description: '<i>' } },
                },
              },
            },
          },
        },
      },
    },
  });

  it('should drop externalValue (redocly fetches it while building) and make every description inert', () => {
    const ready = readyForRedoc(document()) as any;
    const media = ready.paths['/a'].get.responses['200'].content['application/json'];
    expect(JSON.stringify(ready)).not.toContain('externalValue');
    expect(ready.info.description).toBe('&lt;img src=x onerror=alert(1)>');
    expect(ready.paths['/a'].get.description).toBe('!\\[i](http://127.0.0.1:9/i.png)');
    expect(media.schema.properties.description).toEqual({ type: 'string', description: '&lt;b>' });
    expect(media.schema.example).toEqual({ description: '<kept as data>' });
  });

  it.each([
    ['a base URI ($id)', { $id: 'http://127.0.0.1:9/s' }],
    ['a remote $dynamicRef', { $dynamicRef: 'http://127.0.0.1:9/s' }],
  ])('should refuse %s rather than let redocly resolve it', (_name, schema) => {
    const given = document();
    given.components = { schemas: { S: schema } };
    expect(() => readyForRedoc(given)).toThrow(/not self-contained/);
  });

  it('should keep a __proto__ member as a member', () => {
    const given = JSON.parse('{"openapi":"3.1.0","x-a":{"__proto__":{"description":"<b>"}}}') as JsonObject;
    const ready = readyForRedoc(given) as any;
    expect(Object.keys(ready['x-a'])).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(ready['x-a'])).toBe(Object.prototype);
    expect(ready['x-a'].__proto__).toEqual({ description: '&lt;b>' });
  });
});
