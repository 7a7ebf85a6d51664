import type { Fault } from './prefer';

/** The mock's programmatic types: one request and one response flow through every stage of the pipeline. */
export type MockRequest = {
  readonly method: string;
  /** Path without the /v1 base. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Lowercase header names. */
  readonly headers: Record<string, string>;
  readonly rawBody: Uint8Array;
  readonly body?: unknown;
  readonly workspaceUuid?: string;
  readonly operationId?: string;
};

export type MockResponse = {
  status: number;
  headers: Record<string, string>;
  /** A JSON value, or undefined for no body. */
  body: unknown;
  /** A body that is not JSON (an HTML error page), sent as it is with its own Content-Type. */
  text?: string;
  /** Send nothing proper: break the connection this way instead (mocks/faults). */
  fault?: Fault;
};

export type MockHooks = {
  /** Runs first, before authenticate (the body is not read yet). */
  beforeRequest?(req: MockRequest): void | Promise<void>;
  /** Last stage before serialise; may replace the response. */
  beforeSend?(req: MockRequest, res: MockResponse): MockResponse | void;
};

/** A token's owner: the workspace every read and write of the request is scoped to. */
export type Caller = { workspaceUuid: string; sub?: string; via: 'token' | 'oauth' };
