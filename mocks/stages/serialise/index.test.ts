import { freezeDeep } from '.';

describe('freezeDeep', () => {
  it('should freeze nested objects and arrays so a shared body cannot change', () => {
    const body = freezeDeep({ list: [{ a: 1 }] });
    expect(Object.isFrozen(body.list[0])).toBe(true);
    expect(() => {
      'use strict';
      (body.list as unknown as unknown[]).push(1);
    }).toThrow(TypeError);
  });
});
