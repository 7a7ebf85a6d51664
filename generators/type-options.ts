/**
 * The openapi-typescript options that shape the contract's generated types: `npm run generate` uses them
 * (generate-types.ts), and so does spec:diff's proof of which rules move the client types
 * (scripts/lib/diff/client-types.ts), so the proof reads the types the package ships.
 */
export const TYPE_SHAPE = {
  // Response objects are open unless the spec says otherwise, as the contract requires.
  additionalProperties: false,
  // Free-form objects (`input`, action `config`, query `rows`) take any value, not `Record<string, never>`.
  emptyObjectsUnknown: true,
  alphabetize: false,
} as const;
