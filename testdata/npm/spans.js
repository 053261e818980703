#!/usr/bin/env node
// spans.js parses JavaScript files with acorn and prints, for each file, one
// JSON line: {"file", "goal", "nodes": [[type, start, end], ...]} where start
// and end are UTF-8 byte offsets (acorn reports UTF-16 offsets). It is the
// independent reference for instrument/js's span test.
//
// usage: node spans.js [--goal script|module|commonjs|auto] FILE...
// With --goal auto (the default) a file is tried as a script, then as
// CommonJS (return allowed at top level), then as a module; a file no goal
// accepts gets {"file", "error"}.
'use strict';
const acorn = require('acorn');
const fs = require('fs');
const { byteOffsets } = require('./offsets.js');

// Nodes without a span of their own in instrument/js's AST.
const skip = new Set(['ClassBody', 'TemplateElement', 'ParenthesizedExpression']);

function options(goal) {
  return {
    ecmaVersion: 'latest',
    sourceType: goal === 'module' ? 'module' : 'script',
    allowHashBang: true,
    allowReturnOutsideFunction: goal === 'commonjs',
    allowAwaitOutsideFunction: false,
  };
}

function collect(ast, map) {
  const out = [];
  const seen = new Set();
  (function visit(n) {
    if (n === null || typeof n !== 'object' || seen.has(n)) return;
    seen.add(n);
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    if (typeof n.type === 'string' && !skip.has(n.type)) {
      out.push([n.type, map[n.start], map[n.end]]);
    }
    for (const k of Object.keys(n)) {
      if (k === 'loc' || k === 'type') continue;
      if (k === 'key' && n.type === 'Property' && n.shorthand) continue;
      const v = n[k];
      if (v !== null && typeof v === 'object' && !(v instanceof RegExp)) visit(v);
    }
  })(ast);
  return out;
}

let goal = 'auto';
const args = process.argv.slice(2);
if (args[0] === '--goal') {
  goal = args[1];
  args.splice(0, 2);
}
for (const file of args) {
  const src = fs.readFileSync(file, 'utf8');
  const goals = goal === 'auto' ? ['script', 'commonjs', 'module'] : [goal];
  let ast = null;
  let used = null;
  let firstErr = null;
  for (const g of goals) {
    try {
      ast = acorn.parse(src, options(g));
      used = g;
      break;
    } catch (e) {
      if (!firstErr) firstErr = e;
    }
  }
  if (!ast) {
    process.stdout.write(JSON.stringify({ file, error: String(firstErr) }) + '\n');
    continue;
  }
  const nodes = collect(ast, byteOffsets(src));
  process.stdout.write(JSON.stringify({ file, goal: used, nodes }) + '\n');
}
