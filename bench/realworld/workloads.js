// Real-world workloads for the bench's "realworld" group: widely used npm
// packages (pinned in testdata/npm) doing what programs use them for, on
// inputs found in that same node_modules tree, so that nothing here is
// generated to suit the tool.
//
//   node workloads.js NAME SCALE RESULT
//
// runs workload NAME at SCALE (1 takes about half a second of plain Node
// here; a fraction runs fewer repetitions, at least one) and writes a
// digest of everything it computed to the file RESULT; the bench runs each
// workload with plain node and under memtrace node and requires the same
// digest. MT_NPM names the node_modules directory.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { createRequire } = require('module');

const [name, scaleArg, resultPath] = process.argv.slice(2);
const scale = Number(scaleArg);
if (!name || !(scale > 0) || !resultPath || !process.env.MT_NPM) {
  console.error('usage: MT_NPM=node_modules node workloads.js NAME SCALE RESULT');
  process.exit(2);
}
const npm = process.env.MT_NPM;
// reps is a workload's repetitions at SCALE (at least one).
function reps(n) {
  return Math.max(1, Math.round(n * scale));
}
const need = createRequire(path.join(npm, 'noop.js'));
const digest = crypto.createHash('sha256');
function out(v) {
  digest.update(typeof v === 'string' ? v : JSON.stringify(v));
  digest.update('\n');
}

// The inputs: the packages' own files, in a fixed order.
function packages() {
  const names = [];
  for (const d of fs.readdirSync(npm).sort()) {
    if (d.startsWith('.')) continue;
    if (d.startsWith('@')) {
      for (const s of fs.readdirSync(path.join(npm, d)).sort()) names.push(d + '/' + s);
    } else {
      names.push(d);
    }
  }
  return names;
}
function manifests() {
  const list = [];
  for (const p of packages()) {
    const f = path.join(npm, p, 'package.json');
    if (fs.existsSync(f)) list.push(JSON.parse(fs.readFileSync(f, 'utf8')));
  }
  return list;
}
function readmes(limit) {
  let md = '';
  for (const p of packages()) {
    const f = path.join(npm, p, 'README.md');
    if (md.length < limit && fs.existsSync(f)) md += fs.readFileSync(f, 'utf8') + '\n\n';
  }
  return md;
}

// count walks an ESTree: the number of nodes and the sum of their ends.
function count(node, acc) {
  if (Array.isArray(node)) {
    for (const n of node) if (n && typeof n === 'object') count(n, acc);
    return acc;
  }
  if (typeof node.type === 'string') {
    acc.nodes++;
    acc.ends += node.end;
  }
  for (const k in node) {
    if (k === 'loc') continue;
    const v = node[k];
    if (v && typeof v === 'object') count(v, acc);
  }
  return acc;
}

