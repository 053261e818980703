package noderun_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// tsProgram is a small TypeScript program in two module systems: an ES
// module main (.mts) importing a .ts module of a "type": "module"
// package, and a CommonJS .cts helper it requires. It prints, then exits
// with status 3.
var tsProgram = map[string]string{
	"package.json": `{"type": "module"}`,
	"main.mts": `import { createRequire } from "node:module";
import { Queue, Priority } from "./queue.ts";
const require = createRequire(import.meta.url);
const { label } = require("./label.cts") as { label: (n: number) => string };
interface Job { id: number; tags: string[] }
const q = new Queue<Job>();
for (let i = 0; i < 5; i++) q.push({ id: i, tags: [label(i)] }, i % 2 ? Priority.High : Priority.Low);
const seen: Job[] = [];
let j: Job | undefined;
while ((j = q.pop()) !== undefined) seen.push(j!);
console.log(seen.map((x) => x.id + ":" + x.tags.join()).join(" "));
console.log(Priority[Priority.High], typeof q, JSON.stringify({ a: [1, 2] as const }));
process.exitCode = 3;
`,
	"queue.ts": `export enum Priority { Low, High }
export class Queue<T> {
  #items: Array<{ v: T; p: Priority }> = [];
  constructor(private readonly limit: number = 100) {}
  push(v: T, p: Priority): void {
    if (this.#items.length >= this.limit) throw new Error("full");
    this.#items.push({ v, p });
    this.#items.sort((a, b) => b.p - a.p);
  }
  pop(): T | undefined { return this.#items.shift()?.v; }
}
`,
	"label.cts": `export function label(n: number): string { return ["zero", "one", "two", "three", "four"][n] ?? "many"; }
`,
}

// writeFiles writes files (paths relative to dir, directories made as
// needed).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	for name, text := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
}

// TestTSDifferential: the program run by memtrace node (instrumented from
// its TypeScript) prints the same and exits with the same status as the
// program esbuild turned into plain JavaScript, run by node.
func TestTSDifferential(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	// Plain: each file transformed by esbuild alone, imports renamed.
	plain := t.TempDir()
	rename := strings.NewReplacer(`"./queue.ts"`, `"./queue.js"`, `"./label.cts"`, `"./label.cjs"`)
	for name, text := range tsProgram {
		if name == "package.json" {
			writeFiles(t, plain, map[string]string{name: text})
			continue
		}
		opts := api.TransformOptions{Loader: api.LoaderTS, Target: api.ESNext}
		if strings.HasSuffix(name, ".cts") {
			opts.Format = api.FormatCommonJS
		}
		r := api.Transform(text, opts)
		require.Empty(t, r.Errors, name)
		out := strings.NewReplacer(".mts", ".mjs", ".cts", ".cjs", ".ts", ".js").Replace(name)
		writeFiles(t, plain, map[string]string{out: rename.Replace(string(r.Code))})
	}
	cmd := exec.Command("node", "main.mjs")
	cmd.Dir = plain
	var want bytes.Buffer
	cmd.Stdout, cmd.Stderr = &want, &want
	wantCode := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		require.True(t, ok, "%v", err)
		wantCode = ee.ExitCode()
	}
	require.Equal(t, 3, wantCode, want.String())
	require.Contains(t, want.String(), "1:one 3:three 0:zero 2:two 4:four")

	dir := t.TempDir()
	writeFiles(t, dir, tsProgram)
	var got, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.mts", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &got, Stderr: &stderr})
	require.NoError(t, err)
	assert.Equal(t, wantCode, code, stderr.String())
	assert.Equal(t, want.String(), got.String())
	assert.NotContains(t, stderr.String(), "uninstrumented")

	// Every file ran instrumented, under its own .ts name.
	data, err := os.ReadFile(filepath.Join(dir, "out", "mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%v", rep.Findings)
	dump, err := exec.Command(bin, "trace", "dump", filepath.Join(dir, "out", "mem-trace")).Output()
	require.NoError(t, err)
	var scripts []string
	for _, line := range strings.Split(string(dump), "\n") {
		if strings.HasPrefix(line, "[19,") {
			scripts = append(scripts, line[strings.LastIndex(line, ",")+1:len(line)-1])
		}
	}
	// ES modules run dependencies first.
	assert.Equal(t, []string{`"queue.ts"`, `"main.mts"`, `"label.cts"`}, scripts)
}

