import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('should forget the oldest entry first when full', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual([undefined, 2, 4, 2]);
  });

  it('should refuse a capacity that is no count', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});