const workloads = {
  // A parser over a large library: lodash.js, 540 KB.
  acorn() {
    const acorn = need('acorn');
    const src = fs.readFileSync(need.resolve('lodash/lodash.js'), 'utf8');
    for (let r = 0; r < reps(4); r++) {
      const ast = acorn.parse(src, { ecmaVersion: 'latest', locations: true });
      out(count(ast, { nodes: 0, ends: 0 }));
    }
  },
  // Markdown to HTML: the packages' READMEs.
  marked() {
    const { marked } = need('marked');
    const md = readmes(400000);
    for (let r = 0; r < reps(4); r++) out(marked.parse(md));
  },
  // YAML out and back in: every package.json of the tree.
  yaml() {
    const yaml = need('js-yaml');
    const data = manifests();
    for (let r = 0; r < reps(4); r++) {
      const text = yaml.dump(data, { sortKeys: true, lineWidth: 100 });
      const back = yaml.load(text);
      out(text.length);
      out(back.length);
    }
  },
  // Templates compiled at run time, rendered over the manifests.
  handlebars() {
    const Handlebars = need('handlebars');
    const h = Handlebars.create();
    h.registerHelper('upper', (s) => String(s).toUpperCase());
    const tpl = h.compile('<ul>{{#each items}}<li class="{{#if private}}p{{else}}o{{/if}}">' +
      '{{upper name}} {{version}}{{#if description}}: {{description}}{{/if}}' +
      '{{#each keywords}} <i>{{this}}</i>{{/each}}</li>{{/each}}</ul>');
    const items = manifests();
    for (let r = 0; r < reps(300); r++) out(tpl({ items }));
  },
  // An HTML document parsed, queried and written out again.
  cheerio() {
    const cheerio = need('cheerio');
    const { marked } = need('marked');
    const html = '<html><body>' + marked.parse(readmes(150000)) + '</body></html>';
    for (let r = 0; r < reps(3); r++) {
      const $ = cheerio.load(html);
      const heads = [];
      $('h1, h2, h3').each((i, el) => { heads.push($(el).text()); });
      out(heads);
      out($('a[href]').map((i, el) => $(el).attr('href')).get().length);
      $('code').addClass('c');
      out($.html().length);
    }
  },
  // JSON Schema validation with validators compiled by new Function.
  ajv() {
    const Ajv = need('ajv');
    const ajv = new Ajv({ allErrors: true });
    const validate = ajv.compile({
      type: 'object',
      required: ['name', 'version'],
      properties: {
        name: { type: 'string', pattern: '^(@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*$' },
        version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+' },
        description: { type: 'string', maxLength: 140 },
        keywords: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        license: { type: 'string' },
        dependencies: { type: 'object', additionalProperties: { type: 'string' } },
        engines: { type: 'object', properties: { node: { type: 'string' } } },
      },
    });
    const data = manifests();
    for (let r = 0; r < reps(500); r++) {
      let bad = 0;
      for (const d of data) if (!validate(d)) bad += validate.errors.length;
      out(bad);
    }
  },
  // Schema parsing with a class-based validator library.
  zod() {
    const { z } = need('zod');
    const schema = z.object({
      name: z.string().min(1),
      version: z.string().regex(/^\d+\.\d+\.\d+/),
      description: z.string().max(140).optional(),
      keywords: z.array(z.string()).optional(),
      license: z.union([z.string(), z.object({ type: z.string() })]).optional(),
      dependencies: z.record(z.string()).optional(),
    }).passthrough();
    const data = manifests();
    for (let r = 0; r < reps(120); r++) {
      let ok = 0;
      for (const d of data) if (schema.safeParse(d).success) ok++;
      out(ok);
    }
  },
  // Persistent collections: an index of the manifests, updated and read.
  immutable() {
    const { Map, List } = need('immutable');
    const data = manifests();
    for (let r = 0; r < reps(16); r++) {
      let m = Map();
      for (let k = 0; k < 30; k++) {
        for (const d of data) {
          m = m.update(d.name, List(), (l) => l.push(k + ':' + d.version));
        }
      }
      let n = 0;
      for (const [, l] of m) n += l.size;
      out([m.size, n, m.get('acorn').last()]);
    }
  },
  // A type checker over a real code base: rxjs's declaration files (234
  // with the ES2020 library, through its index), checked again as a watch
  // mode does, the parsed files reused.
  typescript() {
    const ts = need('typescript');
    const entry = path.join(path.dirname(need.resolve('rxjs/package.json')), 'dist', 'types', 'index.d.ts');
    const options = { strict: true, target: ts.ScriptTarget.ES2020, lib: ['lib.es2020.d.ts'], types: [], noEmit: true };
    let program;
    for (let r = 0; r < reps(3); r++) {
      program = ts.createProgram([entry], options, undefined, program);
      const diags = ts.getPreEmitDiagnostics(program);
      out([program.getSourceFiles().length, program.getTypeCount(), program.getSymbolCount(), diags.length]);
      for (const d of diags) out(ts.flattenDiagnosticMessageText(d.messageText, ' '));
    }
  },
  // A compiler's passes: ws's modules compiled down for an old browser.
  babel() {
    const babel = need('@babel/core');
    const dir = path.dirname(need.resolve('ws/package.json'));
    const files = fs.readdirSync(path.join(dir, 'lib')).sort().map((f) => path.join(dir, 'lib', f));
    const opts = { presets: [[need.resolve('@babel/preset-env'), { targets: 'ie 11' }]], configFile: false, babelrc: false };
    for (let r = 0; r < reps(3); r++) {
      for (const f of files) out(babel.transformSync(fs.readFileSync(f, 'utf8'), { ...opts, filename: f }).code);
    }
  },
  // A formatter: ws's modules reprinted (prettier's API is asynchronous).
  async prettier() {
    const prettier = need('prettier');
    const dir = path.dirname(need.resolve('ws/package.json'));
    const files = fs.readdirSync(path.join(dir, 'lib')).sort().map((f) => path.join(dir, 'lib', f));
    for (let r = 0; r < reps(4); r++) {
      for (const f of files) out(await prettier.format(fs.readFileSync(f, 'utf8'), { parser: 'babel', printWidth: 60 }));
    }
  },
  // A minifier: marked's CommonJS build (90 KB) compressed in two passes and
  // mangled, with a source map.
  async terser() {
    const terser = need('terser');
    const src = fs.readFileSync(need.resolve('marked'), 'utf8');
    for (let r = 0; r < reps(3); r++) {
      const min = await terser.minify({ 'marked.cjs': src }, { compress: { passes: 2 }, mangle: true, sourceMap: true });
      out(min.code);
      out(min.map);
    }
  },
};

const w = workloads[name];
if (w === undefined) {
  console.error('unknown workload ' + name + '; one of ' + Object.keys(workloads).join(', '));
  process.exit(2);
}
Promise.resolve(w()).then(() => fs.writeFileSync(resultPath, digest.digest('hex') + '\n'));
