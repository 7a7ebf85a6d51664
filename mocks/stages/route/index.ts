import { ApiError } from '../../errors';
import type { Router } from '../../../spec/lib';
import { withRequest, type Stage } from '../../context';

/**
 * Finds the operation (HEAD is routed like GET, RFC 9110 §9.3.2): 404 for a path the contract does not have,
 * 405 with Allow for a method it does not declare there. Runs once the caller is known and counted.
 */
export function route(deps: { route: Router }): Stage {
  return (ctx, next) => {
    const { req } = ctx;
    const found = deps.route(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (found.kind !== 'match')
      return Promise.reject(
        routeError(req.method, req.path, found.kind === 'method-not-allowed' ? found.allow : undefined),
      );
    ctx.route = { operation: found.operation, params: found.params };
    ctx.req = withRequest(req, { operationId: found.operation.operationId });
    return next();
  };
}

/** Paths no mount serves: 404, after the caller is counted like any request. */
export function outsideBase(basePath: string): Stage {
  return async (ctx) => {
    throw new ApiError(
      404,
      'not_found',
      `No operation at ${ctx.req.method} ${ctx.req.path}: the API's paths start with its base path (${basePath}).`,
    );
  };
}

function routeError(method: string, path: string, allow: string[] | undefined): ApiError {
  const normalised = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (!allow) return new ApiError(404, 'not_found', `No operation at ${method} ${normalised}.`);
  return methodNotAllowed(method, normalised, allow);
}

/** 405 with the Allow header (every mount's router answers it this way). */
export function methodNotAllowed(method: string, path: string, allow: string[]): ApiError {
  const list = allow.join(', ');
  return new ApiError(
    405,
    'method_not_allowed',
    `Method ${method} is not allowed on ${path}; allowed: ${list}.`,
    {},
    { allow: list },
  );
}
