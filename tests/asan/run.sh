#!/usr/bin/env bash
# Fuzz the JSON loaders against an AddressSanitizer build of the compiled modules (docs/fuzzing.md).
#
#   tests/asan/run.sh [EXAMPLES]        # default: 20000 examples per fuzz test
#
# Builds the whole package with -fsanitize=address into build/asan/lib (the in-place modules of the
# working tree are left alone), checks that the modules are instrumented and that the sanitizer reports
# a deliberate heap overflow, then runs every game's loader fuzz tests against that build with libasan
# preloaded (Python itself is not instrumented). Any sanitizer report aborts the run with a non-zero
# status.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${PYTHON:-.venv/bin/python}
examples=${1:-20000}
out=$PWD/build/asan
libasan=$(gcc -print-file-name=libasan.so)
[ -e "$libasan" ] || { echo "no libasan.so for gcc" >&2; exit 1; }

if [ -z "${ORRERY_ASAN_REUSE:-}" ]; then    # ORRERY_ASAN_REUSE=1: run against the last build
    echo "== building with AddressSanitizer into $out/lib"
    rm -rf "$out"
    CFLAGS="-fsanitize=address -fno-omit-frame-pointer -g" LDFLAGS="-fsanitize=address" \
        "$python" setup.py -q build --build-base "$out/build" --build-lib "$out/lib" >"$out.log" 2>&1 \
        || { tail -40 "$out.log" >&2; exit 1; }
fi
for module in "$out"/lib/orrery/core_ext/*.so "$out"/lib/orrery/search/*.so; do
    grep -q __asan_init <(nm -D "$module") || { echo "$module is not instrumented" >&2; exit 1; }
done

export LD_PRELOAD=$libasan
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1
export PYTHONPATH=$out/lib

echo "== the sanitizer is live: a deliberate heap overflow must be reported"
canary='import ctypes; libc = ctypes.CDLL(None); libc.malloc.restype = ctypes.c_void_p
ctypes.string_at(libc.malloc(16), 32)'
if ASAN_OPTIONS=detect_leaks=0 "$python" -c "$canary" 2>"$out.canary"; then    # exits 1, no abort
    echo "the canary overflow went unreported" >&2; exit 1
fi
grep -q "heap-buffer-overflow" "$out.canary" || { cat "$out.canary" >&2; exit 1; }

"$python" -c "import orrery.core_ext.trian.engine as t, sys; sys.exit(not t.__file__.startswith('$out/lib'))" \
    || { echo "orrery does not import from $out/lib" >&2; exit 1; }

# every game's loader fuzz tests: tests/test_fuzz_<game>.py take ORRERY_FUZZ_EXAMPLES (tests/fuzz_json.py),
# tests/test_<game>_fuzz.py run their own example counts
fuzz_tests=$(ls tests/test_fuzz_*.py tests/test_*_fuzz.py 2>/dev/null)
echo "== fuzzing ($(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD)): $examples examples per test" \
    "of tests/test_fuzz_*.py;" $fuzz_tests
ORRERY_FUZZ_MODULES_UNDER=$out/lib ORRERY_FUZZ_EXAMPLES=$examples "$python" -m pytest -p no:cacheprovider -q \
    $fuzz_tests --hypothesis-show-statistics
