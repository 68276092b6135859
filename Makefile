# cardscan: business-card photos to contact records, on this device only.
SWIFT ?= swift
# Tests build with optimisation (and testability kept): image code in a -Onone build is 20x slower.
TEST_FLAGS ?= -Xswiftc -O
# The release tools carry the Swift runtime and Foundation inside them: a process starts without
# loading them as shared libraries (docs/architecture.md, Building).
RELEASE_FLAGS ?= -c release --static-swift-stdlib

.PHONY: setup build tools scan lint test eval eval-cjk bench bench-book bench-memory bench-serve bench-serve-limits model-standard fixtures fuzz sanitize clean

setup:
	@bash scripts/setup.sh

build: setup
	@$(MAKE) --no-print-directory tools

## The release tools, product by product: building every product would also link GRDB's dynamic
## library, which cannot take a static Swift runtime (ld: cannot find -lCoreFoundation).
TOOLS = cardscan cardscan-bench
tools:
	@for tool in $(TOOLS); do echo "$(SWIFT) build $(RELEASE_FLAGS) --product $$tool"; \
	  $(SWIFT) build $(RELEASE_FLAGS) --product $$tool || exit 1; done

## Sets everything up, builds, and scans the fixture cards: one JSON record per card on stdout.
scan: build
	.build/release/cardscan scan Fixtures/Cards

## Structure: no function in Sources, Swift or C, over 50 lines (scripts/long-functions.py lists them).
lint:
	python3 scripts/long-functions.py --limit 50

## Sets everything up (with what only the tests need: chromium), builds, and runs the whole test suite;
## the last line counts the tests passed, failed and skipped, and a test cancelled for a reason
## Tests/cancellations.txt does not list fails the run (scripts/run-tests.py).
test:
	@bash scripts/setup.sh --tests
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory tools
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	python3 scripts/run-tests.py $(SWIFT) test --skip-build $(TEST_FLAGS)

## Accuracy: scans Fixtures/Cards (and ../shared/eval/dev when present) and scores the records.
eval: build
	bash scripts/eval.sh

## Accuracy on Japanese, Chinese and Korean cards: 64 generated photos (EVAL_SEED, default the time), scored.
eval-cjk: build
	bash scripts/eval-cjk.sh

## Benchmark: cardscan against `tesseract FILE stdout` on the same photos, in one run (BENCH_DIR, BENCH_RUNS).
bench: build
	bash scripts/bench.sh "$(BENCH_DIR)" "$(BENCH_RUNS)"

## The contact book: 10,000 contacts added one transaction each (as scan --db adds them), then listed.
bench-book: build
	.build/release/cardscan-bench book 10000

## Peak memory for 10 and for 1,000 photos (BENCH_DIR, BENCH_COUNT).
bench-memory: build
	bash scripts/bench-memory.sh "$(BENCH_DIR)" "$(BENCH_COUNT)"

## `cardscan serve` against a process per card and the batch, 1/2/8 clients, then SOAK_SECONDS at full load with its RSS.
SOAK_SECONDS ?= 600
bench-serve: build
	.build/release/cardscan-bench serve $(or $(BENCH_DIR),$(if $(wildcard ../shared/eval/dev),../shared/eval/dev,Fixtures/Cards)) --soak $(SOAK_SECONDS)

## `cardscan serve` against exhaustion: STARTS starts on bad paths, descriptors run out, slowloris (scripts/bench-serve-limits.sh).
STARTS ?= 100
bench-serve-limits: build
	bash scripts/bench-serve-limits.sh $(STARTS)

## tessdata's standard English model, for --model standard (the default model is Debian's).
model-standard:
	bash scripts/install-standard-model.sh

## Fuzzing: libFuzzer + AddressSanitizer over the parsers of untrusted bytes (FUZZ_SECONDS per target).
FUZZ_SECONDS ?= 60
fuzz: setup
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

## The test suite under AddressSanitizer + UndefinedBehaviorSanitizer, then ThreadSanitizer.
sanitize: setup
	bash scripts/sanitize.sh

## Regenerates Fixtures/Cards (needs Pillow and numpy: pip install Pillow numpy).
fixtures:
	python3 scripts/make_fixtures.py

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan
