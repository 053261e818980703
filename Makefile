# memtrace build, test and benchmark targets. `make help` lists them.

GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -X main.version=$(VERSION)
FUZZTIME ?= 30s

.PHONY: all build demo test vet fmt fmt-check bench fuzz clean help

all: build

## build: build bin/memtrace
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/memtrace ./cmd/memtrace

## demo: build, then trace the built-in leaky Node.js service and show where it leaks
demo: build
	./bin/memtrace demo $(DEMOFLAGS)

## test: formatting check, go vet, and every test with the race detector
test: fmt-check vet
	$(GO) test -race -timeout 30m ./...

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

## fuzz: run each fuzz target for FUZZTIME (default 30s)
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzReader$$' -fuzztime $(FUZZTIME) ./trace/
	$(GO) test -run '^$$' -fuzz '^FuzzAnalyze$$' -fuzztime $(FUZZTIME) ./lifetime/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./instrument/js/
	$(GO) test -run '^$$' -fuzz '^FuzzAnalyze$$' -fuzztime $(FUZZTIME) ./instrument/scope/

clean:
	rm -rf bin

help:
	@grep -E '^## ' Makefile | sed 's/^## /  /'
