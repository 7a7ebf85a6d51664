import { readFileSync } from 'node:fs';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

type SqlWithMemory = { SQL: SqlJsStatic; memory?: WebAssembly.Memory };
let started: Promise<SqlWithMemory> | undefined;

/**
 * sql.js with SQLite's WASM memory, which sql.js does not expose: the module is instantiated here (Emscripten's
 * `instantiateWasm` hook) so its exported memory can be read. It grows and never shrinks. One module per thread,
 * as sql.js keeps (a second `initSqlJs` answers the first module).
 */
export function initSqlWithMemory(): Promise<SqlWithMemory> {
  started ??= (async () => {
    let memory: WebAssembly.Memory | undefined;
    const instantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => {
      void WebAssembly.instantiate(readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm')), imports).then(
        ({ instance }) => {
          memory = Object.values(instance.exports).find((e) => e instanceof WebAssembly.Memory);
          done(instance);
        },
      );
      return {};
    };
    const SQL = await initSqlJs({ instantiateWasm });
    return { SQL, memory };
  })();
  return started;
}
