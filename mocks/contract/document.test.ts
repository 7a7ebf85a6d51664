import { readFileSync } from 'node:fs';
import { loadContract } from '../../spec/lib';
import { GENERATED_PATH, renderDocumentModule } from './generate';
import { bundledContract } from '.';

describe('the prebuilt contract of the web-standard core', () => {
  it('should be the bundled spec as it is now (run npm run generate when it is not)', () => {
    expect(readFileSync(GENERATED_PATH, 'utf8') === renderDocumentModule()).toBe(true);
  });

  it('should give the same operations and constants as the contract read from the YAML file', () => {
    const fromFile = loadContract();
    const built = bundledContract();
    expect(built.document).toEqual(fromFile.document);
    expect(built.operations.map((op) => op.operationId)).toEqual(fromFile.operations.map((op) => op.operationId));
    expect(built.basePath).toBe(fromFile.basePath);
  });
});
