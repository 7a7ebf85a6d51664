import { forgetJsonText, jsonText, rememberJsonText } from './json-text';

describe('jsonText', () => {
  it('should give a remembered text once, then serialise the body afresh', () => {
    const body = { a: 1 };
    expect(rememberJsonText(body)).toBe('{"a":1}');
    body.a = 2; // changed after it was remembered: the serialiser of that answer still gets the answer kept
    expect(jsonText(body)).toBe('{"a":1}');
    expect(jsonText(body)).toBe('{"a":2}');
  });

  it('should serialise afresh a body whose text was forgotten (handed to code that may change it)', () => {
    const body = { a: 1 };
    rememberJsonText(body);
    forgetJsonText(body);
    body.a = 3;
    expect(jsonText(body)).toBe('{"a":3}');
  });

  it('should keep the text of a frozen body for every answer', () => {
    const body = Object.freeze({ list: Object.freeze([1, 2]) });
    expect(jsonText(body)).toBe('{"list":[1,2]}');
    expect(rememberJsonText(body)).toBe('{"list":[1,2]}');
    expect(jsonText(body)).toBe('{"list":[1,2]}');
  });

  it.each([null, 3, 'x', true])('should serialise %p as JSON.stringify does', (value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });
});
