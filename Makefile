# solistore: build, test and run targets. `make test` is what CI runs (.ci/run).
CARGO ?= cargo
PROFILE ?= release
PREFIX ?= /usr/local
PROPTEST_CASES ?= 256
export PROPTEST_CASES
SWEEP_SEED ?= $(shell date +%s)
LIBDIR := target/$(PROFILE)
LIB := $(LIBDIR)/libsolistore.so
# The drop-in names live in their own directory: cargo puts target/<profile> on the
# LD_LIBRARY_PATH of the tests it runs, so a librocksdb.so.7.8 there would replace Debian's
# library under `ldb` and `sst_dump` when a test spawns them.
DROPIN := $(LIBDIR)/dropin

.PHONY: all build dropin run run-dotnet lint test test-rust test-c test-c-sanitize test-python test-dotnet abi soak install install-check clean
.PHONY: bench bench-quick bench-smoke bench-reference
.PHONY: fuzz fuzz-smoke fuzz-tools fuzz-seeds

all: build

# The library, and in $(DROPIN) the file names programs built for RocksDB look for:
# librocksdb.so (link time), librocksdb.so.7.8 (Debian 12's soname), librocksdb.so.11, and
# runtimes/linux-x64/native/librocksdb-11.1.2-jemalloc.so (the name RocksDbSharp 11.1.2
# probes first), each a link to libsolistore.so.
build:
	$(CARGO) build --$(PROFILE) -p solistore-capi
	$(MAKE) dropin

dropin:
	rm -f $(LIBDIR)/librocksdb.so $(LIBDIR)/librocksdb.so.7.8 $(LIBDIR)/librocksdb.so.11
	mkdir -p $(DROPIN)/runtimes/linux-x64/native
	cd $(DROPIN) && for n in librocksdb.so librocksdb.so.7.8 librocksdb.so.11; do ln -sf ../libsolistore.so $$n; done
	ln -sf ../../../../libsolistore.so $(DROPIN)/runtimes/linux-x64/native/librocksdb-11.1.2-jemalloc.so

# The main job: build the library, run a C quickstart on libsolistore, then the very same
# binary on Debian's librocksdb 7.8.3 when it is installed (swapped with LD_LIBRARY_PATH);
# then the Python and C# quickstarts (each on both libraries) and a 1-2 minute benchmark
# comparison against librocksdb 7.8.3.
run: build
	mkdir -p bench/build
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Iinclude -o bench/build/quickstart bench/quickstart.c \
	  -L$(DROPIN) -lrocksdb -Wl,-rpath,$(CURDIR)/$(DROPIN)
	@echo "== quickstart on libsolistore"
	LD_LIBRARY_PATH=$(CURDIR)/$(DROPIN) bench/build/quickstart $$(mktemp -d)
	@if [ -e /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8 ]; then \
	  echo "== the same binary on Debian's librocksdb 7.8.3"; \
	  mkdir -p bench/build/rocksdb && ln -sf /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8 bench/build/rocksdb/librocksdb.so.7.8 && \
	  ln -sf /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8 bench/build/rocksdb/librocksdb.so && \
	  LD_LIBRARY_PATH=$(CURDIR)/bench/build/rocksdb bench/build/quickstart $$(mktemp -d); \
	else echo "(librocksdb 7.8 not installed: apt-get install librocksdb-dev to compare)"; fi
	@echo "== the Python quickstart (bindings-python/examples/quickstart.py)"
	SOLISTORE_LIB=$(CURDIR)/$(LIB) python3 bindings-python/examples/quickstart.py
	@if command -v mcs >/dev/null 2>&1 && command -v mono >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory -C bindings-dotnet run-example PROFILE=$(PROFILE); \
	else echo "(Mono not installed: apt-get install mono-devel to run the C# quickstart)"; fi
	@if [ -e /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8 ]; then \
	  echo "== a 1-2 minute comparison, solistore / RocksDB 7.8.3 (make bench for the full one)"; \
	  $(MAKE) --no-print-directory -C bench quick SOLISTORE=$(CURDIR)/$(LIB); fi

