// Where a change is, made once where the change is found: the location reports show (and waivers match) and the
// part of the operation it touches (what the conformance checks declare they read). Impact reads the part, never
// the wording of the location.

import type { ChangePart, Place } from './change';

const place = (location: string, part: ChangePart): Place => ({ location, part });

/** The operation as a whole (added, removed, the base path): everything that exercises it. */
export const wholeOperation = (location: string): Place => place(location, { kind: 'operation' });
export const documentation = (location: string): Place => place(location, { kind: 'documentation' });
export const lifecycle = (location: string): Place => place(location, { kind: 'lifecycle' });
export const security = (location: string): Place => place(location, { kind: 'security' });
/** A named component schema: a type of generated clients, not what goes over the wire. */
export const component = (location: string): Place => place(location, { kind: 'component' });

export const parameter = (p: { in: string; name: string }): Place =>
  place(`parameter ${p.in} ${p.name}`, { kind: 'parameter', in: p.in, name: p.name });

export const requestBody = (location = 'request body'): Place => place(location, { kind: 'request-body' });

export const response = (status: string, location = `response ${status}`): Place =>
  place(location, { kind: 'response', status });

export const responseHeader = (status: string, name: string, within = `response ${status}`): Place =>
  place(`${within} header ${name}`, { kind: 'response-header', status, name });

/** A media type of a body: `response 200 application/json`. */
export function mediaTypeOf(at: Place, mediaType: string): Place {
  const { part } = at;
  const inner = part.kind === 'request-body' || part.kind === 'response' ? { ...part, mediaType } : part;
  return place(`${at.location} ${mediaType}`, inner);
}

/** A field inside what a place holds: `response 200 application/json › workflow.name`; the place itself at ''. */
export function fieldOf(at: Place, field: string): Place {
  if (field === '') return at;
  const { part } = at;
  const inner = part.kind === 'request-body' || part.kind === 'response' ? { ...part, field } : part;
  return place(`${at.location} › ${field}`, inner);
}
