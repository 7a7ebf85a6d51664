/**
 * Bad configuration is found before any check runs (exit 2): a target outside the contract's base path, an
 * unreachable target, a token the target rejects.
 */
import { ConfigError } from '../config';
import type { HttpClient } from '../lib/http-client';
import { serverBasePath, type Contract, type Operation } from '../../spec/lib';

/** The path of the contract's first server URL (variables at their defaults), e.g. `/v1`; '' when it has none. */
export function contractBasePath(contract: Pick<Contract, 'document'>): string {
  return serverBasePath(contract.document);
}

/** A target must end in the contract's base path; the error names the URL that would. */
export function checkBasePath(target: string, contract: Contract): void {
  const base = contractBasePath(contract);
  if (!base) return;
  const url = new URL(target);
  const pathname = url.pathname.replace(/\/+$/, '');
  if (pathname.endsWith(base)) return;
  const inside = pathname.indexOf(`${base}/`);
  const corrected = `${url.origin}${inside >= 0 ? pathname.slice(0, inside + base.length) : pathname + base}`;
  throw new ConfigError(
    `--target ${target} does not end in the contract's base path ${base}: did you mean --target ${corrected} ?`,
  );
}

export async function preflight(client: HttpClient, operations: Operation[]): Promise<void> {
  const probe = operations.find((op) => op.method === 'GET' && !op.path.includes('{')) ?? operations[0];
  if (!probe) throw new ConfigError('no operation is selected (--operations, --tags, --skip-tags)');
  const exchange = await client.send({
    method: 'GET',
    path: probe.path,
    operationId: probe.operationId,
    pace: false,
    checkId: 'preflight',
  });
  if (exchange.error) throw new ConfigError(`target ${client.options.baseUrl} is unreachable: ${exchange.error}`);
  if (exchange.response?.status === 401) throw new ConfigError(`target rejected --token with 401 on GET ${probe.path}`);
  if (client.options.tokenB) {
    const b = await client.send({
      method: 'GET',
      path: probe.path,
      operationId: probe.operationId,
      auth: 'b',
      pace: false,
      checkId: 'preflight',
    });
    if (b.response?.status === 401) throw new ConfigError(`target rejected --token-b with 401 on GET ${probe.path}`);
  }
}