# The .NET quickstart (bindings-dotnet/examples/Quickstart.cs) on libsolistore, then on
# librocksdb 7.8.3 when installed. Needs Mono (apt-get install mono-devel).
run-dotnet: build
	$(MAKE) -C bindings-dotnet run-example PROFILE=$(PROFILE)

# Every test: formatting and lints, Rust unit, integration and property tests (core and capi, including the
# compatibility tests against Debian's RocksDB 7.8.3), the C ABI gates, the C test
# programs against libsolistore, against librocksdb 7.8.3, as a binary drop-in, and under
# AddressSanitizer+UBSan and valgrind, the Python and .NET bindings on both libraries, a
# smoke run of the benchmark driver on both engines, and 60 s of fuzzing per decoder.
test: lint test-rust abi install-check test-c test-c-sanitize test-python test-dotnet bench-smoke fuzz-smoke

# The formatting and the workspace lints (STYLE.md §4.8), warnings as errors.
lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

test-rust:
	$(CARGO) test --release --workspace

abi: build
	$(CARGO) x abi-check --release

test-c: build
	$(MAKE) -C tests-c test LIB=all

# The C programs built with -fsanitize=address,undefined (LeakSanitizer on), then under
# valgrind memcheck: zero errors and zero definite or indirect leaks (tests-c/README.md).
test-c-sanitize: build
	$(MAKE) -C tests-c sanitize

# The Python package, every test against libsolistore and Debian's librocksdb.so.7.8.
test-python: build
	SOLISTORE_LIB=$(CURDIR)/$(LIB) python3 -m pytest bindings-python/tests -q

# The .NET binding and the RocksDbSharp host replays (Kommander, Kahuna) on Mono with NUnit 2.6,
# on libsolistore and on librocksdb 7.8.3, and the placement kit (bindings-dotnet/run-tests.sh).
# Without mono/nunit-console it skips with a message; SOLISTORE_REQUIRE_DOTNET=1 makes that a failure.
test-dotnet: build
	PROFILE=$(PROFILE) bindings-dotnet/run-tests.sh

# Benchmarks (bench/README.md): one driver, libsolistore and Debian's librocksdb 7.8.3
# alternately. bench: the full run (~25-50 min), written to bench/results/<date>-$(NAME).md;
# bench-quick: 1-2 minutes, prints the table; bench-smoke: every workload at toy sizes (make test).
bench: build
	$(MAKE) -C bench bench SOLISTORE=$(CURDIR)/$(LIB)

bench-quick: build
	$(MAKE) -C bench quick SOLISTORE=$(CURDIR)/$(LIB)

bench-smoke: build
	$(MAKE) -C bench smoke SOLISTORE=$(CURDIR)/$(LIB)

# Debian's db_bench and the driver, both on librocksdb: RocksDB's own numbers (~10 min).
bench-reference:
	$(MAKE) -C bench reference

# Long runs: the 1,000-kill crash loop and deep property tests.
soak:
	SOLISTORE_CRASH_ITERATIONS=1000 PROPTEST_CASES=5000 $(CARGO) test --release -p solistore --test crash_loop_sigkill --test db_model
	# The deep crash and error sweeps (docs/reliability.md); SWEEP_SEED=<printed seed> replays a run.
	SOLISTORE_SWEEP_SCALE=4 SOLISTORE_SWEEP_RANDOM=200 SOLISTORE_ERROR_SWEEP_RANDOM=50 SOLISTORE_SWEEP_SEED=$(SWEEP_SEED) \
	  $(CARGO) test --release -p solistore --test crash_sweep --test fault_injection -- --nocapture
	HYPOTHESIS_EXAMPLES=500 SOLISTORE_LIB=$(CURDIR)/$(LIB) python3 -m pytest bindings-python/tests/test_differential.py -q
	# Every byte of every table, every truncation, RocksDB asked about every WAL case.
	SOLISTORE_SWEEP_FULL=1 $(CARGO) test --release -p solistore --test corruption_sweep -- --nocapture
	SOLISTORE_CONCURRENCY_CHECKS=200000000 SOLISTORE_CONCURRENCY_MAX_SECS=1800 $(CARGO) test --release -p solistore --test concurrency_atomicity -- --nocapture
	FUZZ_SECONDS=1800 $(MAKE) fuzz

