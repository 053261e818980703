# memtrace build, test and benchmark targets. `make help` lists them.

GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -X main.version=$(VERSION)
FUZZTIME ?= 30s

.PHONY: all build demo test browser webdeps vet fmt fmt-check bench fuzz clean help

all: build

## build: build bin/memtrace
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/memtrace ./cmd/memtrace

## demo: build, then trace the built-in leaky Node.js service and show where it leaks
demo: build
	./bin/memtrace demo $(DEMOFLAGS)

## test: formatting check, go vet, every test with the race detector, then the collector's load test without it
test: fmt-check vet browser webdeps
	$(GO) test -race -timeout 30m ./...
	$(GO) test -count=1 -timeout 20m -run '^TestLoad$$' ./collector

# browser: Debian's chromium for the tests that drive a real browser, and
# ip (iproute2) for the proxy's LAN test's network namespaces (installed
# when missing and run as root; otherwise those tests say what is
# missing, and fail under CI=true).
browser:
	@{ command -v chromium && command -v ip; } >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium iproute2; \
	  else echo "make test: the browser tests need Debian's chromium and iproute2 (sudo apt-get install -y chromium iproute2)" >&2; fi; }

# webdeps: the report page's npm packages (uPlot), which the test of its
# committed bundle builds from (report/web; go generate ./report rebuilds).
webdeps:
	@[ -d report/web/node_modules ] || npm ci --prefix report/web --no-audit --no-fund

vet:
	$(GO) vet ./...

## fmt: format the Go sources
fmt:
	gofmt -w $$(git ls-files '*.go')

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## bench: performance figures beside their baselines (see bench/main.go)
bench:
	$(GO) run ./bench $(BENCHFLAGS)

## fuzz: run each fuzz target for FUZZTIME (default 30s), minimising a crasher for at most FUZZMINTIME
# Every fuzz target of the tree, each as: package/FuzzName. The list is
# checked against the tree by internal/repotest (TestMakefileFuzzTargets).
FUZZ_TARGETS := \
	./trace/FuzzReader \
	./trace/FuzzParseSite \
	./trace/FuzzStream \
	./lifetime/FuzzAnalyze \
	./instrument/FuzzInstrument \
	./instrument/js/FuzzParse \
	./instrument/scope/FuzzAnalyze \
	./internal/glob/FuzzMatch \
	./collector/FuzzFrames \
	./proxy/body/FuzzJSASCII
FUZZMINTIME ?= 10s

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%/*}; name=$${t##*/}; \
		echo "fuzz $$pkg $$name"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINTIME) $$pkg/; \
	done

clean:
	rm -rf bin

help:
	@grep -E '^## ' Makefile | sed 's/^## /  /'
