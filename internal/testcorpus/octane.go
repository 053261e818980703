package testcorpus

// OctaneBenchmark is one Octane benchmark of ../shared/corpora/octane: its
// suite name and its files, loaded after base.js as classic scripts.
type OctaneBenchmark struct {
	Name  string
	Files []string
}

// Octane lists the corpus's 14 Octane benchmarks in run.js's order
// (mandreel is absent from the corpus).
var Octane = []OctaneBenchmark{
	{"Richards", []string{"richards.js"}},
	{"DeltaBlue", []string{"deltablue.js"}},
	{"Crypto", []string{"crypto.js"}},
	{"RayTrace", []string{"raytrace.js"}},
	{"EarleyBoyer", []string{"earley-boyer.js"}},
	{"RegExp", []string{"regexp.js"}},
	{"Splay", []string{"splay.js"}},
	{"NavierStokes", []string{"navier-stokes.js"}},
	{"PdfJS", []string{"pdfjs.js"}},
	{"Gameboy", []string{"gbemu-part1.js", "gbemu-part2.js"}},
	{"CodeLoad", []string{"code-load.js"}},
	{"Box2D", []string{"box2d.js"}},
	{"zlib", []string{"zlib.js", "zlib-data.js"}},
	{"Typescript", []string{"typescript.js", "typescript-input.js", "typescript-compiler.js"}},
}
