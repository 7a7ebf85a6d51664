/**
 * The resource operations: create an MCP server, replace the current workspace's settings, get a workflow or a
 * model, cancel a domain, remove an environment variable.
 */
import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import { iso, type Context } from './context';
import { bodyOf, callerOf, extra, notFound, pathId, route, uuidField } from './http';
import type { Field } from './validate';

const PROVIDERS = ['email', 'social-oauth2', 'enterprise-directory', 'single-sign-on', 'agent-identity'];

const text = (min: number, max: number): Field => ({ type: 'string', min, max });
const nullable = <T extends Field>(field: T): T => ({ ...field, nullable: true });
const stringArray: Field = { type: 'array', items: { type: 'string' } };

function createMcpServer(ctx: Context, req: Request, res: Response) {
  const body = bodyOf(
    ctx,
    req,
    'createMcpServer body',
    {
      name: text(1, ctx.facts.nameMaxLength),
      description: text(1, 1000),
      actions: { type: 'array', items: { type: 'object' } },
      resources: { type: 'array', items: { type: 'object' } },
      capabilities: { type: 'array', items: { type: 'object' } },
      folderUuid: { type: 'string', uuid: true },
    },
    ctx.readings.requireMcpName ? ['name'] : [],
  );
  const now = iso(Date.now());
  const server = {
    uuid: randomUUID(),
    workspaceUuid: callerOf(res).uuid,
    userUuid: null,
    name: body.name ?? null,
    description: body.description ?? null,
    actions: body.actions ?? [],
    resources: body.resources ?? [],
    capabilities: body.capabilities ?? [],
    folderUuid: body.folderUuid ?? null,
    templateSlug: null,
    isReadOnly: false,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  callerOf(res).mcpServers.set(server.uuid, server);
  res.status(ctx.readings.mcpCreatedStatus).json({ mcpServer: extra(ctx, server) });
}

function workspaceFields(ctx: Context): Record<string, Field> {
  return {
    syncs: { type: 'array', items: { type: 'object', fields: { cron: { type: 'string' } } } },
    name: {
      type: 'string',
      min: 1,
      max: ctx.facts.nameMaxLength,
      excluded: ctx.broken('pattern-allows-gt') ? ['<'] : ['<', '>'],
    },
    allowedEmailDomains: stringArray,
    logoBase64: nullable({ type: 'string' }),
    metadata: {
      type: 'object',
      fields: {
        mainGoal: nullable(stringArray),
        salesRepCount: nullable({ type: 'string' }),
        gtmStackList: nullable(stringArray),
        referralSource: nullable(stringArray),
      },
    },
    browserExtensionMasterAgentUuid: nullable(uuidField),
    browserExtensionAvailableAgentUuids: nullable(stringArray),
    defaultRoleUuid: nullable(uuidField),
    allowedLoginProviders: nullable({ type: 'array', items: { type: 'string', enum: PROVIDERS } }),
  };
}

/** A full replacement (this server's reading): omitted fields go back to their defaults. */
const REPLACED = {
  name: null,
  allowedEmailDomains: [],
  logoUrl: null,
  metadata: null,
  syncs: [],
  browserExtensionMasterAgentUuid: null,
  browserExtensionAvailableAgentUuids: null,
  defaultRoleUuid: null,
  allowedLoginProviders: null,
};

function updateCurrentWorkspace(ctx: Context, req: Request, res: Response) {
  const { putReplaces } = ctx.readings;
  const body = bodyOf(ctx, req, 'updateCurrentWorkspace body', workspaceFields(ctx), putReplaces ? ['name'] : []);
  const ws = callerOf(res);
  const base: Record<string, unknown> = putReplaces ? { ...REPLACED } : ws.settings;
  const { logoBase64, ...rest } = body;
  ws.settings = {
    ...base,
    ...rest,
    logoUrl:
      logoBase64 === null ? null : logoBase64 !== undefined ? 'https://logos.invalid/logo.png' : (base.logoUrl ?? null),
    updatedAt: iso(Date.now()),
  };
  res.json({ workspace: extra(ctx, { uuid: ws.uuid, createdAt: iso(0), ...ws.settings }) });
}

const READABLE_ELSEWHERE = {
  workflows: 'workflows-readable-cross-workspace',
  models: 'models-readable-cross-workspace',
} as const;

function getOwned(ctx: Context, req: Request, res: Response, kind: 'workflows' | 'models', op: string) {
  const id = pathId(ctx, req, `${op} path`);
  const owner = ctx.broken(READABLE_ELSEWHERE[kind])
    ? [ctx.workspaces.a, ctx.workspaces.b].find((w) => w[kind].has(id))
    : callerOf(res);
  const found = owner?.[kind].get(id) ?? notFound(ctx, kind === 'workflows' ? 'workflow' : 'model');
  res.json(kind === 'workflows' ? { workflow: extra(ctx, found) } : { model: extra(ctx, found) });
}

export function mountResources(app: Express, ctx: Context): void {
  app.post(
    '/v1/ai/mcpServers',
    route((req, res) => createMcpServer(ctx, req, res)),
  );
  app.put(
    '/v1/workspaceManagement/workspaces/current',
    route((req, res) => updateCurrentWorkspace(ctx, req, res)),
  );
  app.get(
    '/v1/orchestration/workflows/:uuid',
    route((req, res) => getOwned(ctx, req, res, 'workflows', 'getWorkflow')),
  );
  app.get(
    '/v1/storage/models/:uuid',
    route((req, res) => getOwned(ctx, req, res, 'models', 'getModel')),
  );
  // Credits stay charged.
  app.delete(
    '/v1/domainManagement/domains/:uuid',
    route((req, res) => {
      const id = pathId(ctx, req, 'cancelDomain path');
      const domain = callerOf(res).domains.get(id) ?? notFound(ctx, 'domain');
      Object.assign(domain, { status: 'cancelled', autoRenew: false, updatedAt: iso(Date.now()) });
      res.json({ domain: extra(ctx, domain) });
    }),
  );
  app.delete(
    '/v1/workspaceManagement/env-vars/:uuid',
    route((req, res) => {
      const id = pathId(ctx, req, 'removeEnvironmentVariable path');
      if (!callerOf(res).envVars.delete(id)) notFound(ctx, 'environment variable');
      res.json({});
    }),
  );
}
