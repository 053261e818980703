#!/usr/bin/env node
// freevars.js is the independent reference for instrument/scope: it parses
// JavaScript files with acorn, analyses them with eslint-scope, and prints
// for each file one JSON line {"file", "goal", "funcs": [[start, end,
// [names]], ...]} where start and end are the UTF-8 byte offsets of a
// function (declaration, expression or arrow) and names are the variables
// the function, or a function nested in it, reads or writes from an
// enclosing function, module or CommonJS scope (not globals).
//
// usage: node freevars.js FILE...   (goal: script, else commonjs, else module)
'use strict';
const acorn = require('acorn');
const eslintScope = require('eslint-scope');
const fs = require('fs');
const { byteOffsets } = require('./offsets.js');

function parse(src) {
  for (const goal of ['script', 'commonjs', 'module']) {
    try {
      const ast = acorn.parse(src, {
        ecmaVersion: 'latest',
        sourceType: goal === 'module' ? 'module' : 'script',
        allowHashBang: true,
        allowReturnOutsideFunction: goal === 'commonjs',
        ranges: true,
      });
      return { goal, ast };
    } catch (e) {
      // try the next goal
    }
  }
  return null;
}

const fnTypes = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

for (const file of process.argv.slice(2)) {
  const src = fs.readFileSync(file, 'utf8');
  const parsed = parse(src);
  if (!parsed) {
    process.stdout.write(JSON.stringify({ file, error: 'acorn rejects it' }) + '\n');
    continue;
  }
  const map = byteOffsets(src);
  const sm = eslintScope.analyze(parsed.ast, {
    ecmaVersion: 2022,
    sourceType: parsed.goal,
  });
  const funcs = [];
  for (const scope of sm.scopes) {
    if (scope.type !== 'function' || !fnTypes.has(scope.block.type)) continue;
    const names = new Set();
    for (const ref of scope.through) {
      const v = ref.resolved;
      if (v && v.scope.type !== 'global') names.add(ref.identifier.name);
    }
    funcs.push([map[scope.block.start], map[scope.block.end], [...names]]);
  }
  process.stdout.write(JSON.stringify({ file, goal: parsed.goal, funcs }) + '\n');
}
