import { ApiError } from '../errors';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/;
const YAML_TYPE = /^(?:application|text)\/(?:x-)?yaml$/;

/**
 * No state change from a request a browser sends without a preflight: such a request can only carry
 * `text/plain`, `multipart/form-data` or `application/x-www-form-urlencoded`. A write to the control plane
 * needs a JSON body (fixtures: JSON or YAML), so another origin's page can never steer the mock with a simple
 * request, whatever CORS allows; 415 otherwise, in the error shape.
 */
export function requirePreflightedWrite(
  method: string,
  headers: Record<string, string>,
  options: { yaml: boolean },
): void {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
  const mediaType = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (JSON_TYPE.test(mediaType) || (options.yaml && YAML_TYPE.test(mediaType))) return;
  throw new ApiError(
    415,
    'unsupported_media_type',
    `Content-Type: ${mediaType ? `"${mediaType}" is` : 'none is'} not accepted for a change to the mock; send Content-Type: application/json${options.yaml ? ' (or application/yaml)' : ''}.`,
  );
}
