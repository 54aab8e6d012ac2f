# fitd — see README.md. Every target installs what it needs first (scripts/bootstrap).
SWIFT ?= swift
PREFIX ?= $(HOME)/.local
# How `make release` and `make install` build (scripts/bench too, through `make release`, so
# the daemon benchmark measures the binary that gets installed). The Swift runtime is linked
# in statically: the installed binaries need nothing from the toolchain's lib/swift, and the
# daemon's idle RSS drops (at most 20 MB: 22 MB with the shared runtime, about 18 MB
# like this). lld with --no-export-dynamic (static-stdlib-args.lnk asks for -export-dynamic,
# which exports every public symbol of the package's modules) and packed relative relocations
# (DT_RELR; glibc 2.36 or later) spare the loader about 2 MB of the binary's pages.
RELEASE_FLAGS ?= -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xlinker --no-export-dynamic -Xlinker -z -Xlinker pack-relative-relocs

.PHONY: all bootstrap build c-client docs release test stress test-sanitizers demo bench fuzz clean install uninstall man dist test-dist tag

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

# libfitd-client, the C/GObject client library (clients/c: meson, gdbus-codegen, GIR/typelib,
# VAPI) in .build/clients-c; make install installs it too. Tests/EndToEnd/c_client.sh builds
# it from scratch on its own.
C_CLIENT_BUILD ?= .build/clients-c
c-client: bootstrap
	@scripts/c-client $(C_CLIENT_BUILD) $(PREFIX)

# FitDBusClient's documentation (Sources/FitDBusClient/FitDBusClient.docc) as a static site in
# $(DOCS_DIR) (open index.html through a web server, or serve it with --hosting-base-path),
# through swift-docc-plugin and the toolchain's docc; offline, about a minute on 2 cores.
DOCS_DIR ?= .build/docs/FitDBusClient
docs:
	@scripts/bootstrap --build
	@mkdir -p $(dir $(DOCS_DIR))
	$(SWIFT) package --allow-writing-to-directory $(DOCS_DIR) generate-documentation --target FitDBusClient \
		--output-path $(DOCS_DIR) --transform-for-static-hosting --hosting-base-path FitDBusClient --warnings-as-errors

release: bootstrap
	$(SWIFT) build $(RELEASE_FLAGS)

# Unit tests, then the checks against real reference implementations (Pango, wcwidth).
test: bootstrap
	@scripts/test

# The long reliability tests: activations in a row, isolation between clients,
# load and kill -9 (Tests/Reliability), and the flood against the release build (make
# release). CI runs it after `make test`; about 10 minutes and the release build.
stress: bootstrap
	@scripts/stress

# The Swift tests under AddressSanitizer and ThreadSanitizer (own build directories
# .build-asan, .build-tsan) and end-to-end scripts against the ASan-built fitd; about 13
# minutes from clean on 2 cores. PARTS="asan tsan e2e" picks some.
test-sanitizers: bootstrap
	@scripts/test-sanitizers $(PARTS)

# Shows fitd doing its job.
demo: bootstrap
	@scripts/demo

# Benchmarks against Pango and raw HarfBuzz (a separate package under Benchmarks/).
bench: bootstrap
	@scripts/bench

# libFuzzer targets for every parser of outside input (Tests/Fuzzing/README.md), each run for
# FUZZ_SECONDS (default 60); exits non-zero on a finding, reproducer under Tests/Fuzzing/Findings.
FUZZ_SECONDS ?= 60
fuzz: bootstrap
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz

clean:
	rm -rf .build .build-asan .build-tsan Benchmarks/.build Tests/Fuzzing/.build

