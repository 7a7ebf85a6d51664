import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readAnnotation } from './instructions';

const ROOT = join(__dirname, '..', '..', '..');

describe('readAnnotation', () => {
  it('should read the program total and the compilers’ and the collector’s shares from callgrind_annotate output', () => {
    const text = [
      'Events recorded:  Ir',
      '--------------------------------------------------------------------------------',
      '320,265,534 (100.0%)  PROGRAM TOTALS',
      '',
      '--------------------------------------------------------------------------------',
      'Ir                   file:function',
      '--------------------------------------------------------------------------------',
      '24,570,000 ( 7.67%)  ???:v8::String::Utf8Length(v8::Isolate*) const [/usr/bin/node]',
      ' 8,101,099 ( 2.53%)  ???:v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]',
      ' 2,000,000 ( 0.62%)  ???:v8::internal::maglev::MaglevGraphBuilder::Build() [/usr/bin/node]',
      ' 1,000,000 ( 0.31%)  ???:v8::internal::Zone::Expand(unsigned long) [/usr/bin/node]',
      '   900,000 ( 0.28%)  ???:Builtins_LoadIC [/usr/bin/node]',
      '   700,000 ( 0.22%)  ???:v8::internal::Scavenger::ScavengePage(v8::internal::MemoryChunk*) [/usr/bin/node]',
      '   300,000 ( 0.09%)  ???:v8::internal::Sweeper::RawSweep(v8::internal::Page*) [/usr/bin/node]',
      '   100,000 ( 0.03%)  ???:Builtins_RecordWriteSaveFP [/usr/bin/node]',
      '    50,000 ( 0.02%)  ???:v8::internal::RegExpImpl::Compile(v8::internal::Isolate*, v8::internal::Zone*) [/usr/bin/node]',
      '    40,000 ( 0.01%)  ???:v8::internal::ScopeInfo::ContextSlotIndex(v8::internal::String) [/usr/bin/node]',
    ].join('\n');
    expect(readAnnotation(text)).toEqual({ total: 320_265_534, compiler: 11_101_099, collector: 1_000_000 });
  });

  it('should refuse output without a program total (a run that counted nothing)', () => {
    expect(() => readAnnotation('Events recorded:  Ir\n')).toThrow(/PROGRAM TOTALS/);
  });
});

describe('in-process.ts --window', () => {
  it('should say ready before its measured requests and done after them, each time waiting for a line', async () => {
    const child = spawn(
      process.execPath,
      ['--require', 'tsx/cjs', join(ROOT, 'scripts', 'lib', 'bench', 'in-process.ts'), ROOT, 'post', '40', '--window'],
      { cwd: ROOT, env: { ...process.env, BENCH_WARM_UP: '40' }, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    const lines = () => out.trim().split('\n');
    const until = (word: string) =>
      new Promise<void>((resolve) => {
        const look = () => lines().includes(word) && (child.stdout.off('data', look), resolve());
        child.stdout.on('data', look);
      });
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await until('ready');
    // Nothing more is said while it waits for its line.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines()).toEqual(['ready']);
    child.stdin.write('go\n');
    await until('done');
    child.stdin.end('\n');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(lines().slice(0, 2)).toEqual(['ready', 'done']);
    expect(JSON.parse(lines()[2])).toMatchObject({ non2xx: 0, cpuUs: expect.any(Number) });
  }, 60_000);
});
