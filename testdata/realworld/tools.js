// Compilers and formatters: large code bases (typescript alone is 9 MB of
// JavaScript) run on inputs of the packages' own. Each step prints a digest
// of its output, so any difference in behaviour shows.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const digest = (s) => crypto.createHash('sha256').update(s).digest('hex').slice(0, 16);
const source = (mod, file) => fs.readFileSync(path.join(path.dirname(require.resolve(mod + '/package.json')), file), 'utf8');

async function main() {
  const input = source('ws', 'lib/receiver.js');

  // prettier 3: its CommonJS entry loads the ES module core with import().
  const prettier = require('prettier');
  const pretty = await prettier.format(input, { parser: 'babel', semi: false, singleQuote: true, printWidth: 60 });
  console.log('prettier', pretty.length, digest(pretty));
  const ts1 = await prettier.format('type A<T> = { [K in keyof T]?: T[K] extends string ? K : never }; const f = async <T,>(x: T) => x', { parser: 'typescript' });
  console.log('prettier typescript', JSON.stringify(ts1));
  const css = await prettier.format('a{color:red;b{margin:0}}@media (max-width:10px){c{d:e}}', { parser: 'css' });
  console.log('prettier css', JSON.stringify(css));
  const bad = await prettier.format('let = ;', { parser: 'babel' }).catch((e) => e.message.split('\n')[0]);
  console.log('prettier error', bad);

  // terser: scope analysis, compression in passes, mangling, a source map.
  const terser = require('terser');
  const min = await terser.minify({ 'receiver.js': input }, { compress: { passes: 2 }, mangle: { toplevel: true }, sourceMap: true });
  console.log('terser', min.code.length, digest(min.code), digest(min.map));
  const rtl = await terser.minify('function f(){return 1+}').catch((e) => `${e.name}: ${e.message} ${e.line}:${e.col}`);
  console.log('terser error', rtl);

  // babel: the parser, traversal with visitors, preset-env's plugins.
  const babel = require('@babel/core');
  const es5 = babel.transformSync(input, { presets: [['@babel/preset-env', { targets: 'ie 11' }]], configFile: false, babelrc: false, filename: 'receiver.js' });
  console.log('babel preset-env', es5.code.length, digest(es5.code));
  const modern = 'class A { #x = 1; static s = 2; get x() { return this.#x } *g() { yield* [1, 2] } async m() { for await (const v of this.g()) ; return a?.b ?? c } }';
  const down = babel.transformSync(modern, { presets: [['@babel/preset-env', { targets: 'chrome 49' }]], configFile: false, babelrc: false, filename: 'm.js' });
  console.log('babel modern', down.code.length, digest(down.code));
  const ast = babel.parseSync(input, { configFile: false, babelrc: false, filename: 'receiver.js' });
  const counts = {};
  babel.traverse(ast, { enter(p) { counts[p.type] = (counts[p.type] || 0) + 1; } });
  console.log('babel traverse', JSON.stringify(Object.entries(counts).sort((a, b) => b[1] - a[1]).slice(0, 8)));

  // typescript: transpiling, then a whole program checked from an in-memory host.
  const ts = require('typescript');
  const out = ts.transpileModule('enum E { A = 1, B } namespace N { export const x = E.B } class C<T> { constructor(private x: T) {} get y(): T { return this.x } } export default new C(N.x)', { compilerOptions: { target: ts.ScriptTarget.ES5, module: ts.ModuleKind.CommonJS } });
  console.log('typescript transpile', out.outputText.length, digest(out.outputText));
  const files = {
    '/a.ts': 'import { B, make } from "./b";\nexport const n: number = make("x").size;\nconst s: string = n;\nexport function f(b: B): string { return b.name.toUpperCase(); }\n',
    '/b.ts': 'export interface B { name: string; size: number }\nexport function make(name: string): B { return { name, size: name.length }; }\nexport type Pick2<T, K extends keyof T> = { [P in K]: T[P] };\nconst p: Pick2<B, "name"> = { name: 1 };\n',
  };
  const options = { strict: true, target: ts.ScriptTarget.ES2020, noEmitOnError: false, lib: ['lib.es2020.d.ts'] };
  const libDir = path.dirname(require.resolve('typescript'));
  const host = ts.createCompilerHost(options);
  const emitted = {};
  host.fileExists = (f) => f in files || fs.existsSync(f);
  host.readFile = (f) => files[f] ?? (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined);
  host.getSourceFile = (f, lang) => { const t = host.readFile(f); return t === undefined ? undefined : ts.createSourceFile(f, t, lang); };
  host.getDefaultLibLocation = () => libDir;
  host.getDefaultLibFileName = () => path.join(libDir, 'lib.es2020.d.ts');
  host.writeFile = (f, text) => { emitted[f] = text; };
  host.getCurrentDirectory = () => '/';
  const program = ts.createProgram(['/a.ts'], options, host);
  const diags = ts.getPreEmitDiagnostics(program).filter((d) => d.file && d.file.fileName in files);
  for (const d of diags) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    console.log('typescript diagnostic', `${d.file.fileName}:${line + 1}:${character + 1}`, ts.flattenDiagnosticMessageText(d.messageText, ' '));
  }
  program.emit();
  for (const f of Object.keys(emitted).sort()) console.log('typescript emit', f, digest(emitted[f]));
}

main().catch((e) => { console.log('failed', e && e.stack); process.exitCode = 3; });
