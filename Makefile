# Front door: `make demo` and `make test` work on a fresh Debian 12 machine.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
DEMO       ?= bench/corpus/merge_sort

.PHONY: all deps build asan demo test unit e2e bench clean npm

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

$(ASAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DLT_ASAN=ON -DLT_UBSAN=ON >/dev/null

asan: deps $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The npm packages of the reports (HTML report, schemas, browser driver),
# fetched into $(BUILD)/npm; the report tests fetch them too.
npm: build
	@scripts/fetch-npm.sh $(BUILD)/npm

demo: build
	@rm -f $(BUILD)/demo.db $(BUILD)/demo.db-wal $(BUILD)/demo.db-shm
	$(BUILD)/litmus score $(DEMO) --tests $(DEMO) --db $(BUILD)/demo.db

test: build asan
	@tests/run-all.sh $(BUILD) $(ASAN_BUILD)

unit: build
	cd $(BUILD) && ctest -j 2 --output-on-failure

e2e: build
	@tests/e2e/run.sh $(BUILD)/litmus

bench: build
	@bench/run.sh $(BUILD)/litmus
	@bench/fresh_bench.sh $(BUILD)/litmus

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
