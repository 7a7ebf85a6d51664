// The contract, loaded once: the bundled document and everything read from it.

import { resolve } from 'node:path';
import { contractFromDocument, type Contract } from './contract-from-document';
import { bundleFile, DEFAULT_SPEC_PATH } from './load';

export * from './contract-from-document';

const loaded = new Map<string, Contract>();

/**
 * Loads the contract from a file (split files bundled), once per process and path: later calls answer the same
 * object. `fresh: true` reads the file again.
 */
export function loadContract(path: string = DEFAULT_SPEC_PATH, options: { fresh?: boolean } = {}): Contract {
  const file = resolve(path);
  let contract = options.fresh ? undefined : loaded.get(file);
  if (!contract) loaded.set(file, (contract = contractFromDocument(bundleFile(file), file)));
  return contract;
}
