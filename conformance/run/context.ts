/**
 * The context a check runs in: its view of the shared HTTP client (requests attributed to it, refused for
 * operations outside the selection), failure recording, properties, shared scenarios and fan-out over the pool.
 */
import type { Check, CheckContext } from '../checks/registry';
import type { Failure, FailureInput } from '../lib/failure';
import type { HttpClient, SendOptions } from '../lib/http-client';
import type { Contract } from '../../spec/lib';
import type { RunConfig } from '../config';
import type { FailureGroups } from './grouping';
import { runProperty } from './property';
import type { ReplayTarget } from './replay';
import type { WorkerPool } from './scheduler';
import type { Selection } from './selection';
import type { CaseEvent, CheckResult } from './types';

/** What every check's context shares within one run. */
export type RunState = {
  config: RunConfig;
  contract: Contract;
  client: HttpClient;
  groups: FailureGroups;
  selection: Selection;
  pool: WorkerPool;
  replay?: ReplayTarget;
  replayReached: boolean;
  sharedValues: Map<string, Promise<unknown>>;
  onCase?(event: CaseEvent): void;
};

/** The shared client as one check sees it: its requests carry its id and stay within the selected operations. */
function clientView(state: RunState, checkId: string): HttpClient {
  const send = (options: SendOptions) => {
    state.selection.assertSelected(options.method, options.path, state.client);
    return state.client.send({ ...options, checkId: options.checkId ?? checkId });
  };
  return new Proxy(state.client, {
    get(target, property) {
      if (property === 'currentCheck') return checkId;
      if (property === 'send') return send;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function createContext(state: RunState, check: Check, result: CheckResult): CheckContext {
  const record = (input: FailureInput): Failure => state.groups.record(result, check.id, check.ruleId, input);
  const client = clientView(state, check.id);
  const ctx: CheckContext = {
    config: state.config,
    contract: state.selection.contract,
    client,
    send: (options) => client.send(options),
    report: (input) => void record(input),
    note: (message) => result.notes.push(message),
    unjudged: (what, how, ruleId = check.ruleId) => {
      const list = (result.unjudged ??= []);
      if (!list.some((u) => u.what === what && u.ruleId === ruleId))
        list.push({ checkId: check.id, ruleId, what, how });
    },
    shared: <T>(key: string, compute: () => Promise<T>) => {
      result.usedShared = true;
      if (!state.sharedValues.has(key)) state.sharedValues.set(key, compute());
      return state.sharedValues.get(key) as Promise<T>;
    },
    property: (name, arbitrary, predicate, options) =>
      runProperty(
        {
          config: state.config,
          checkId: check.id,
          replay: state.replay,
          onReplayReached: () => (state.replayReached = true),
          record,
          note: ctx.note,
          onCase: state.onCase,
        },
        name,
        arbitrary,
        predicate,
        options,
      ),
    commandsReplayPath: (name) => (state.replay?.property === name ? state.replay.commands : undefined),
    async each(items, task) {
      const mine = items.filter((_item, index) => state.selection.itemInShard(index));
      await state.pool.fanOut(mine, task);
    },
  };
  return ctx;
}
