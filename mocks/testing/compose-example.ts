import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const COMPOSE = join(__dirname, '..', '..', 'examples', 'compose.shared-mock.yml');

/**
 * The settings of the shared-deployment example (examples/compose.shared-mock.yml), read from the file itself so
 * tests run what it describes: each replica's environment, with `${NAME:?…}` interpolated from `variables` (as
 * compose does: empty when unset), and the flags Redis is started with.
 */
export function readComposeExample(variables: Record<string, string> = {}): {
  replicaEnv: Record<string, string>;
  redisFlags: Record<string, string>;
} {
  const compose = parse(readFileSync(COMPOSE, 'utf8')) as {
    'x-mock': { environment: Record<string, string> };
    services: { redis: { command: string[] } };
  };
  const given = new Map(Object.entries(variables));
  const replicaEnv = Object.fromEntries(
    Object.entries(compose['x-mock'].environment).map(([name, value]) => [
      name,
      String(value).replace(/\$\{(\w+)(?::?[?-][^}]*)?\}/g, (_, variable: string) => given.get(variable) ?? ''),
    ]),
  );
  const [, ...args] = compose.services.redis.command;
  const pairs = Array.from({ length: Math.ceil(args.length / 2) }, (_, i) => [
    args[2 * i].replace(/^--/, ''),
    args[2 * i + 1],
  ]);
  const redisFlags: Record<string, string> = Object.fromEntries(pairs);
  return { replicaEnv, redisFlags };
}
