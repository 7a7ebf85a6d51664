// The one reader of spec/openapi.yaml. Everything that needs the contract (the mock, the conformance suite, the
// scripts, the generators, the tests) asks this library; it imports nothing from them.

export * from './annotations';
export * from './constants';
export * from './contract';
export * from './json';
export {
  bundleFile,
  DEFAULT_SPEC_PATH,
  dereferenceDocument,
  dereferenceFile,
  makeLineLocator,
  parseDocumentText,
  SPEC_LIMITS,
  SpecRefused,
  type CycleMode,
  type Origin,
  type RefusalCode,
  type SpecLimits,
} from './load';
export { createLineLocator, type LineOf } from './locate';
export * from './document';
export * from './operations';
export * from './pointer';
export * from './problems';
export * from './responses';
export * from './router';
export * from './schemas';
export * from './validate-response';
export * from './escape';
