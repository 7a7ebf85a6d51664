/**
 * Where the core reports what no response can carry (an unexpected failure, a write it could not take back):
 * the process's standard error on Node, the console in a browser.
 */
type Writable = { write(text: string): unknown };

export function reportProblem(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: Writable } }).process?.stderr;
  if (stderr) stderr.write(`${line}\n`);
  else console.error(line);
}
