import type { Ctx } from '../context';
import { parsePrefer, type Fault, type Outcome } from '../prefer';
import type { RuntimeSettings } from './settings';

export type RunPlan = { durationMs: number; outcome: Outcome };

/**
 * How a created run ends and how long it takes: `Prefer: outcome=… / duration=…` on the request, else the
 * workspace's settings (control plane), else the mock's run duration and `success`.
 */
export function planRun(settings: RuntimeSettings, ctx: Ctx): RunPlan {
  const asked = ctx.req.headers.prefer ? parsePrefer(ctx.req.headers.prefer) : {};
  // dictionary-lookup: the caller's workspace uuid comes from the mock's own tokens, not from the request
  const own = ctx.caller ? settings.workspaces[ctx.caller.workspaceUuid] : undefined;
  return {
    durationMs: asked.durationMs ?? own?.runDurationMs ?? settings.runDurationMs,
    outcome: asked.outcome ?? own?.outcome ?? 'success',
  };
}

/** The fault for this request: `Prefer: fault=…`, else the first control-plane rule that matches and draws it. */
export function pickFault(settings: RuntimeSettings, ctx: Ctx, random: () => number = Math.random): Fault | undefined {
  const asked = ctx.req.headers.prefer ? parsePrefer(ctx.req.headers.prefer).fault : undefined;
  if (asked) return asked;
  const operationId = ctx.route?.operation.operationId;
  for (const rule of settings.faults) {
    if (rule.operation !== undefined && rule.operation !== operationId) continue;
    if (rule.workspace !== undefined && rule.workspace !== ctx.caller?.workspaceUuid) continue;
    if (random() < rule.share) return rule.fault;
  }
  return undefined;
}
