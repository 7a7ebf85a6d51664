/**
 * Command line: parses flags and environment, runs the suite, renders; exit 0 pass, 1 fail, 2 bad configuration or a
 * run --max-time stopped before it judged everything (with no failure).
 */
import { ConfigError, parseConfig } from './config';
import { allChecks } from './checks';
import { coverageFigures, coverageMatrix, formatMatrix, runMatrix } from './matrix/matrix';
import { ConsoleReporter, terminalSink } from './reporters/console';
import { CtrfReporter } from './reporters/ctrf';
import { HarReporter } from './reporters/har';
import { HtmlReporter } from './reporters/html';
import { JunitReporter } from './reporters/junit';
import { NdjsonReporter } from './reporters/ndjson';
import { startPassiveProxy } from './proxy';
import { runConformance, type Reporter } from './runner';
import { selectChecks } from './run/lifecycle';
import { selectOperations } from './run/selection';
import { loadContract, SpecRefused } from '../spec/lib';

// Every line this command writes passes the terminal's one door: a target's error text, a spec's names.
const out = terminalSink((text) => process.stdout.write(text));
const err = terminalSink((text) => process.stderr.write(text));

/** Past --max-time, the most the command lets anything hold it (the runner itself ends a few seconds after). */
const HARD_STOP_AFTER_MS = 14_000;

async function main(): Promise<number> {
  try {
    // --max-time counts from the command's start: loading the suite and the contract is part of the run's time.
    const config = { ...parseConfig(process.argv.slice(2)), startedAt: Math.floor(performance.timeOrigin) };
    if (config.coverageOnly) {
      const contract = loadContract(config.specPath);
      const checks = allChecks();
      const selected = selectOperations(contract, config).map((op) => op.operationId);
      const ran = selectChecks(checks, config).map((check) => check.id);
      out(`${formatMatrix(coverageMatrix(contract, checks, { operations: selected, ran })).trim()}\n`);
      return 0;
    }
    const reporters: Reporter[] = [new ConsoleReporter(undefined, config.proxy !== undefined)];
    if (config.junit) reporters.push(new JunitReporter(config.junit));
    if (config.ndjson) reporters.push(new NdjsonReporter(config.ndjson, config.credentials));
    if (config.har) reporters.push(new HarReporter(config.har, config.credentials));
    if (config.html) reporters.push(new HtmlReporter(config.html));
    if (config.ctrf) reporters.push(new CtrfReporter(config.ctrf));
    if (config.proxy) {
      const proxy = await startPassiveProxy({ ...config, ...config.proxy }, { checks: allChecks(), reporters });
      out(
        `Passive conformance proxy on ${proxy.url} → ${config.proxy.upstream}\nSend your traffic there; Ctrl-C (or SIGTERM) ends it and writes the reports.\n\n`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      return (await proxy.close()).exitCode;
    }
    // The runner stops itself at --max-time and writes the reports; should anything still hold the process, it
    // ends within the documented 15 s past the deadline all the same.
    setTimeout(
      () => {
        err(`stopped: --max-time of ${config.maxTimeSeconds} s passed and the run did not end; exiting\n`);
        process.exit(2);
      },
      config.startedAt + config.maxTimeSeconds * 1000 + HARD_STOP_AFTER_MS - Date.now(),
    ).unref();
    const summary = await runConformance(config, { checks: allChecks(), reporters });
    if (summary.stopped) {
      const notJudged = summary.results.filter((r) => r.skippedReason?.startsWith('not judged')).map((r) => r.id);
      err(
        `stopped: ${summary.stopped}; not judged: ${notJudged.join(', ') || 'none'} (the reports are written; raise --max-time to judge them)\n`,
      );
    }
    if (config.minCoverage !== undefined) {
      const figures = coverageFigures(runMatrix(loadContract(config.specPath), allChecks(), summary));
      const line = `coverage: ${figures.judged} of ${figures.stated} stated cells judged (${figures.percent.toFixed(1)} %), --min-coverage ${config.minCoverage} %`;
      out(`${line}\n`);
      if (figures.percent < config.minCoverage) {
        err(`coverage below --min-coverage (run with --coverage to see the cells)\n`);
        return 1;
      }
    }
    return summary.exitCode;
  } catch (error) {
    // A refused spec (--spec) is one line naming its file and pointer, already safe for a terminal.
    if (error instanceof ConfigError || error instanceof SpecRefused) {
      err(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    err(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
