import { ApiError } from '../errors';
import { CONTROL_LIMITS } from '../limits';
import type { SettingsRepository } from '../store/repositories/settings';
import {
  checkSettingsPatch,
  type FaultRule,
  type RuntimeSettings,
  type SettingsPatch,
  type WorkspaceSettings,
} from './settings';
import { requireAdmin, type Controller } from './tenancy';

export type SettingsDeps = {
  settings: SettingsRepository;
  operationIds: string[];
  adminToken?: string;
  resolveWorkspace: (ref: string) => string | undefined;
};

/**
 * `GET /__mock/settings`: the admin sees the defaults and every workspace's own settings; a tenant sees what
 * steers its workspace (its settings over the defaults, the fault rules that apply to it) and its own entry.
 */
export async function viewSettings(deps: SettingsDeps, who: Controller): Promise<RuntimeSettings> {
  if (who.role === 'admin')
    return { ...(await deps.settings.defaults()), workspaces: await deps.settings.allWorkspaces() };
  const { outcome: _outcome, ...steering } = await deps.settings.steering(who.workspaceUuid);
  const { faults: _faults, ...own } = (await deps.settings.workspace(who.workspaceUuid)) ?? {};
  return { ...steering, workspaces: Object.keys(own).length > 0 ? { [who.workspaceUuid]: own } : {} };
}

/**
 * `PATCH /__mock/settings`: checks the whole change (schema, who may change what, workspaces and operations
 * named), then saves it in the store (every replica applies it once the answer is sent); nothing changes unless
 * all of it is valid. A tenant's change is its own workspace's; the admin's changes the defaults for everyone
 * and names workspaces.
 */
export async function updateSettings(deps: SettingsDeps, who: Controller, patch: unknown): Promise<RuntimeSettings> {
  const problems = checkSettingsPatch(patch);
  const change = (patch ?? {}) as SettingsPatch;
  if (problems.length > 0) refuse(problems);
  const workspaces = new Map<string, WorkspacePatch>();
  for (const [ref, value] of Object.entries(change.workspaces ?? {})) {
    const uuid = deps.resolveWorkspace(ref);
    if (!uuid) problems.push(`settings.workspaces.${ref}: is neither a token of the mock nor a workspace uuid`);
    else workspaces.set(uuid, value);
  }
  const faults = (change.faults ?? []).map((rule, i): FaultRule => {
    if (rule.operation !== undefined && !deps.operationIds.includes(rule.operation))
      problems.push(
        `settings.faults.${i}.operation: no operation ${JSON.stringify(rule.operation)}; one of ${deps.operationIds.join(', ')}`,
      );
    const workspace = rule.workspace === undefined ? undefined : deps.resolveWorkspace(rule.workspace);
    if (rule.workspace !== undefined && !workspace)
      problems.push(`settings.faults.${i}.workspace: is neither a token of the mock nor a workspace uuid`);
    return { ...rule, share: rule.share ?? 1, ...(workspace ? { workspace } : {}) };
  });
  if (problems.length > 0) refuse(problems);

  const { workspaces: _w, faults: _f, outcome, authRateLimit, ...values } = change;
  if (who.role === 'tenant') {
    const own = who.workspaceUuid;
    if (authRateLimit !== undefined)
      requireAdmin(who, 'authRateLimit (counted per client address, across workspaces)', deps.adminToken);
    if ([...workspaces.keys(), ...faults.map((rule) => rule.workspace ?? own)].some((uuid) => uuid !== own))
      requireAdmin(who, "Settings of a workspace other than the token's own", deps.adminToken);
    const next = merge((await deps.settings.workspace(own)) ?? {}, {
      ...values,
      ...(outcome !== undefined ? { outcome } : {}),
      ...workspaces.get(own),
    });
    if (change.faults) next.faults = faults.map(({ workspace: _ws, ...rule }) => rule);
    await deps.settings.save({ workspaces: { [own]: next } });
  } else {
    if (outcome !== undefined)
      refuse([
        "settings.outcome: is a workspace's own; the admin names the workspace: workspaces.<token or uuid>.outcome",
      ]);
    const stored = new Map(Object.entries(await deps.settings.allWorkspaces()));
    const next = new Map<string, WorkspaceSettings | undefined>();
    for (const [uuid, value] of workspaces)
      next.set(uuid, value === null ? undefined : merge(stored.get(uuid) ?? {}, value));
    const kept = new Set(stored.keys());
    for (const [uuid, value] of next) {
      if (value === undefined) kept.delete(uuid);
      else kept.add(uuid);
    }
    if (kept.size > CONTROL_LIMITS.settingsWorkspaces)
      refuse([
        `settings.workspaces: at most ${CONTROL_LIMITS.settingsWorkspaces} workspaces have settings of their own; clear some (null) first`,
      ]);
    const defaults = {
      ...(await deps.settings.defaults()),
      ...values,
      ...(authRateLimit !== undefined ? { authRateLimit } : {}),
      ...(change.faults ? { faults } : {}),
    };
    await deps.settings.save({ defaults, workspaces: Object.fromEntries(next) });
  }
  await deps.settings.settle();
  return viewSettings(deps, who);
}

type WorkspacePatch = { [K in keyof WorkspaceSettings]?: WorkspaceSettings[K] | null } | null;

/** A workspace's settings with a change merged in: a null field clears it. */
function merge(current: WorkspaceSettings, change: WorkspacePatch): WorkspaceSettings {
  const merged: Record<string, unknown> = { ...current, ...change };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== null)) as WorkspaceSettings;
}

function refuse(problems: string[]): never {
  throw new ApiError(400, 'invalid_settings', `The settings were not changed: ${problems[0]}`, { problems });
}
