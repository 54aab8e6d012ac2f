# fitd — see README.md. Every target installs what it needs first (scripts/bootstrap).
SWIFT ?= swift
PREFIX ?= $(HOME)/.local

.PHONY: all bootstrap build release test demo bench clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	$(SWIFT) build -c release

# Unit tests, then the checks against real reference implementations (Pango, wcwidth).
test: bootstrap
	@scripts/test

# Shows fitd doing its job.
demo: bootstrap
	@scripts/demo

# Benchmarks against Pango and raw HarfBuzz (a separate package under Benchmarks/).
bench: bootstrap
	@scripts/bench

clean:
	rm -rf .build Benchmarks/.build
