/** The hostile-query corpus, shared by the engine test and the HTTP test against the running mock. */
import { foreignMarker, workspaceA, workspaceB } from './test-tables';

/**
 * Hostile queries against POST /orchestration/query (x-rules: workspace-scoping, error-shape). Each case runs as
 * workspace A over data of A and B. Expectation: `rows` (answered, must hold nothing of B), a refusal reason (400 with
 * that reason), or `answered` (either, the engine's choice). Whatever the case, nothing is written, nothing of B
 * leaks, and the answer arrives.
 */
/**
 * What a query must meet: rows, any answer, or a refusal with its reason. `orUnderLoad` is the other reason a query
 * racing the time budget meets on a busy machine (a gigabyte built before the budget ends, or not).
 */
export type Expectation = 'rows' | 'answered' | { refused: string; orUnderLoad?: string };
const refused = (reason: string): Expectation => ({ refused: reason });
const notReadOnly = refused('query_not_read_only');
const stacked = refused('query_multiple_statements');
const invalid = refused('invalid_query');
const timeout = refused('query_timeout');
const tooLarge = refused('query_result_too_large');

const B = `'${workspaceB}'`;
export const runaway = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)';

export const hostileQueries: [name: string, sql: string, expectation: Expectation][] = [
  // writes and schema changes
  ['insert', "INSERT INTO runs (uuid, workspaceUuid) VALUES ('x', 'y')", notReadOnly],
  ['insert returning', "INSERT INTO runs (uuid) VALUES ('x') RETURNING *", notReadOnly],
  ['update', "UPDATE runs SET status = 'error'", notReadOnly],
  ['update returning', "UPDATE runs SET workspaceUuid = 'x' RETURNING *", notReadOnly],
  ['delete', 'DELETE FROM runs', notReadOnly],
  ['with … delete', 'WITH x AS (SELECT 1) DELETE FROM runs', notReadOnly],
  ['with … insert … select', 'WITH x AS (SELECT * FROM runs) INSERT INTO logs SELECT * FROM x', invalid],
  ['replace', "REPLACE INTO records (id) VALUES ('x')", notReadOnly],
  ['drop table', 'DROP TABLE runs', notReadOnly],
  ['create table as select', 'CREATE TABLE copy AS SELECT * FROM runs', notReadOnly],
  ['create temp table', 'CREATE TEMP TABLE t (x)', notReadOnly],
  ['create view', 'CREATE VIEW v AS SELECT * FROM runs', notReadOnly],
  ['create trigger', 'CREATE TRIGGER t AFTER INSERT ON runs BEGIN DELETE FROM logs; END', notReadOnly],
  ['alter table', 'ALTER TABLE runs ADD COLUMN pwned TEXT', notReadOnly],
  ['create index', 'CREATE INDEX i ON runs (uuid)', notReadOnly],
  ['reindex', 'REINDEX', notReadOnly],
  ['analyze', 'ANALYZE', notReadOnly],
  ['vacuum', 'VACUUM', notReadOnly],
  ['vacuum into a file', "VACUUM INTO '/tmp/pwned.db'", notReadOnly],
  ['begin', 'BEGIN', notReadOnly],
  ['savepoint', 'SAVEPOINT s', notReadOnly],
  ['explain a delete', 'EXPLAIN DELETE FROM runs', notReadOnly],
  ['explain query plan', 'EXPLAIN QUERY PLAN SELECT * FROM runs', notReadOnly],
  // stacked statements
  ['select then drop', 'SELECT 1; DROP TABLE runs', stacked],
  ['select then delete, trailing semicolon', 'SELECT 1;DELETE FROM runs;', stacked],
  ['semicolon inside a string then delete', "SELECT ';' AS s; DELETE FROM runs", stacked],
  ['empty statements between', 'SELECT 1; ; ;; DELETE FROM runs', stacked],
  ['stacked after a line comment', 'SELECT 1 -- note\n; DELETE FROM runs', stacked],
  ['two selects', 'SELECT 1; SELECT 2', stacked],
  ['select then garbage', 'SELECT 1; this is not sql', stacked],
  ['leading empty statement then delete', '; DELETE FROM runs', notReadOnly],
  // ATTACH, DETACH, PRAGMA
  ['attach memory', "ATTACH DATABASE ':memory:' AS x", notReadOnly],
  ['attach a file', "ATTACH '/etc/passwd' AS p", notReadOnly],
  ['select then attach', "SELECT 1; ATTACH 'file:x?mode=memory' AS y", stacked],
  ['detach', 'DETACH DATABASE main', notReadOnly],
  ['pragma query_only off', 'PRAGMA query_only = 0', notReadOnly],
  ['pragma writable_schema', 'PRAGMA writable_schema = ON', notReadOnly],
  ['pragma table_info', 'PRAGMA table_info(runs)', notReadOnly],
  ['pragma function: database list', 'SELECT * FROM pragma_database_list', 'rows'],
  ['pragma function: compile options', 'SELECT * FROM pragma_compile_options', 'rows'],
  // system catalogs
  ['sqlite_master', 'SELECT * FROM sqlite_master', 'rows'],
  ['sqlite_schema', 'SELECT name, sql FROM sqlite_schema', 'rows'],
  ['sqlite_temp_master', 'SELECT * FROM sqlite_temp_master', 'rows'],
  ['temp schema table', 'SELECT * FROM temp.runs', invalid],
  ['information_schema', 'SELECT * FROM information_schema.tables', invalid],
  ['pg_catalog', 'SELECT * FROM pg_catalog.pg_tables', invalid],
  ['sqlite_dbpage', 'SELECT * FROM sqlite_dbpage', invalid],
  ['dbstat', 'SELECT * FROM dbstat', invalid],
  // file and extension functions
  ['load_extension', "SELECT load_extension('/tmp/x.so')", invalid],
  ['readfile', "SELECT readfile('/etc/passwd')", invalid],
  ['writefile', "SELECT writefile('/tmp/pwned', 'x')", invalid],
  ['fsdir', "SELECT * FROM fsdir('/')", invalid],
  ['edit', "SELECT edit('x', 'vi')", invalid],
  ['pg_read_file', "SELECT pg_read_file('/etc/passwd')", invalid],
  ['copy to file', "COPY runs TO '/tmp/pwned'", invalid],
  ['into outfile', "SELECT * FROM runs INTO OUTFILE '/tmp/pwned'", invalid],
  // other workspaces in WHERE clauses
  ['other workspace by id', `SELECT * FROM runs WHERE workspaceUuid = ${B}`, 'rows'],
  ['or 1=1', `SELECT * FROM runs WHERE workspaceUuid = ${B} OR 1 = 1`, 'rows'],
  ['not the own workspace', `SELECT * FROM logs WHERE workspaceUuid <> '${workspaceA}'`, 'rows'],
  [
    'union over every table',
    `SELECT uuid FROM runs WHERE workspaceUuid = ${B} UNION SELECT uuid FROM logs UNION SELECT id FROM records UNION SELECT uuid FROM spans UNION SELECT uuid FROM batches`,
    'rows',
  ],
  ['schema-qualified table', `SELECT * FROM main.runs WHERE workspaceUuid = ${B}`, 'rows'],
  ['like on the marker', `SELECT * FROM records WHERE title LIKE '%${foreignMarker}%'`, 'rows'],
  ['quoted identifiers', `SELECT "workspaceUuid", [uuid], \`status\` FROM "runs" WHERE "workspaceUuid" = ${B}`, 'rows'],
  ['json_each over nothing foreign', 'SELECT * FROM runs, json_each(\'["x"]\')', 'rows'],
  ['correlated subquery', `SELECT (SELECT count(*) FROM runs WHERE workspaceUuid = ${B}) AS n`, 'rows'],
  // comment tricks
  ['block comment before delete', '/* harmless */ DELETE FROM runs', notReadOnly],
  ['delete hidden in a block comment', 'SELECT 1 AS one /* ; DELETE FROM runs */', 'rows'],
  ['delete hidden in a line comment', 'SELECT 1 AS one -- ; DELETE FROM runs', 'rows'],
  ['versioned comment', '/*!50000 DROP TABLE runs*/ SELECT 1 AS one', 'rows'],
  ['unterminated block comment', 'SELECT 1 /*', invalid],
  ['unterminated comment after delete', 'DELETE FROM runs /*', invalid],
  ['stray comment end', 'SELECT 1 */ DELETE FROM runs', invalid],
  ['line comment then delete', '-- SELECT\nDELETE FROM runs', notReadOnly],
  ['closing the wrapper', 'SELECT 1) ; DELETE FROM runs; SELECT (1', invalid],
  ['closing the wrapper with a comment', 'SELECT 1 AS one) WHERE 1 = 1 --', invalid],
  // unicode tricks
  ['fullwidth semicolon', 'SELECT 1；DELETE FROM runs', invalid],
  ['fullwidth keyword', 'ＤＥＬＥＴＥ FROM runs', invalid],
  ['zero-width space inside a keyword', 'DEL\u200bETE FROM runs', invalid],
  ['cyrillic letter in select', 'SEL\u0415CT * FROM runs', invalid],
  ['right-to-left override', 'SELECT 1 AS one \u202e; DELETE FROM runs', invalid],
  ['NUL byte before a second statement', 'SELECT 1 AS one\u0000; DELETE FROM runs', invalid],
  ['lone surrogate', "SELECT '\ud800' AS s", 'rows'],
  ['homoglyph table name', 'SELECT * FROM runs\u0455', invalid],
  // runaway and oversized work
  ['infinite recursive cte', `${runaway} SELECT count(*) FROM c`, timeout],
  ['recursive cte returning rows', `${runaway} SELECT x FROM c`, tooLarge],
  ['recursive cte behind a limit', `${runaway} SELECT x FROM c LIMIT 3`, 'rows'],
  ['recursive cte ordered', `${runaway} SELECT x FROM c ORDER BY x DESC LIMIT 1`, timeout],
  [
    'huge cross join counted',
    'SELECT count(*) FROM runs a, runs b, runs c, runs d, runs e, runs f, runs g, runs h, runs i, runs j, runs k, runs l, runs m',
    timeout,
  ],
  ['huge cross join returned', 'SELECT * FROM runs a, runs b, runs c, runs d, runs e', tooLarge],
  [
    'cross join of recursive ctes',
    `${runaway}, d(y) AS (SELECT 1 UNION ALL SELECT y + 1 FROM d) SELECT max(x * y) FROM c, d`,
    timeout,
  ],
  [
    'exponential string',
    "WITH RECURSIVE r(i, s) AS (SELECT 1, 'x' UNION ALL SELECT i + 1, s || s FROM r WHERE i < 64) SELECT max(length(s)) FROM r",
    'answered',
  ],
  ['one huge string', "SELECT printf('%.*c', 200000000, 'x') AS s", 'answered'],
  ['one huge blob', 'SELECT zeroblob(10000000) AS b', tooLarge],
  ['hex of a huge blob', 'SELECT hex(zeroblob(400000000)) AS h', tooLarge],
  [
    'group_concat of a gigabyte',
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2000000) SELECT length(group_concat(printf('%0500d', x))) AS n FROM c",
    { refused: 'query_result_too_large', orUnderLoad: 'query_timeout' },
  ],
  ['randomblob over the limit', 'SELECT randomblob(2000000000)', tooLarge],
  ['deep nesting', `SELECT ${'('.repeat(3000)}1${')'.repeat(3000)}`, invalid],
  ['maximum length', `SELECT 1 AS one ${'-'.repeat(10000 - 16)}`, 'rows'],
  ['over the length limit', `SELECT 1 AS one ${'-'.repeat(10000 - 15)}`, refused('query_too_long')],
  [
    'like with a pathological pattern',
    `${runaway} SELECT count(*) FROM c WHERE printf('%.*c', 500, 'a') || x LIKE '%a%a%a%a%a%a%a%b'`,
    timeout,
  ],
];
