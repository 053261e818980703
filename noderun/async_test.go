package noderun_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/lifetime"
)

// asyncProgram interleaves many calls of async functions, async arrows and
// methods, generators resumed by next, throw and return, yield*
// delegation, async generators consumed by for await (with break), and
// rejected awaits caught in the body. Every activation allocates one
// object on a line holding "// TASK"; all of them finish.
const asyncProgram = `'use strict';
const log = [];
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
async function task(i) {
  const t = { i }; // TASK
  await null;
  if (i % 3 === 0) await sleep(i % 5);
  try {
    if (i % 4 === 0) await Promise.reject(new Error('r' + i));
    t.ok = true;
  } catch (e) {
    t.err = e.message;
  } finally {
    t.done = true;
  }
  return t.i;
}
const arrow = async (i) => {
  const t = { i }; // TASK
  await sleep(1);
  return t.i;
};
const obj = {
  async m(i) {
    const t = { i }; // TASK
    await null;
    return t.i;
  },
};
function* inner(o) {
  const t = { o }; // TASK
  yield 1;
  yield 2;
  return t.o;
}
function* outer() {
  const t = {}; // TASK
  try {
    const r = yield* inner(t);
    yield r === t ? 'same' : 'other';
    yield 3;
  } catch (e) {
    yield 'caught ' + e;
  } finally {
    t.closed = true;
  }
}
async function* agen(n) {
  const t = { n }; // TASK
  for (let k = 0; k < n; k++) yield await Promise.resolve(k);
}
async function consume() {
  const t = { s: 0 }; // TASK
  for await (const v of agen(5)) { t.s += v; if (v === 3) break; }
  for await (const v of agen(2)) t.s += v;
  return t.s;
}
function gens() {
  const a = outer();
  log.push(a.next().value, a.next().value, a.next().value, a.throw('x').value, a.next().done);
  const b = outer();
  b.next();
  log.push(b.return(7).value);
  for (const v of outer()) log.push(v);
}
async function main() {
  gens();
  const ps = [];
  for (let i = 0; i < 40; i++) ps.push(task(i), arrow(i), obj.m(i));
  ps.push(consume());
  const rs = await Promise.all(ps);
  log.push(rs.reduce((a, b) => a + b, 0));
  console.log(JSON.stringify(log));
}
main();
`

// TestAsyncBalance (issue 5): the trace of many interleaved async calls
// and generators passes trace check with every activation closed (each
// suspension exits, each resumption enters), the engine reads it, and
// every object a finished activation allocated is reported unreachable
// before the end of the program.
func TestAsyncBalance(t *testing.T) {
	data, rep := runDifferential(t, "async.js", asyncProgram)
	require.Zero(t, rep.Warnings, "%v", rep.Findings)
	require.Zero(t, rep.OpenFrames)

	taskLines := map[int32]bool{}
	for n, line := range strings.Split(asyncProgram, "\n") {
		if strings.Contains(line, "TASK") {
			taskLines[int32(n+1)] = true
		}
	}
	l := &gtListener{files: map[string]bool{"async.js": true}, created: map[int32]gtSite{}, last: map[int32]lifetime.Loc{}}
	require.NoError(t, lifetime.Analyze(bytes.NewReader(data), gtOptions, l))
	tasks, kept := 0, 0
	for id, at := range l.created {
		if taskLines[at.line] {
			tasks++
			if l.last[id] == lifetime.LocEndOfProgram {
				kept++
			}
		}
	}
	// 40 × (task, arrow, m), 3 outer and their 3 inner, 1 consume, 2 agen.
	require.Equal(t, 120+3+3+1+2, tasks)
	require.Zero(t, kept, "objects of finished activations live to the end")
}
