// Package report makes memtrace report's page: one self-contained HTML
// file that shows where a trace's memory goes (docs/report.md).
//
// Build runs the lifetime engine over a trace with its details
// (lifetime.Details: timelines, calling contexts, last uses, retaining
// paths through the run, detached DOM nodes), reads the sources around
// the sites (the trace directory's scripts/, else the files where the
// program ran) and gives the page's Data; Write writes the page: the data
// as JSON and the bundle (web/, built with esbuild's Go API and embedded)
// that renders it, with no network at all. The numbers are the summary's
// (memtrace lifetime --format json) on the same trace.
package report
