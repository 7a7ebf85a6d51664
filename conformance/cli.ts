/** Command line: parses flags and environment, runs the suite, renders; exit 0 pass, 1 fail, 2 bad configuration. */
import { ConfigError, parseConfig } from './config';
import { allChecks } from './checks';
import { ConsoleReporter } from './reporters/console';
import { HarReporter } from './reporters/har';
import { HtmlReporter } from './reporters/html';
import { JunitReporter } from './reporters/junit';
import { NdjsonReporter } from './reporters/ndjson';
import { startPassiveProxy } from './proxy';
import { runConformance, type Reporter } from './runner';

async function main(): Promise<number> {
  try {
    const config = parseConfig(process.argv.slice(2));
    const reporters: Reporter[] = [new ConsoleReporter(undefined, config.proxy !== undefined)];
    if (config.junit) reporters.push(new JunitReporter(config.junit));
    if (config.ndjson) reporters.push(new NdjsonReporter(config.ndjson, config.credentials));
    if (config.har) reporters.push(new HarReporter(config.har, config.credentials));
    if (config.html) reporters.push(new HtmlReporter(config.html));
    if (config.proxy) {
      const proxy = await startPassiveProxy({ ...config, ...config.proxy }, { checks: allChecks(), reporters });
      process.stdout.write(
        `Passive conformance proxy on ${proxy.url} → ${config.proxy.upstream}\nSend your traffic there; Ctrl-C ends it and writes the reports.\n\n`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      return (await proxy.close()).exitCode;
    }
    const summary = await runConformance(config, { checks: allChecks(), reporters });
    return summary.exitCode;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
