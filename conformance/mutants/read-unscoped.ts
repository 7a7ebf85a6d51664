/**
 * A generated mutant per read-by-id isolation cell (`workspace-scoping: <kind> via get (<operationId>)`): the mock
 * with one read by id that finds a record in any workspace, as a lookup without the caller's workspace does. Built
 * from the contract's operation alone (its method and path template) through the mock's hooks, so a read by id added
 * to the contract and the mock is broken without a route or a variant of the independent server.
 */
import type { Operation } from '../../spec/lib';
import type { Fixture } from '../fixtures/fixture';

/** The mock's seeded tokens (mocks/defaults.ts), as the suite's runs against it send them. */
const MOCK_TOKENS = { a: 'mock-token-a', b: 'mock-token-b' } as const;

/** Bounds on the walk of an answer for ids: answers are the mock's own, but a mutant stays cheap. */
const MAX_DEPTH = 6;
const MAX_IDS = 10_000;

/** Every string value of a JSON answer (ids among them), depth- and count-bounded. */
function collectStrings(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > MAX_DEPTH || into.size >= MAX_IDS) return;
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into, depth + 1);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value as Record<string, unknown>)) collectStrings(item, into, depth + 1);
}

/** The operation's path template as a pattern capturing each path parameter's segment. */
function pathPattern(path: string): RegExp {
  const parts = path.split(/\{[^}/]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('([^/]+)')}$`);
}

/**
 * The mock's hooks for the mutant: every value answered to workspace B and never to A is B's own; a request of
 * `op` by another token naming one of them in its path is answered as B, its owner (so A reads B's record: 200).
 */
export function readUnscopedHooks(op: Pick<Operation, 'method' | 'path'>): Fixture['options'] {
  const pattern = pathPattern(op.path);
  return () => {
    const seenByB = new Set<string>();
    const seenByA = new Set<string>();
    return {
      runDurationMs: 300,
      hooks: {
        beforeRequest(req) {
          if (req.method !== op.method || req.headers.authorization === `Bearer ${MOCK_TOKENS.b}`) return;
          const segments = pattern.exec(req.path)?.slice(1) ?? [];
          const ids = segments.map((segment) => {
            try {
              return decodeURIComponent(segment);
            } catch {
              return segment;
            }
          });
          if (ids.some((id) => seenByB.has(id) && !seenByA.has(id)))
            req.headers.authorization = `Bearer ${MOCK_TOKENS.b}`;
        },
        beforeSend(req, res) {
          if (req.headers.authorization === `Bearer ${MOCK_TOKENS.b}`) collectStrings(res.body, seenByB);
          else if (req.headers.authorization === `Bearer ${MOCK_TOKENS.a}`) collectStrings(res.body, seenByA);
        },
      },
    };
  };
}
