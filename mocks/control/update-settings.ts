import { ApiError } from '../errors';
import { CONTROL_LIMITS } from '../limits';
import { applySettingsPatch, checkSettingsPatch, type RuntimeSettings, type SettingsPatch } from './settings';

/**
 * `PATCH /__mock/settings`: checks the whole change (schema, workspaces and operations named), then applies it;
 * nothing changes unless all of it is valid.
 */
export function updateSettings(
  deps: { settings: RuntimeSettings; operationIds: string[] },
  resolveWorkspace: (ref: string) => string | undefined,
  patch: unknown,
): RuntimeSettings {
  const problems = checkSettingsPatch(patch);
  const change = patch as SettingsPatch;
  const workspaces: Record<string, unknown> = {};
  for (const [ref, value] of Object.entries(change?.workspaces ?? {})) {
    const uuid = resolveWorkspace(ref);
    // dictionary-lookup: uuid is resolved (a token's workspace or a uuid)
    if (uuid) workspaces[uuid] = value;
    else problems.push(`settings.workspaces.${ref}: is neither a token of the mock nor a workspace uuid`);
  }
  const faults = (change?.faults ?? []).map((rule, i) => {
    if (rule.operation !== undefined && !deps.operationIds.includes(rule.operation)) {
      problems.push(
        `settings.faults.${i}.operation: no operation ${JSON.stringify(rule.operation)}; one of ${deps.operationIds.join(', ')}`,
      );
    }
    const workspace = rule.workspace === undefined ? undefined : resolveWorkspace(rule.workspace);
    if (rule.workspace !== undefined && !workspace)
      problems.push(`settings.faults.${i}.workspace: is neither a token of the mock nor a workspace uuid`);
    return { ...rule, share: rule.share ?? 1, ...(workspace ? { workspace } : {}) };
  });
  const kept = new Set(Object.keys(deps.settings.workspaces));
  for (const [uuid, value] of Object.entries(workspaces)) {
    if (value === null) kept.delete(uuid);
    else kept.add(uuid);
  }
  if (kept.size > CONTROL_LIMITS.settingsWorkspaces)
    problems.push(
      `settings.workspaces: at most ${CONTROL_LIMITS.settingsWorkspaces} workspaces have settings of their own; clear some (null) first`,
    );
  if (problems.length > 0)
    throw new ApiError(400, 'invalid_settings', `The settings were not changed: ${problems[0]}`, { problems });
  applySettingsPatch(deps.settings, {
    ...change,
    ...(change.workspaces ? { workspaces: workspaces as SettingsPatch['workspaces'] } : {}),
    ...(change.faults ? { faults } : {}),
  });
  return deps.settings;
}
