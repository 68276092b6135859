#!/usr/bin/env bash
# make sanitize: the test suite under AddressSanitizer + UndefinedBehaviorSanitizer (every test,
# the end-to-end ones running the sanitized binary), then the concurrent parts (batch scanning,
# engine pools, record streams, the CLI's hardening cases) under ThreadSanitizer (the malformed
# corpus of the end-to-end suite takes over half an hour under TSan on 2 cores, so it is left out).
#
# Only Swift and the project's C code are instrumented; Tesseract, leptonica, libjpeg ... are
# Debian's builds. Leak detection is off: Tesseract and Foundation keep process-lifetime caches.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

echo "== AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite"
# swiftc has no -sanitize=undefined on Linux: UBSan instruments the C code (the shims), Swift
# traps on overflow and out-of-bounds access itself.
UBSAN=(-Xcc -fsanitize=undefined -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
$SWIFT build --build-tests --build-path .build-asan --sanitize=address "${UBSAN[@]}" 2>&1 | grep -v "Cannot export" | tail -1
CARDSCAN_BINARY=$PWD/.build-asan/debug/cardscan \
  $SWIFT test --skip-build --build-path .build-asan --sanitize=address "${UBSAN[@]}" 2>&1 | tee .build-asan/test.log | tail -3
if grep -E "ERROR: AddressSanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer" .build-asan/test.log; then
  echo "sanitize: a sanitizer reported an error (.build-asan/test.log)"; exit 1
fi

echo "== ThreadSanitizer: batch scanning, engine pools, record streams, the CLI's hardening cases"
$SWIFT build --build-tests --build-path .build-tsan --sanitize=thread 2>&1 | tail -1
CARDSCAN_BINARY=$PWD/.build-tsan/debug/cardscan \
  $SWIFT test --skip-build --build-path .build-tsan --sanitize=thread \
  --filter 'CardScannerTests|RecordStreamTests|OCREngineTests|HardeningTests' 2>&1 | tee .build-tsan/test.log | tail -3
if grep -E "WARNING: ThreadSanitizer" .build-tsan/test.log; then
  echo "sanitize: ThreadSanitizer reported a race (.build-tsan/test.log)"; exit 1
fi
echo "sanitize: clean"
