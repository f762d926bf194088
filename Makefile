# solistore: build, test and run targets. `make test` is what CI runs (.ci/run).
CARGO ?= cargo
PROFILE ?= release
PREFIX ?= /usr/local
PROPTEST_CASES ?= 256
export PROPTEST_CASES
LIBDIR := target/$(PROFILE)
LIB := $(LIBDIR)/libsolistore.so
# The drop-in names live in their own directory: cargo puts target/<profile> on the
# LD_LIBRARY_PATH of the tests it runs, so a librocksdb.so.7.8 there would replace Debian's
# library under `ldb` and `sst_dump` when a test spawns them.
DROPIN := $(LIBDIR)/dropin

.PHONY: all build dropin run run-dotnet test test-rust test-c test-python test-dotnet abi soak install clean
.PHONY: bench bench-quick bench-smoke

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
# binary on Debian's librocksdb 7.8.3 when it is installed (swapped with LD_LIBRARY_PATH).
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
	@if [ -e /usr/lib/x86_64-linux-gnu/librocksdb.so.7.8 ]; then \
	  echo "== a 1-2 minute comparison, solistore / RocksDB 7.8.3 (make bench for the full one)"; \
	  $(MAKE) --no-print-directory -C bench quick SOLISTORE=$(CURDIR)/$(LIB); fi

# The .NET quickstart (bindings-dotnet/examples/Quickstart.cs) on libsolistore, then on
# librocksdb 7.8.3 when installed. Needs Mono (apt-get install mono-devel).
run-dotnet: build
	$(MAKE) -C bindings-dotnet run-example PROFILE=$(PROFILE)

# Every test: Rust unit, integration and property tests (core and capi, including the
# compatibility tests against Debian's RocksDB 7.8.3), the C ABI gates, the C test
# programs against libsolistore, against librocksdb 7.8.3, and as a binary drop-in, the
# Python and .NET bindings on both libraries, and a smoke run of the benchmark driver.
test: test-rust abi test-c test-python test-dotnet bench-smoke

test-rust:
	$(CARGO) test --release --workspace

abi: build
	$(CARGO) x abi-check --release

test-c: build
	$(MAKE) -C tests-c test LIB=all

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

# Long runs: the 1,000-kill crash loop and deep property tests.
soak:
	SOLISTORE_CRASH_ITERATIONS=1000 PROPTEST_CASES=5000 $(CARGO) test --release -p solistore --test crash_loop_sigkill --test db_model
	HYPOTHESIS_EXAMPLES=500 SOLISTORE_LIB=$(CURDIR)/$(LIB) python3 -m pytest bindings-python/tests/test_differential.py -q

install: build
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/rocksdb $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(LIB) $(DESTDIR)$(PREFIX)/lib/libsolistore.so
	cd $(DESTDIR)$(PREFIX)/lib && for n in librocksdb.so librocksdb.so.7.8 librocksdb.so.11; do ln -sf libsolistore.so $$n; done
	install -m 644 include/rocksdb/c.h $(DESTDIR)$(PREFIX)/include/rocksdb/c.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' solistore.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/solistore.pc

clean:
	$(CARGO) clean
	rm -rf tests-c/build bindings-dotnet/out
	$(MAKE) -C bench clean
