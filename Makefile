# solistore: build, test and run targets. `make test` is what CI runs (.ci/run).
CARGO ?= cargo
PROFILE ?= release
PROPTEST_CASES ?= 256
export PROPTEST_CASES

.PHONY: all build test test-rust test-c test-compat abi soak run clean

all: build

build:
	$(CARGO) build --$(PROFILE) -p solistore-capi

# Every test that exists: Rust unit, integration and property tests (core and capi), the
# C ABI gates, and the compatibility tests against Debian's RocksDB 7.8.3.
test: test-rust abi

test-rust:
	$(CARGO) test --release --workspace

abi: build
	$(CARGO) x abi-check --release

# Long runs: the 1,000-kill crash loop and deep property tests.
soak:
	SOLISTORE_CRASH_ITERATIONS=1000 PROPTEST_CASES=5000 $(CARGO) test --release -p solistore --test crash_loop_sigkill --test db_model

clean:
	$(CARGO) clean
