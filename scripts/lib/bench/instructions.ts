/**
 * Instructions per request: the mock's own work counted, not timed. On a shared machine the CPU time of the same
 * requests spreads by a quarter from one run to the next, which hides any change smaller than that; the
 * instructions the CPU executes for them do not depend on what else runs. Valgrind's callgrind counts them:
 * `in-process.ts --window` drives the listener without sockets (as `--in-process` does), warms up, and says when
 * its measured requests begin and end; counting is switched on and off from outside (`callgrind_control`) around
 * them alone, so start-up, module loading and the warm-up count nothing.
 *
 * Node runs with `--single-threaded`: the collector and the optimising compiler work on the main thread, so one
 * count holds all the work in one order. The compilers' share and the collector's are reported apart and left
 * out of the figure compared: under valgrind the run is some fifty times slower, so what happens on a timer (a
 * sweep every second, code tiering up and down) falls on far fewer requests than at full speed (`COMPILER`), and
 * the collector's work comes in lumps (`COLLECTOR`).
 *
 * Valgrind is a Debian package (`scripts/ensure-valgrind.sh` installs it where it may).
 * @see https://valgrind.org/docs/manual/cl-manual.html
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type InstructionCount = {
  /** Instructions per measured request of the request's own work: the compilers' and the collector's apart. */
  perRequest: number;
  /** The compilers' instructions per measured request (reported apart, see the module comment). */
  compilerPerRequest: number;
  /** The garbage collector's (apart: a full collection falls in some runs' window and not in others'). */
  collectorPerRequest: number;
};

/**
 * Functions of V8's garbage collector (young and full collections, sweeping, evacuation). Its work is the
 * requests' too, but it comes in lumps: a full collection of the heap the store fills falls in some runs' measured
 * window and not in others', which moved the keyed create's count by a fifth between rounds; apart, the rest agrees.
 */
const COLLECTOR =
  /Scaveng|Sweep|Evacuat|Marking|MarkCompact|heap::base::|cppgc::|IterateObjectCache|SemiSpace|PagedSpace|GlobalHandles|RememberedSet|BodyDescriptor/;

/**
 * Functions that make code, as callgrind_annotate names them: V8's optimising compilers (TurboFan, Maglev), the
 * bytecode generator and the parser behind it (a function compiled lazily, or again once its bytecode was
 * flushed), and the zones they allocate in.
 */
const COMPILER =
  /v8::internal::(compiler|maglev|turboshaft|interpreter)::|v8::internal::(Compiler|OptimizedCompilationJob|Pipeline|Zone|Parser|AstNode|Scope|BytecodeGenerator)\b/;

/**
 * The totals of `callgrind_annotate --threshold=100` output: every instruction of the run, and those in the
 * compiler's functions. Numbers are printed with thousands separators (`320,265,534 (100.0%)  PROGRAM TOTALS`).
 */
export function readAnnotation(text: string): { total: number; compiler: number; collector: number } {
  const count = (line: string) => Number((/^\s*([\d,]+)/.exec(line)?.[1] ?? '0').replaceAll(',', ''));
  let total = 0;
  let compiler = 0;
  let collector = 0;
  let inFunctions = false;
  for (const line of text.split('\n')) {
    if (line.includes('PROGRAM TOTALS')) total = count(line);
    else if (/^\s*Ir\s+file:function/.test(line)) inFunctions = true;
    else if (!inFunctions) continue;
    else {
      // The function's name alone (`???:v8::internal::Zone::Expand(unsigned long) [/usr/bin/node]`), its parameter
      // types left out: `RegExpImpl::Compile(…, v8::internal::Zone*)` is no compiler's.
      const name = /\?\?\?:([^(]*)/.exec(line)?.[1] ?? '';
      if (name.startsWith('Builtins_') || name.startsWith('JS:')) continue;
      if (COMPILER.test(name)) compiler += count(line);
      else if (COLLECTOR.test(name)) collector += count(line);
    }
  }
  if (!(total > 0)) throw new Error('callgrind_annotate printed no PROGRAM TOTALS');
  return { total, compiler, collector };
}

/** Find valgrind via scripts/ensure-valgrind.sh (which installs Debian's package where it may), or say why not. */
export function findValgrind(root: string): { bin: string } | { reason: string } {
  try {
    const bin = execFileSync(join(root, 'scripts', 'ensure-valgrind.sh'), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
    return bin ? { bin } : { reason: 'ensure-valgrind.sh printed no path' };
  } catch (error) {
    return { reason: String((error as { stderr?: string }).stderr || (error as Error).message).trim() };
  }
}

/**
 * Counts the instructions of `requests` requests of `workload` through `checkout`'s mock, after its warm-up
 * (`in-process.ts --window`, run by this checkout's script at `root`).
 */
export async function countInstructions(options: {
  root: string;
  checkout: string;
  workload: 'get' | 'post';
  requests: number;
  valgrind: string;
}): Promise<InstructionCount> {
  const { root, checkout, workload, requests, valgrind } = options;
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
  const bin = (name: string) => join(valgrind, '..', name);
  let running: ReturnType<typeof spawn> | undefined;
  try {
    const script = join(root, 'scripts', 'lib', 'bench', 'in-process.ts');
    const child = spawn(
      valgrind,
      [
        '--tool=callgrind',
        '--instr-atstart=no',
        '--separate-threads=yes',
        // V8 writes the code it runs: every write outside a mapped file is checked.
        '--smc-check=all-non-file',
        `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
        process.execPath,
        '--single-threaded',
        '--require',
        'tsx/cjs',
        script,
        checkout,
        workload,
        String(requests),
        '--window',
      ],
      { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    running = child;
    // A run that cannot start, or that closes its stdin early, is an error of this count, not of the process.
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    /** Resolves once the run has said `word` on a line of its own; rejects if it ends first. */
    const said = (word: string) =>
      new Promise<void>((resolve, reject) => {
        const look = () => {
          if (!out.split('\n').includes(word)) return;
          child.stdout.off('data', look);
          child.off('close', ended);
          resolve();
        };
        const ended = (code: number | null) => reject(new Error(`in-process run ended (exit ${code}): ${out}${err}`));
        child.stdout.on('data', look);
        child.once('close', ended);
        look();
      });
    const control = (state: 'on' | 'off') =>
      execFileSync(bin('callgrind_control'), ['--instr', state, String(child.pid)], { stdio: 'ignore' });
    await said('ready');
    control('on');
    child.stdin.write('go\n');
    await said('done');
    control('off');
    child.stdin.end('\n');
    // 'close', not 'exit': the result is the run's last line, which may still be on its way when it exits.
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { non2xx?: number };
    if (code !== 0 || result.non2xx !== 0) throw new Error(`in-process run failed (exit ${code}): ${out}${err}`);
    // The main thread's counts (with --single-threaded, every thread that works is that one).
    const main = readdirSync(dir).find((name) => name.endsWith('-01')) ?? 'callgrind.out';
    const annotation = execFileSync(bin('callgrind_annotate'), ['--threshold=100', '--auto=no', join(dir, main)], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const { total, compiler, collector } = readAnnotation(annotation);
    return {
      perRequest: (total - compiler - collector) / requests,
      compilerPerRequest: compiler / requests,
      collectorPerRequest: collector / requests,
    };
  } finally {
    // A count that failed midway (callgrind_control refused, say) leaves no run waiting on its stdin.
    if (running && running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
