import { ConfigError } from '../config';
import type { Contract } from '../../spec/lib';
import { checkBasePath, contractBasePath } from './preflight';

const contract = {
  document: { servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:4010/v1' } } }] },
} as unknown as Contract;

describe('checkBasePath', () => {
  it("should read the contract's base path from its first server", () => {
    expect(contractBasePath(contract)).toBe('/v1');
  });

  it.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/v1'],
    ['http://api.example.com/prefix', 'http://api.example.com/prefix/v1'],
    ['http://127.0.0.1:4010/v1/ai/mcpServers', 'http://127.0.0.1:4010/v1'],
  ])('should refuse %s and name %s', (target, corrected) => {
    expect(() => checkBasePath(target, contract)).toThrow(ConfigError);
    expect(() => checkBasePath(target, contract)).toThrow(`did you mean --target ${corrected} ?`);
  });

  it('should accept a target ending in the base path', () => {
    expect(() => checkBasePath('http://127.0.0.1:4010/v1', contract)).not.toThrow();
    expect(() => checkBasePath('https://staging.example.com/api/v1', contract)).not.toThrow();
  });
});
