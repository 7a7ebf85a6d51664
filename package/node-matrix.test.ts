/**
 * The Node matrix's fast part (the matrix itself, `npm run package:node-matrix`, takes minutes): the versions are
 * pinned exactly, one per major the package claims, and the README names the ones it reports on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PINNED_NODES } from './node-matrix';

const ROOT = join(__dirname, '..');

describe('the Node matrix', () => {
  it('should pin Node 22 and 24 to exact versions of their major, Node 20 being the one that runs it', () => {
    expect(Object.keys(PINNED_NODES)).toEqual(['20', '22', '24']);
    for (const [major, version] of Object.entries(PINNED_NODES))
      if (version !== undefined) expect(version).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
    expect(PINNED_NODES['20']).toBeUndefined();
  });

  it('should name each pinned version in the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const pinned = Object.values(PINNED_NODES).filter((version): version is string => version !== undefined);
    expect(pinned).toHaveLength(2);
    for (const version of pinned) expect(readme).toContain(version);
  });
});
