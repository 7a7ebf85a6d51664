import { contractFromDocument, type Contract } from '../../spec/lib/contract-from-document';
import type { JsonObject } from '../../spec/lib/json';
import { BUNDLED_DOCUMENT_TEXT } from './document.generated';

let contract: Contract | undefined;

/** The bundled contract (spec/openapi.yaml, prebuilt by `generate.ts`), parsed on first use. */
export function bundledDocument(): JsonObject {
  return JSON.parse(BUNDLED_DOCUMENT_TEXT) as JsonObject;
}

/** The contract from the prebuilt document, built once per process (or page): no file is read. */
export function bundledContract(): Contract {
  return (contract ??= contractFromDocument(bundledDocument()));
}
