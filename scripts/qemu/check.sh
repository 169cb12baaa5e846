#!/usr/bin/env bash
# Cross-target check: the kernel on QEMU's Cortex-M4F and Cortex-M0 gives the host's results.
#
#   scripts/qemu/check.sh          # install what is missing, build, run both machines, compare
#   scripts/qemu/check.sh --lint   # also rustfmt --check and clippy -D warnings on the board crate
#
# 1. installs what is missing: the rustup targets thumbv7em-none-eabihf and thumbv6m-none-eabi, and
#    Debian's qemu-system-arm (with apt-get when running as root; otherwise it says what to install);
# 2. builds the Q16.16 and f32 blobs from samples/foundation.json with the host CLI (`ossicle build`);
# 3. builds boards/qemu in release for both targets, with the blobs embedded. The release panic handler
#    calls an undefined function, so this build linking IS the proof that no panic is reachable;
# 4. runs the firmware on mps2-an386 (Cortex-M4F) and microbit (Cortex-M0) with a timeout; each must
#    exit 0 (semihosting exit status) and print its checksums;
# 5. runs tests/tests/qemu.rs with OSSICLE_REQUIRE_QEMU=1: the same workload on the host must give the
#    same checksums, operation by operation (Q16.16 and f32).
# Outputs land in boards/qemu/target/{blobs,qemu}/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BOARD="$ROOT/boards/qemu"
BLOBS="$BOARD/target/blobs"
OUT="$BOARD/target/qemu"
LINT=0
[[ "${1:-}" == "--lint" ]] && LINT=1
TIMEOUT="${OSSICLE_QEMU_TIMEOUT:-120}"
step() { printf '\n== %s\n' "$*"; }

step "toolchain"
TARGETS=(thumbv7em-none-eabihf thumbv6m-none-eabi)
if command -v rustup >/dev/null 2>&1; then
    installed=$(rustup target list --installed)
    for t in "${TARGETS[@]}"; do
        grep -qx "$t" <<<"$installed" || rustup target add "$t"
    done
else
    echo "rustup not found: make sure the Rust standard library for ${TARGETS[*]} is installed" >&2
fi
if ! command -v qemu-system-arm >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "installing qemu-system-arm (apt-get)"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-system-arm >/dev/null
    else
        echo "qemu-system-arm is missing: install it (Debian/Ubuntu: sudo apt-get install qemu-system-arm;" \
            "Fedora: sudo dnf install qemu-system-arm; macOS: brew install qemu), then run this again" >&2
        exit 2
    fi
fi
qemu-system-arm --version | head -1

step "blobs (ossicle build samples/foundation.json)"
mkdir -p "$BLOBS" "$OUT"
(cd "$ROOT" && cargo build --quiet -p ossicle-host --bin ossicle)
OSSICLE_BIN="$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/debug/ossicle"
for enc in q16 f32; do
    "$OSSICLE_BIN" build "$ROOT/samples/foundation.json" -o "$BLOBS/foundation-$enc.osb" --scalar "$enc"
done
export OSSICLE_BLOB_Q16="$BLOBS/foundation-q16.osb"
export OSSICLE_BLOB_F32="$BLOBS/foundation-f32.osb"

step "firmware (release: links only if no panic is reachable)"
for t in "${TARGETS[@]}"; do
    (cd "$BOARD" && CARGO_TARGET_DIR="$BOARD/target" cargo build --quiet --release --target "$t")
    if command -v llvm-size >/dev/null 2>&1; then
        llvm-size "$BOARD/target/$t/release/ossicle-qemu" | awk -v t="$t" 'NR==2 {print "built " t ": flash " $1 + $2 " bytes, static RAM " $2 + $3 " bytes"}'
    else
        echo "built $t"
    fi
done
if [[ $LINT -eq 1 ]]; then
    step "lint (board crate)"
    (cd "$BOARD" && export CARGO_TARGET_DIR="$BOARD/target" && cargo fmt --check && for t in "${TARGETS[@]}"; do
        cargo clippy --quiet --release --target "$t" --all-targets -- -D warnings
    done)
fi

run() { # name target qemu-args...
    local name=$1 target=$2; shift 2
    local rc=0
    timeout "$TIMEOUT" qemu-system-arm "$@" -nographic -semihosting-config enable=on,target=native \
        -kernel "$BOARD/target/$target/release/ossicle-qemu" >"$OUT/$name.txt" 2>"$OUT/$name.stderr" || rc=$?
    grep -E 'checksum|error|^ok|^stack' "$OUT/$name.txt" | sed "s/^/$name: /" || true
    if [[ $rc -ne 0 ]]; then
        echo "$name: QEMU exited with status $rc$([[ $rc -eq 124 ]] && echo " (timeout after ${TIMEOUT}s)")" >&2
        cat "$OUT/$name.txt" "$OUT/$name.stderr" >&2
        exit 1
    fi
}
step "QEMU"
run m4f thumbv7em-none-eabihf -cpu cortex-m4 -machine mps2-an386
run m0 thumbv6m-none-eabi -machine microbit

step "compare with the host (tests/tests/qemu.rs)"
cd "$ROOT"
OSSICLE_REQUIRE_QEMU=1 OSSICLE_QEMU_OUTPUTS="$OUT/m4f.txt:$OUT/m0.txt" \
    cargo test -p ossicle-conformance --test qemu -- --nocapture
