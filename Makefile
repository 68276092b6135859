# cardscan: business-card photos to contact records, on this device only.
SWIFT ?= swift
# Tests build with optimisation (and testability kept): image code in a -Onone build is 20x slower.
TEST_FLAGS ?= -Xswiftc -O
# The release tools carry the Swift runtime and Foundation inside them: a process starts without
# loading them as shared libraries (docs/architecture.md, Building).
RELEASE_FLAGS ?= -c release --static-swift-stdlib

.PHONY: setup build tools install install-files scan lint test eval eval-cjk bench bench-book bench-memory bench-serve bench-serve-limits model-standard fixtures fuzz sanitize clean

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

## Installs cardscan, its man page (generated from the argument parser: scripts/man-page.py) and
## its bash, zsh and fish completions under PREFIX (/usr/local), inside DESTDIR when given.
PREFIX ?= /usr/local
DESTDIR ?=
install: tools
	@$(MAKE) --no-print-directory install-files

## install without building first (BIN: the binary to install; the tests install theirs).
BIN ?= .build/release/cardscan
install-files:
	@mkdir -p .build/install
	"$(BIN)" --experimental-dump-help | python3 scripts/man-page.py > .build/install/cardscan.1
	"$(BIN)" --generate-completion-script bash > .build/install/cardscan.bash
	"$(BIN)" --generate-completion-script zsh > .build/install/_cardscan
	"$(BIN)" --generate-completion-script fish > .build/install/cardscan.fish
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$(BIN)" "$(DESTDIR)$(PREFIX)/bin/cardscan"
	install -m 644 .build/install/cardscan.1 "$(DESTDIR)$(PREFIX)/share/man/man1/cardscan.1"
	install -m 644 .build/install/cardscan.bash "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/cardscan"
	install -m 644 .build/install/_cardscan "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_cardscan"
	install -m 644 .build/install/cardscan.fish "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/cardscan.fish"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/cardscan, its man page (man cardscan) and completions"

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
