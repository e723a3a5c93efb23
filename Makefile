# Front door: `make demo` and `make test` work on a fresh Debian 12 machine.
BUILD      ?= build
ASAN_BUILD ?= build-asan
COV_BUILD  ?= build-cov
JOBS       ?= $(shell nproc)
DEMO       ?= bench/corpus/merge_sort
PREFIX     ?= /usr/local

.PHONY: all deps build asan coverage demo test unit e2e bench clean npm install

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

# Objects of sources that moved or left stay in an incremental build:
# scripts/prune-objects.py removes them (coverage and the layers check
# would read them).  The HTML report's npm files are fetched beside the
# binary ($(BUILD)/npm): silent once there, one warning line without npm
# or the registry (the build still succeeds).
build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)
	@scripts/prune-objects.py $(BUILD)
	@scripts/fetch-npm.sh --build $(BUILD)/npm

# The sanitizer build also counts lines (gcov): `make test` prints the
# coverage of its tests without a third test run.  Configured each time so
# that an older build-asan gains the option.  -O1: the sanitizers' cost
# on the hot C paths halves, and gcov still counts every line.
asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DLT_ASAN=ON \
	  -DLT_UBSAN=ON -DLT_COVERAGE=ON -DLT_COVERAGE_OPT=-O1 >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	@scripts/prune-objects.py $(ASAN_BUILD)

# Line coverage alone (no sanitizer): unit and end-to-end tests on a
# --coverage build, the per-module table and HTML in $(COV_BUILD)/coverage.
coverage: deps
	cmake -S . -B $(COV_BUILD) -DCMAKE_BUILD_TYPE=Debug -DLT_COVERAGE=ON >/dev/null
	cmake --build $(COV_BUILD) -j $(JOBS)
	@scripts/prune-objects.py $(COV_BUILD)
	@find $(COV_BUILD) -name '*.gcda' -delete
	@rc=0; \
	(cd $(COV_BUILD) && ctest -j 2 --output-on-failure --timeout 600) || rc=1; \
	tests/e2e/run.sh $(COV_BUILD)/litmus || rc=1; \
	scripts/coverage-report.sh $(COV_BUILD) --html || rc=1; \
	exit $$rc

# The npm packages of the reports (HTML report, schemas, browser driver),
# fetched into $(BUILD)/npm; the report tests fetch them too.
npm: build
	@scripts/fetch-npm.sh $(BUILD)/npm

# litmus, the Java worker's class archive and the report's npm files
# under $(PREFIX): bin/litmus, lib/litmus/java, share/litmus/npm.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

demo: build
	@rm -f $(BUILD)/demo.db $(BUILD)/demo.db-wal $(BUILD)/demo.db-shm
	$(BUILD)/litmus score $(DEMO) --tests $(DEMO) --db $(BUILD)/demo.db

# Ends with the line coverage of the sanitizer build's tests per module,
# checked against .ci/coverage-floor, then the closing count.  The
# sanitizer build (`make asan`, then its old gcov counts deleted) is made
# by tests/run-all.sh beside the suites that need only the release build
# (from a fresh clone it takes a minute of both cores); its log is shown
# if it fails.
test: build
	@LT_ASAN_BUILD_CMD='$(MAKE) --no-print-directory asan' \
	  tests/run-all.sh $(BUILD) $(ASAN_BUILD)

unit: build
	cd $(BUILD) && ctest -j 2 --output-on-failure

e2e: build
	@tests/e2e/run.sh $(BUILD)/litmus

# The corpus against the floor and a process-per-mutant comparator, fresh
# imports, the field workloads (I/O-bound packages, a slow test) and the
# 200-patch triage with repeated patches.
bench: build
	@bench/run.sh $(BUILD)/litmus
	@bench/fresh_bench.sh $(BUILD)/litmus
	@/usr/bin/python3 bench/workloads.py $(BUILD)/litmus
	@bench/patches_bench.sh $(BUILD)/litmus --duplicates

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(COV_BUILD)