# make install [PREFIX=~/.local] [DESTDIR=staging]: a release build, then (scripts/install) the
# stripped binaries, the systemd user unit, the D-Bus activation file (Exec= the installed fitd),
# the interface XML, the man pages fitd(8) and fitctl(1), fitctl's bash/zsh/fish completions,
# the layout schema and examples (share/fitd), the documentation (share/doc/fitd) and
# libfitd-client (lib, include/fitd-client, lib/pkgconfig, GIR/typelib, VAPI; C_CLIENT_BUILD=
# leaves it out). It lists
# what it wrote in share/fitd/install-manifest; `make uninstall` with the same PREFIX and DESTDIR
# removes exactly that. BUILT=DIR installs the fitd and fitctl already built in DIR instead.
VERSION := $(shell cat VERSION)
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
DOCDIR = $(DATADIR)/doc/fitd
MANDIR = $(DATADIR)/man
# Where the shells look: bash-completion's completionsdir (also $$XDG_DATA_HOME/bash-completion/
# completions for ~/.local), zsh's site-functions, fish's vendor_completions.d.
BASH_COMPLETION_DIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETION_DIR ?= $(DATADIR)/fish/vendor_completions.d
# The user manager reads $XDG_DATA_HOME/systemd/user (~/.local/share/systemd/user) but no
# lib/ under $HOME (systemd.unit(5), "User Unit Search Path"); elsewhere lib/systemd/user.
SYSTEMD_USER_DIR ?= $(if $(filter $(HOME) $(HOME)/%,$(PREFIX)),$(DATADIR)/systemd/user,$(PREFIX)/lib/systemd/user)
BUILT ?=
FROM = $(or $(BUILT),$(shell $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path))
# Man pages: a dist tarball ships them in man/; in a git checkout `make man` generates them
# into .build/man on every install (fitctl's follows its argument definitions, fitd's is
# docs/fitd.8 with the date and version). MANSRC=DIR installs the pages already in DIR instead.
MANSRC ?=
MANFROM = $(or $(MANSRC),$(if $(wildcard man/fitd.8),man,.build/man))
INSTALL_ENV = PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" BINDIR="$(BINDIR)" DATADIR="$(DATADIR)" \
	DOCDIR="$(DOCDIR)" MANDIR="$(MANDIR)" SYSTEMD_USER_DIR="$(SYSTEMD_USER_DIR)" \
	BASH_COMPLETION_DIR="$(BASH_COMPLETION_DIR)" ZSH_COMPLETION_DIR="$(ZSH_COMPLETION_DIR)" \
	FISH_COMPLETION_DIR="$(FISH_COMPLETION_DIR)" C_CLIENT_BUILD="$(C_CLIENT_BUILD)"

install:
	@case "$(PREFIX)" in /*) ;; *) echo "make install: PREFIX must be an absolute path, not $(PREFIX)" >&2; exit 2;; esac
	$(if $(BUILT),,@scripts/bootstrap --build)
	$(if $(BUILT),,$(SWIFT) build $(RELEASE_FLAGS) --product fitd)
	$(if $(BUILT),,$(SWIFT) build $(RELEASE_FLAGS) --product fitctl)
	$(if $(MANSRC)$(wildcard man/fitd.8),,@$(MAKE) --no-print-directory man)
	@$(INSTALL_ENV) FROM="$(FROM)" MANSRC="$(MANFROM)" scripts/install install

uninstall:
	@$(INSTALL_ENV) scripts/install uninstall

# fitd.8 and fitctl.1 in .build/man: fitctl's from its argument definitions (swift-argument-
# parser's generate-manual plugin over the debug build, what `make build` and the tests build,
# so nothing is built twice), fitd's from docs/fitd.8, a daemon's page: section 8.
man:
	@scripts/gen-man .build/man

# fitd-$(VERSION).tar.gz: the committed tree (git archive HEAD; VERSION is in it), the pinned
# dependency versions (Package.resolved) and the generated man pages, so that an unpacked
# tarball builds with `make install` and needs no generator. `make test-dist` checks that on a
# clean copy (a full release build: about 10 minutes on 2 cores, so not part of `make test`).
dist: man
	@git diff --quiet HEAD || echo "make dist: uncommitted changes are not in the tarball" >&2
	git archive --format=tar --prefix=fitd-$(VERSION)/ \
		$(if $(wildcard Package.resolved),--add-file=Package.resolved) \
		--prefix=fitd-$(VERSION)/man/ --add-file=.build/man/fitd.8 --add-file=.build/man/fitctl.1 \
		--prefix=fitd-$(VERSION)/ HEAD | gzip -9n >fitd-$(VERSION).tar.gz
	@echo "fitd-$(VERSION).tar.gz (tag this commit v$(VERSION))"

test-dist: bootstrap
	@scripts/test-dist

# A release is the commit tagged v$(VERSION) (annotated); CHANGELOG.md's heading says its date.
tag:
	@git diff --quiet HEAD || { echo "make tag: commit first" >&2; exit 1; }
	@grep -q '^## $(VERSION) — unreleased' CHANGELOG.md && { echo "make tag: CHANGELOG.md still says $(VERSION) is unreleased" >&2; exit 1; } || true
	git tag -a v$(VERSION) -m "fitd $(VERSION)"
