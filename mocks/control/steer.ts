import type { Ctx } from '../context';
import { parsePrefer, type Fault, type Outcome } from '../prefer';
import type { Steering } from './settings-types';

export type RunPlan = { durationMs: number; outcome: Outcome };

/**
 * How a created run ends and how long it takes: `Prefer: outcome=… / duration=…` on the request, else the
 * workspace's settings (control plane), else the mock's run duration and `success`.
 */
export function planRun(steering: Steering | undefined, ctx: Ctx, runDurationMs: number): RunPlan {
  const asked = ctx.req.headers.prefer ? parsePrefer(ctx.req.headers.prefer) : {};
  return {
    durationMs: asked.durationMs ?? steering?.runDurationMs ?? runDurationMs,
    outcome: asked.outcome ?? steering?.outcome ?? 'success',
  };
}

/** The fault for this request: `Prefer: fault=…`, else the first control-plane rule that matches and draws it. */
export function pickFault(ctx: Ctx, random: () => number = Math.random): Fault | undefined {
  const asked = ctx.req.headers.prefer ? parsePrefer(ctx.req.headers.prefer).fault : undefined;
  if (asked) return asked;
  const operationId = ctx.route?.operation.operationId;
  for (const rule of ctx.steering?.faults ?? []) {
    if (rule.operation !== undefined && rule.operation !== operationId) continue;
    if (rule.workspace !== undefined && rule.workspace !== ctx.caller?.workspaceUuid) continue;
    if (random() < rule.share) return rule.fault;
  }
  return undefined;
}
