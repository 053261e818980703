package runtimeshim

import (
	"encoding/json"
	"strings"
	"testing"
)

// logicalProgram assigns objects with ??=, ||= and &&= to private fields
// (the lazily cached getter), fields with static and computed keys, super
// properties (read on the home object's prototype, written to this),
// fields in an initializer (before the constructor's entry) and in a
// static block (before the class has an id), and variables; each
// assignment runs twice or meets a value that short-circuits it.
const logicalProgram = `'use strict';
class L {
  #c; #d = 1; #e = 0;
  get c() { return this.#c ??= new Map(); }
  run() { this.#d &&= {}; this.#e &&= {}; this.#e ||= {}; this.#e ||= {}; return this; }
}
const l = new L(); l.c; l.c; l.run();
const o = { z: 0 };
o.x ||= {}; o.x ||= {};
o.z &&= {};
o.w ??= {}; o.w ??= {}; o.w &&= {};
const k = 'q';
o[k] ??= {}; o[k] ??= {};
class B {}
class S extends B { m() { super.s ??= {}; super.s ??= {}; super.t = 1; return this; } }
new S().m();
class I { f = typeof (this.g ??= {}); h = (this.g ??= {}, 0); static { this.u ||= {}; this.u ||= {}; } }
new I();
let a = null; a ??= {}; a ??= {};
let b = 1; b &&= {};
let c = 0; c &&= {};
const f = () => [a, b, c];
console.log(typeof l.c, o.z, f().length);
`

// TestLogicalAssignments: a logical assignment writes its edge exactly
// when it assigns (PUTFIELD or WRITE), never when it short-circuits.
func TestLogicalAssignments(t *testing.T) {
	got := runCJS(t, logicalProgram, "logical.js", "object 0 3\n", nil)
	fields := map[string]bool{"#c": true, "#d": true, "#e": true, "x": true, "z": true, "w": true, "q": true, "s": true, "t": true, "g": true, "u": true}
	vars := map[string]bool{"a": true, "b": true, "c": true}
	var puts, writes []string
	for _, line := range strings.Split(strings.TrimSpace(dump(t, got.trace)), "\n") {
		var e []any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		switch e[0].(float64) {
		case 3: // PUTFIELD
			if name := e[3].(string); fields[name] {
				val := "obj"
				if e[4].(float64) == 0 {
					val = "0"
				}
				puts = append(puts, name+"="+val)
			}
		case 4: // WRITE
			// a module's top-level names are name@sid
			if name, _, _ := strings.Cut(e[2].(string), "@"); vars[name] {
				writes = append(writes, name)
			}
		}
	}
	want := []string{
		"#d=0", "#e=0", // L's field definitions (#c has no initializer)
		"#c=obj",           // l.c, once: the second read short-circuits
		"#d=obj", "#e=obj", // run(): #d &&=, then #e ||= once (#e &&= met 0)
		"x=obj", "w=obj", "w=obj", "q=obj", // ||= and ??= once each; w &&= assigns again
		"s=obj", "s=obj", "t=0", // super.s reads B.prototype.s: assigned twice
		"u=obj", // I's static block, logged when the class gets its id
		"g=obj", // I's f: this.g ??= before the constructor's entry; h short-circuits
	}
	if strings.Join(puts, " ") != strings.Join(want, " ") {
		t.Errorf("PUTFIELDs:\n got %s\nwant %s", strings.Join(puts, " "), strings.Join(want, " "))
	}
	if w := "a b"; strings.Join(writes, " ") != w {
		t.Errorf("WRITEs: got %q, want %q", strings.Join(writes, " "), w)
	}
}
