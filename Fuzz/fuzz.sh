#!/usr/bin/env bash
# Builds and runs the libFuzzer targets (Fuzz/*.swift) against the real TableModel and
# TableStore modules, compiled by SwiftPM with -sanitize=fuzzer,address into .build-fuzz/.
#
#   Fuzz/fuzz.sh build            compile the three targets into .build-fuzz/bin/
#   Fuzz/fuzz.sh run SECONDS      run each target for SECONDS (make fuzz)
#   Fuzz/fuzz.sh smoke RUNS       run each target for RUNS inputs from its seeds (make test)
#
# New inputs found while running go to .build-fuzz/corpus/NAME (the seeds in
# Fuzz/corpus/NAME are only read); a crash is saved as .build-fuzz/crashes/NAME-crash-…
# and makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=.build-fuzz
# A failed check is a fatalError: let libFuzzer report it ("deadly signal") and save the
# input. Swift's own backtracer would run first and trip AddressSanitizer.
export SWIFT_BACKTRACE=enable=no
# The same hash seed in every process, so that a saved crash input fails again when rerun.
export SWIFT_DETERMINISTIC_HASHING=1
SPM="$BUILD/spm"
TARGETS=(json client-message app-file)

source_of() {
  case "$1" in
    json) echo Fuzz/JSONParser.swift ;;
    client-message) echo Fuzz/ClientMessage.swift ;;
    app-file) echo Fuzz/AppDecoder.swift ;;
  esac
}

build() {
  mkdir -p "$BUILD/logs"
  # One flag, not SwiftPM's `--sanitize=fuzzer --sanitize=address`: swiftc keeps only the
  # last of two -sanitize flags, and the modules would get no coverage instrumentation.
  # SwiftPM also builds the page embedder (a plugin's tool) with it, which fails to link
  # (libFuzzer brings its own main) and is of no matter here: its output stays in the log
  # unless the build of TableStore itself fails.
  echo "fuzz: building TableModel and TableStore with -sanitize=fuzzer,address"
  if ! swift build --scratch-path "$SPM" -Xswiftc -sanitize=fuzzer,address \
    --target TableStore >"$BUILD/logs/build.log" 2>&1; then
    cat "$BUILD/logs/build.log" >&2
    exit 1
  fi
  local debug="$SPM/debug"
  if ! objdump -h "$debug/TableModel.build/JSONParser.swift.o" | grep __sancov_cntrs >/dev/null; then
    echo "fuzz: TableModel was built without coverage instrumentation" >&2
    exit 1
  fi
  mkdir -p "$BUILD/bin"
  local model=("$debug"/TableModel.build/*.o)
  local store=("$debug"/TableStore.build/*.o "$debug"/Logging.build/*.o)
  local common=(-sanitize=fuzzer,address -parse-as-library -use-ld=lld -I "$debug/Modules")
  swiftc "${common[@]}" -module-name FuzzJSON "$(source_of json)" "${model[@]}" \
    -o "$BUILD/bin/fuzz-json"
  swiftc "${common[@]}" -module-name FuzzClientMessage "$(source_of client-message)" \
    "${model[@]}" -o "$BUILD/bin/fuzz-client-message"
  # TableStore's swiftmodule refers to the C modules it imports: their module maps, and
  # libpq's headers; its indexed lists sort with the toolchain's ICU (Package.swift's
  # linkedLibrary, which a hand-made link line must name itself).
  swiftc "${common[@]}" -I Sources/CSQLite -I Sources/CPostgres -I Sources/CCrypto \
    $(pkg-config --cflags-only-I libpq | sed 's/-I/-Xcc -I/g') \
    -module-name FuzzAppFile "$(source_of app-file)" "${model[@]}" "${store[@]}" \
    -l_FoundationICU -o "$BUILD/bin/fuzz-app-file"
}

# run_target NAME FOLDER [libFuzzer options…]: runs one target over its seeds, keeping what
# it finds in FOLDER, and prints its figures.
run_target() {
  local name="$1" found="$2"; shift 2
  mkdir -p "$found" "$BUILD/crashes" "$BUILD/logs"
  local log="$BUILD/logs/$name.log"
  local status=0
  "$BUILD/bin/fuzz-$name" "$@" -dict=Fuzz/json.dict -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$BUILD/crashes/$name-" \
    "$found" "Fuzz/corpus/$name" >"$log" 2>&1 || status=$?
  local runs seconds
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
  local corpus
  corpus=$(grep -o 'corp: [0-9]*/[0-9a-zA-Z]*' "$log" | tail -1 | cut -d' ' -f2)
  if [ "$status" -ne 0 ]; then
    echo "fuzz $name: FAILED after ${runs:-?} executions (log: $log)"
    grep -E '(==[0-9]+==ERROR|Fatal error|SUMMARY|Test unit written)' "$log" | head -5
    return 1
  fi
  echo "fuzz $name: ${runs:-?} executions in ${seconds:-?} s, corpus ${corpus:-?} (inputs/bytes), no crash"
}

case "${1:-}" in
  build) build ;;
  run)
    seconds="${2:?seconds}"
    failed=0
    for name in "${TARGETS[@]}"; do
      run_target "$name" "$BUILD/corpus/$name" -max_total_time="$seconds" || failed=1
    done
    exit $failed
    ;;
  smoke)
    runs="${2:?runs}"
    failed=0
    for name in "${TARGETS[@]}"; do
      # The seeds alone and a fixed random seed (what follows still varies a little: libFuzzer
      # learns from compared values, and some of those are addresses).
      rm -rf "$BUILD/corpus/smoke-$name"
      run_target "$name" "$BUILD/corpus/smoke-$name" -runs="$runs" -seed=1 || failed=1
    done
    exit $failed
    ;;
  *) echo "usage: $0 build | run SECONDS | smoke RUNS" >&2; exit 2 ;;
esac
