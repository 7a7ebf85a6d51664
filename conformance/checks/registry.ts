/**
 * The registry of checks. One rule per check; ids are rule sentences and must be unique, so a check
 * registered twice is a programming error, not a silent override.
 */
import type fc from 'fast-check';
import type { FailureInput } from '../lib/failure';
import type { Exchange, HttpClient, SendOptions } from '../lib/http-client';
import type { Contract, Operation } from '../../spec/lib';
import type { RunConfig } from '../config';
import type { CheckInputs } from './inputs';

export type CheckContext = {
  config: RunConfig;
  contract: Contract;
  client: HttpClient;
  /** Sends a request attributed to the running check. */
  send(options: SendOptions): Promise<Exchange>;
  /** Records a failure (or a warning, with severity 'warning'). */
  report(input: FailureInput): void;
  /** Records an informational line shown under the check's progress line. */
  note(message: string): void;
  /**
   * Records a stated rule (or part of one, `what`) this target did not let the check judge, with what would
   * (`how`: a smaller rate limit, --allow-writes, --token-b, ids): reports list them so a pass never hides them.
   */
  unjudged?(what: string, how: string, ruleId?: string): void;
  /**
   * Runs a fast-check property; a CheckFailure thrown by the predicate fails it, fast-check shrinks
   * it, and the shrunk failure is reported with the seed and path that replay it.
   */
  property<T>(
    name: string,
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    options?: { numRuns?: number; examples?: T[] },
  ): Promise<void>;
  /** Scenarios several checks observe (a polled run, created resources), computed once per run. */
  shared<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** For `fc.commands`: the replay path of the named property when a run replays it (`--path`), else undefined. */
  commandsReplayPath(property: string): string | undefined;
  /** Runs independent items (one property per operation) on the run's workers; with --shard, only this shard's. */
  each<T>(items: T[], task: (item: T) => Promise<void>): Promise<void>;
};

export type Check = {
  /** Rule sentence in kebab-case, unique in the registry. */
  id: string;
  /** The contract rule's id in the spec's `x-rules`. */
  ruleId: string;
  /** The rule as one sentence. */
  title: string;
  /** The broken-server fixture that proves this check can fail (conformance/fixtures/broken/<name>.ts). */
  fixture: string;
  /**
   * Operations the check cannot run without (by operationId). When a filter (`--operations`, `--tags`,
   * `--skip-tags`) leaves one out, or the contract has none, the check is skipped and says which.
   */
  needs?: string[];
  /**
   * The coverage-matrix cells it judges (conformance/coverage/matrix.ts), as patterns of cell ids
   * (`<rule id>: <subject>`, `*` any run of characters).
   */
  covers?: string[];
  /** Cells its `covers` match that it cannot judge, each with the reason (a pattern to the reason). */
  declines?: Record<string, string>;
  /** What it reads from the contract: the operations it exercises and their parts (inputs.ts; the diff's impact). */
  inputs: CheckInputs;
  /** Active part: sends its own requests. */
  run?(ctx: CheckContext): Promise<void>;
  /** Passive part: sees every exchange of the run (hooks), whichever check sent it. */
  onExchange?(exchange: Exchange, ctx: CheckContext): void;
  /**
   * Passive mode only (--proxy): live traffic judged for a rule the active part proves with requests of its own (a
   * 202's Location, polling). Active runs never use it.
   */
  traffic?: {
    /** A judge of every exchange, with its own state for the run. */
    judge(ctx: CheckContext): TrafficJudge;
    /** The operations whose exchanges it judges (the coverage of a passive run). */
    covers(op: Operation): boolean;
  };
  /** Needs the target to itself (reads rate-limit counters, spends the limit): never concurrent with other checks. */
  runsAlone?: boolean;
  /** Its work is `each` over independent items, dealt across shards one by one rather than as a whole check. */
  splits?: boolean;
  /** Runs after every check, for properties over the whole run. */
  finish?(ctx: CheckContext): void | Promise<void>;
};

/**
 * A check as its file declares it, keeping its id and fixture name as literal types: the checks list
 * (index.ts) derives `CheckId` from them, and the fixtures index requires the fixture each one names.
 */
export function defineCheck<const Id extends string, const FixtureName extends string>(
  check: Check & { id: Id; fixture: FixtureName },
): Check & { id: Id; fixture: FixtureName } {
  return check;
}

/** Judges live traffic one exchange at a time; `end` adds what it judged to the check's notes when traffic stops. */
export type TrafficJudge = { see(exchange: Exchange): void; end?(): void };

export class CheckRegistry {
  private readonly checks = new Map<string, Check>();

  register(check: Check): void {
    if (this.checks.has(check.id)) throw new Error(`check "${check.id}" is already registered`);
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(check.id))
      throw new Error(`check id "${check.id}" is not a kebab-case rule sentence`);
    this.checks.set(check.id, check);
  }

  get(id: string): Check | undefined {
    return this.checks.get(id);
  }

  all(): Check[] {
    return [...this.checks.values()];
  }
}