// TestTSLeak: memtrace node on a TypeScript program that keeps every
// session it makes: the trace passes trace check, and the lifetime
// summary names the leaking site at its position in the .ts file.
func TestTSLeak(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	src := `interface Session { id: number; buf: number[] }
type Registry = Map<number, Session>;
const registry: Registry = new Map();
class Tracker<T extends Session> {
  private count: number = 0;
  make(id: number): T { this.count++; return <T>{ id, buf: new Array<number>(8).fill(id) }; }
}
const tracker = new Tracker<Session>();
let round = 0;
function tick(): void {
  for (let i = 0; i < 20; i++) registry.set(round * 20 + i, tracker.make(i));
  if (++round < 6) setTimeout(tick, 0);
  else console.log("kept", registry.size);
}
setTimeout(tick, 0);
`
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"leak.ts": src})
	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "leak.ts", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	require.Equal(t, "kept 120\n", out.String())

	data, err := os.ReadFile(filepath.Join(dir, "out", "mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%v", rep.Findings)

	var sum bytes.Buffer
	require.NoError(t, lifetime.Report(opener(data), lifetime.ReportOptions{Summary: &sum, TempDir: t.TempDir()}))
	var s lifetime.Summary
	require.NoError(t, json.Unmarshal(sum.Bytes(), &s))

	// The object literal of make(): line 6, from "{ id" to its "}".
	lines := strings.Split(src, "\n")
	lit := "{ id, buf: new Array<number>(8).fill(id) }"
	col := strings.Index(lines[5], lit) + 1
	require.Positive(t, col)
	site := fmt.Sprintf("leak.ts:6:%d:6:%d", col, col+len(lit))
	found := false
	for _, ss := range s.Sites {
		assert.True(t, strings.HasPrefix(ss.Site, "leak.ts:"), "site %s", ss.Site)
		if ss.Site == site {
			found = true
			assert.EqualValues(t, 120, ss.Allocated)
			assert.EqualValues(t, 120, ss.MaxLive)
			assert.True(t, ss.Leaking, "%+v", ss)
		}
	}
	assert.True(t, found, "no site %s in %s", site, sum.String())
}

// tsStackProgram is TypeScript as people write it: a CommonJS .ts file
// (esbuild writes its export helpers at the top), with comments, blank
// lines, types, an enum, a class with parameter properties, a template
// literal over several lines and an arrow. Each "// at NAME" comment marks
// the line a stack frame must name.
const tsStackProgram = `// Stack traces of an instrumented TypeScript program name its lines.

import { EventEmitter } from 'node:events';

/** A record. */
export interface User {
  id: number;
  name: string;
}

type Handler = (u: User) => void;

export enum Level {
  Low,
  High,
}

const banner = ` + "`" + `users
  of ${Level.High}
` + "`" + `;

export class Registry extends EventEmitter {
  private users = new Map<number, User>();

  constructor(private readonly level: Level = Level.Low) {
    super();
  }

  get(id: number): User {
    const u = this.users.get(id);
    if (!u) {
      throw new Error('no user ' + id); // at get
    }
    return u;
  }
}

function lines(e: unknown): string {
  return (e as Error).stack!.split('\n').slice(1, 4).map((l) => l.replace(/^.*\.ts:(\d+):\d+\)?$/, '$1')).join(' ');
}

function main(): void {
  const r = new Registry();
  const seen: Handler = (u) => {
    throw new TypeError(u.name); // at arrow
  };
  try {
    r.get(2); // at main
  } catch (e) {
    console.log('get', lines(e));
  }
  try {
    seen({ id: 1, name: 'ada' }); // at main2
  } catch (e) {
    console.log('arrow', lines(e));
  }
  console.log(JSON.stringify(banner));
}

main(); // at top
`

// TestTSStackLines: the lines of an instrumented TypeScript program's
// stack traces are those of the .ts file (instrument/typescript.go
// alignLines), and its template literal keeps its text.
func TestTSStackLines(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	at := map[string]int{}
	for i, l := range strings.Split(tsStackProgram, "\n") {
		if k := strings.Index(l, "// at "); k >= 0 {
			at[l[k+len("// at "):]] = i + 1
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"package.json": "{}", "main.ts": tsStackProgram})
	var got, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.ts", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &got, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	want := fmt.Sprintf("get %d %d %d\narrow %d %d %d\n%q\n", at["get"], at["main"], at["top"], at["arrow"], at["main2"], at["top"],
		"users\n  of 1\n")
	assert.Equal(t, want, got.String())
}
