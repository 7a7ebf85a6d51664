/**
 * Request bodies as clients write them. openapi-fetch infers a call's options from the argument and checks them
 * structurally, so TypeScript's excess-property check never runs on a body; what remains is its weak-type check
 * (an object of optional fields refuses a value sharing none of them). openapi-fetch's `Writable<T>` adds `& {}`
 * to every object, and `{}` is not weak, so a body of misspelled fields compiled. Each object of a request body is
 * wrapped in `RequestBody<…>`, which adds one optional field marked read-only (`$read`): `Writable` turns it into
 * `?: never`, the object stays weak, and `{ nmae: 'x' }` fails `tsc`. Components and responses are unchanged, the
 * contract stays open (a server still accepts fields it does not know), and free-form objects (`input`) still take
 * any key.
 * @see https://github.com/openapi-ts/openapi-typescript/issues/1769 (a typo beside a correct field still compiles)
 */
import ts from 'typescript';

export const REQUEST_BODY_HELPER = 'RequestBody';

export const REQUEST_BODY_COMMENT = [
  '/**',
  ' * What a client sends: the schema, each object with a field no one can set (`~fieldsAreKnown`, marked read-only',
  " * the way openapi-fetch's `Writable` reads it), so a body whose fields are all misspelled fails to compile.",
  ' */',
].join('\n');

/** Declared at the top of the generated file. */
export const REQUEST_BODY_DECLARATION = [
  `export type ${REQUEST_BODY_HELPER}<T> = T extends readonly (infer E)[]`,
  `    ? ${REQUEST_BODY_HELPER}<E>[]`,
  '    : T extends object',
  `      ? { [K in keyof T]: ${REQUEST_BODY_HELPER}<T[K]> } & { readonly "~fieldsAreKnown"?: { readonly $read: never } }`,
  '      : T;',
].join('\n');

/** openapi-typescript's `postTransform`: wraps the type of every request body's media type. */
export function wrapRequestBody(type: ts.TypeNode, path: string | undefined): ts.TypeNode | undefined {
  if (!path || !/^#\/paths\/[^/]+\/[a-z]+\/requestBody\/content\/[^/]+$/.test(path)) return undefined;
  return ts.factory.createTypeReferenceNode(REQUEST_BODY_HELPER, [type]);
}
