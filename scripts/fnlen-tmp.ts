import ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
const walk = (d: string): string[] => readdirSync(d).flatMap((n) => { const p = join(d, n); return statSync(p).isDirectory() ? (n === 'node_modules' || n === 'generated' ? [] : walk(p)) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : []; });
let bangs = 0;
for (const root of process.argv.slice(2)) for (const file of (statSync(root).isDirectory() ? walk(root) : [root])) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node) => {
    if (ts.isNonNullExpression(n)) { bangs++; console.log(`! ${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`); }
    if (ts.isFunctionLike(n) && (n as any).body) {
      const a = sf.getLineAndCharacterOfPosition(n.getStart()).line, b = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (b - a + 1 > 150) console.log(`${file}:${a + 1} ${b - a + 1} lines`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
console.log('non-null assertions:', bangs);
