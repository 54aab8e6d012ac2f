# fitd — see README.md. Every target installs what it needs first (scripts/bootstrap).
SWIFT ?= swift
PREFIX ?= $(HOME)/.local
# How `make release` and `make install` build (scripts/bench too, through `make release`, so
# the daemon benchmark measures the binary that gets installed). The Swift runtime is linked
# in statically: the installed binaries need nothing from the toolchain's lib/swift, and the
# daemon's idle RSS drops (issue 3, at most 20 MB: 22 MB with the shared runtime, about 18 MB
# like this). lld with --no-export-dynamic (static-stdlib-args.lnk asks for -export-dynamic,
# which exports every public symbol of the package's modules) and packed relative relocations
# (DT_RELR; glibc 2.36 or later) spare the loader about 2 MB of the binary's pages.
RELEASE_FLAGS ?= -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xlinker --no-export-dynamic -Xlinker -z -Xlinker pack-relative-relocs

.PHONY: all bootstrap build release test stress test-sanitizers demo bench fuzz clean install uninstall

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	$(SWIFT) build $(RELEASE_FLAGS)

# Unit tests, then the checks against real reference implementations (Pango, wcwidth).
test: bootstrap
	@scripts/test

# The long reliability tests (issue 9): activations in a row, isolation between clients,
# load and kill -9 (Tests/Reliability). CI runs it after `make test`; about 4 minutes.
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

# make install [PREFIX=~/.local] [DESTDIR=staging]: a release build, then the binaries, the
# systemd user unit, the D-Bus activation file (Exec= the installed fitd), the interface XML
# and the README. BUILT=DIR installs the fitd and fitctl already built in DIR instead.
# `make uninstall` with the same PREFIX removes exactly these files.
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
DOCDIR = $(DATADIR)/doc/fitd
# The user manager reads $XDG_DATA_HOME/systemd/user (~/.local/share/systemd/user) but no
# lib/ under $HOME (systemd.unit(5), "User Unit Search Path"); elsewhere lib/systemd/user.
SYSTEMD_USER_DIR ?= $(if $(filter $(HOME) $(HOME)/%,$(PREFIX)),$(DATADIR)/systemd/user,$(PREFIX)/lib/systemd/user)
BUILT ?=
FROM = $(or $(BUILT),$(shell $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path))
INSTALLED = $(BINDIR)/fitd $(BINDIR)/fitctl $(SYSTEMD_USER_DIR)/fitd.service \
	$(DATADIR)/dbus-1/services/org.fitd.Fit1.service $(DATADIR)/dbus-1/interfaces/org.fitd.Fit1.xml \
	$(DOCDIR)/README.md
RENDER = sed -e 's|@bindir@|$(BINDIR)|g' -e 's|@docdir@|$(DOCDIR)|g'

install:
	@case "$(PREFIX)" in /*) ;; *) echo "make install: PREFIX must be an absolute path, not $(PREFIX)" >&2; exit 2;; esac
	$(if $(BUILT),,@scripts/bootstrap --build)
	$(if $(BUILT),,$(SWIFT) build $(RELEASE_FLAGS) --product fitd)
	$(if $(BUILT),,$(SWIFT) build $(RELEASE_FLAGS) --product fitctl)
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(SYSTEMD_USER_DIR)" "$(DESTDIR)$(DATADIR)/dbus-1/services" \
		"$(DESTDIR)$(DATADIR)/dbus-1/interfaces" "$(DESTDIR)$(DOCDIR)"
	install -m 0755 "$(FROM)/fitd" "$(FROM)/fitctl" "$(DESTDIR)$(BINDIR)/"
	$(RENDER) systemd/fitd.service.in >"$(DESTDIR)$(SYSTEMD_USER_DIR)/fitd.service"
	$(RENDER) systemd/org.fitd.Fit1.service.in >"$(DESTDIR)$(DATADIR)/dbus-1/services/org.fitd.Fit1.service"
	chmod 0644 "$(DESTDIR)$(SYSTEMD_USER_DIR)/fitd.service" "$(DESTDIR)$(DATADIR)/dbus-1/services/org.fitd.Fit1.service"
	install -m 0644 protocol/org.fitd.Fit1.xml "$(DESTDIR)$(DATADIR)/dbus-1/interfaces/org.fitd.Fit1.xml"
	install -m 0644 README.md "$(DESTDIR)$(DOCDIR)/README.md"
	@echo "installed under $(DESTDIR)$(PREFIX); the session bus starts fitd on the first call"
	@echo "(with systemd: systemctl --user daemon-reload, so it knows fitd.service)"

uninstall:
	rm -f $(foreach f,$(INSTALLED),"$(DESTDIR)$(f)")
	@rmdir "$(DESTDIR)$(DOCDIR)" 2>/dev/null || true