# Fuzzing (core/fuzz, its own workspace): cargo-fuzz on the stable toolchain with
# RUSTC_BOOTSTRAP=1 (`cargo install cargo-fuzz` once). `fuzz-smoke` is CI's 60 s per target;
# `fuzz` runs FUZZ_SECONDS per target (default 10 minutes), two targets at a time.
FUZZ_SECONDS ?= 600
fuzz: fuzz-tools
	core/fuzz/run.sh $(FUZZ_SECONDS) 2

fuzz-smoke: fuzz-tools
	core/fuzz/run.sh 60 2

# cargo-fuzz from crates.io, installed once when missing (about 1.5 minutes on 2 cores).
fuzz-tools:
	@command -v cargo-fuzz >/dev/null 2>&1 || { echo "== installing cargo-fuzz"; $(CARGO) install -q cargo-fuzz --locked; }

# Regenerates the committed seed corpora from files solistore and librocksdb 7.8.3 write.
fuzz-seeds:
	rm -rf bench/build/fuzz-seeds && mkdir -p bench/build/fuzz-seeds
	$(CC) -O1 -o bench/build/fuzz-seeds/rocksdb_table_writer tests-c/compat/rocksdb_table_writer.c -lrocksdb
	bench/build/fuzz-seeds/rocksdb_table_writer bench/build/fuzz-seeds/rocksdb-db 1 300 0
	rm -rf core/fuzz/seeds.new
	$(CARGO) run --release -p solistore --example fuzz_seeds -- core/fuzz/seeds.new bench/build/fuzz-seeds/rocksdb-db
	# Keep the hand-kept seeds (crash regressions and the like): every name the generator
	# does not make (solistore-*, rocksdb<N>-*).
	for f in core/fuzz/seeds/*/*; do case "$$(basename $$f)" in solistore-*|rocksdb[0-9]-*) ;; \
	  *) mkdir -p core/fuzz/seeds.new/$$(basename $$(dirname $$f)) && cp $$f core/fuzz/seeds.new/$$(basename $$(dirname $$f))/;; esac; done
	rm -rf core/fuzz/seeds && mv core/fuzz/seeds.new core/fuzz/seeds

install: build
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/rocksdb $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libsolistore.so
	cd $(DESTDIR)$(PREFIX)/lib && for n in librocksdb.so librocksdb.so.7.8 librocksdb.so.11; do ln -sf libsolistore.so $$n; done
	install -m 644 include/rocksdb/c.h $(DESTDIR)$(PREFIX)/include/rocksdb/c.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' solistore.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/solistore.pc

# `make install` into a scratch PREFIX, then a C program built only from what pkg-config
# says about the installed solistore.pc runs on the installed library, and again linked as
# -lrocksdb through the installed drop-in names (a few seconds).
install-check: build
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  $(MAKE) --no-print-directory install PREFIX="$$tmp/prefix" >/dev/null; \
	  flags=$$(PKG_CONFIG_PATH="$$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs solistore); \
	  echo "install-check: pkg-config --cflags --libs solistore: $$flags"; \
	  $(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$$tmp/qs" bench/quickstart.c $$flags; \
	  LD_LIBRARY_PATH="$$tmp/prefix/lib" "$$tmp/qs" "$$tmp/db1" >/dev/null; \
	  $(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$$tmp/prefix/include" -o "$$tmp/qs2" bench/quickstart.c \
	    -L"$$tmp/prefix/lib" -lrocksdb; \
	  LD_LIBRARY_PATH="$$tmp/prefix/lib" "$$tmp/qs2" "$$tmp/db2" >/dev/null; \
	  echo "install-check: the installed header, library, links and solistore.pc build and run a C program"

clean:
	$(CARGO) clean
	rm -rf tests-c/build bindings-dotnet/out
	$(MAKE) -C bench clean
