#!/usr/bin/env bash
# Cross-target check: the kernel on QEMU's Cortex-M4F and Cortex-M0 gives the host's results.
#
#   scripts/qemu/check.sh          # install what is missing, build, run both machines, compare
#   scripts/qemu/check.sh --lint   # also rustfmt --check and clippy -D warnings on the board crate
#   scripts/qemu/check.sh --blobs-only  # only step 2 (scripts/bench/qemu-insns.sh uses it)
#
# 1. installs what is missing: the rustup targets thumbv7em-none-eabihf and thumbv6m-none-eabi, and
#    Debian's qemu-system-arm (with apt-get when running as root; otherwise it says what to install);
# 2. builds the blobs with the host CLI (`ossicle build`): Q16.16 and f32 from samples/foundation.json
#    (the workload), and four sprite blobs from the sample sprites with different pixel storage
#    (boards/qemu/build.rs lists them), printing each sprite's storage report, and the scene
#    image's castle (samples/scenes/castle.scene.xml, Q16.16 and f32) and the scene
#    benchmark's definitions (boards/qemu/scenes/bench.scene.xml), and, when the fixtures are there
#    (../shared/fixtures from the repository, or OSSICLE_FIXTURES), Mixamo's SlowRun for the skeletal
#    benchmark and the skeletal conformance images (f32 and Q16.16, lossless and --reduce 0.01
#    --quantize; skipped with a note otherwise), and the stick figure (samples/skeletal) for the
#    skeletal conformance images;
# 3. builds boards/qemu in release for both targets, with the blobs embedded: the main image
#    (`ossicle-qemu`, the workload), the sprite image (`sprites`), the scene image (`scene`) and
#    the skeletal conformance images (`skeleton-q16`, `skeleton-f32`): separate images, as their
#    code and blobs together do not fit the M0's 256 KiB of flash. The release panic handler calls
#    an undefined function, so this build linking IS the proof that no panic is reachable;
# 4. runs both images on mps2-an386 (Cortex-M4F) and microbit (Cortex-M0) with a timeout; each must
#    exit 0 (semihosting exit status); the main image prints its checksums, the sprite image its
#    sprite frames' CRCs, the scene image the castle's trace over samples/scenes/castle.script
#    (Q16.16 and f32), the skeletal images the kernel's skeletal trace (ossicle::skeleton::trace) of the stick figure
#    and SlowRun;
# 5. runs tests/tests/qemu.rs, qemu_sprites.rs, qemu_scene.rs and qemu_skeleton.rs with
#    OSSICLE_REQUIRE_QEMU=1: the same workload on the host must give the same checksums, operation by
#    operation (Q16.16 and f32), the same sprite play-throughs must give the same frames and CRCs,
#    which must also equal the host's own render (`ossicle render`'s code) of those frames, pixel for
#    pixel, `ossicle trace` of the castle must print the scene image's trace, line for line, and
#    the skeletal trace on the host must equal the skeletal images', line for line
#    (tests/tests/qemu_skeleton.rs).
# Outputs land in boards/qemu/target/{blobs,qemu}/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BOARD="$ROOT/boards/qemu"
BLOBS="$BOARD/target/blobs"
OUT="$BOARD/target/qemu"
LINT=0
BLOBS_ONLY=0
for arg in "$@"; do
    case "$arg" in
        --lint) LINT=1 ;;
        --blobs-only) BLOBS_ONLY=1 ;;
        *) echo "usage: $0 [--lint | --blobs-only]" >&2; exit 2 ;;
    esac
done
TIMEOUT="${OSSICLE_QEMU_TIMEOUT:-120}"
step() { printf '\n== %s\n' "$*"; }

build_blobs() {
    step "blobs (ossicle build samples/foundation.json, sample sprites, scenes)"
    mkdir -p "$BLOBS"
    (cd "$ROOT" && cargo build --quiet -p ossicle-host --bin ossicle)
    local bin
    bin="$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/debug/ossicle"
    for enc in q16 f32; do
        "$bin" build "$ROOT/samples/foundation.json" -o "$BLOBS/foundation-$enc.osb" --scalar "$enc"
    done
    # The sprite blobs of boards/qemu/build.rs (tests/tests/qemu_sprites.rs builds the same when run alone).
    local coin="$ROOT/samples/sprites/coin/coin.anim.xml" slime="$ROOT/samples/sprites/slime.anim.xml"
    sprite_blob() { # label ossicle-build-arguments...
        local label=$1
        shift
        echo "sprites-$label.osb: ossicle build ${*//$ROOT\//}"
        "$bin" build "$@" -o "$BLOBS/sprites-$label.osb" | sed 's/^/  /'
    }
    sprite_blob q16-auto "$coin" "$slime" --scalar q16
    # With a mask the coin's frame 3 (no transparent pixel) is stored without one: an opaque frame.
    sprite_blob f32-mask "$coin" "$slime" --scalar f32 --pixels rgb565be --rle never --transparency mask
    sprite_blob q16-i8rle "$coin" "$slime" --scalar q16 --pixels indexed8 --rle always
    sprite_blob f32-565le "$coin" "$slime" --scalar f32 --pixels rgb565le
    # The scene image's castle (tests/tests/qemu_scene.rs builds the same when run alone) and the
    # scene benchmark's definitions (boards/qemu/scenes/bench.scene.xml).
    for enc in q16 f32; do
        echo "castle-$enc.osb: ossicle build samples/scenes/castle.scene.xml --scalar $enc"
        "$bin" build "$ROOT/samples/scenes/castle.scene.xml" -o "$BLOBS/castle-$enc.osb" --scalar "$enc" | sed 's/^/  /'
        echo "bench-scene-$enc.osb: ossicle build boards/qemu/scenes/bench.scene.xml --scalar $enc"
        "$bin" build "$BOARD/scenes/bench.scene.xml" -o "$BLOBS/bench-scene-$enc.osb" --scalar "$enc" | sed 's/^/  /'
    done
    # The skeletal conformance image's stick figure (boards/qemu/src/skeltrace.rs;
    # tests/tests/qemu_skeleton.rs builds the same when run alone).
    local sk="$ROOT/samples/skeletal"
    for enc in q16 f32; do
        echo "figure-$enc.osb: ossicle build samples/skeletal/{figure.eva,idle.evac,wave.evac} --scalar $enc"
        "$bin" build "$sk/figure.eva" "$sk/idle.evac" "$sk/wave.evac" -o "$BLOBS/figure-$enc.osb" --scalar "$enc" | sed 's/^/  /'
    done
    # The skeletal benchmark's SlowRun (boards/qemu/src/skel.rs), also traced by the skeletal
    # conformance image, only when the fixtures
    # are there: the skeleton images skip their SlowRun runs without them (and qemu_skeleton.rs fails
    # under OSSICLE_REQUIRE_FIXTURES=1); scripts/bench/qemu-insns.sh needs them.
    local fixtures="${OSSICLE_FIXTURES:-$ROOT/../shared/fixtures}"
    local slowrun="$fixtures/eva/SlowRun.eva"
    if [[ -f $slowrun ]]; then
        for enc in q16 f32; do
            echo "slowrun-$enc.osb: ossicle build $slowrun --scalar $enc"
            "$bin" build "$slowrun" -o "$BLOBS/slowrun-$enc.osb" --scalar "$enc" | sed 's/^/  /'
            echo "slowrun-$enc-rq.osb: ossicle build $slowrun --scalar $enc --reduce 0.01 --quantize"
            "$bin" build "$slowrun" -o "$BLOBS/slowrun-$enc-rq.osb" --scalar "$enc" --reduce 0.01 --quantize | sed 's/^/  /'
        done
    else
        echo "note: $slowrun not found (set OSSICLE_FIXTURES): skipping the SlowRun blobs (the skeleton images skip their SlowRun runs)"
        rm -f "$BLOBS"/slowrun-*.osb
    fi
}
if [[ $BLOBS_ONLY -eq 1 ]]; then
    build_blobs
    exit 0
fi

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

build_blobs
mkdir -p "$OUT"
export OSSICLE_BLOB_Q16="$BLOBS/foundation-q16.osb"
export OSSICLE_BLOB_F32="$BLOBS/foundation-f32.osb"
export OSSICLE_SPRITES_Q16_AUTO="$BLOBS/sprites-q16-auto.osb"
export OSSICLE_SPRITES_F32_MASK="$BLOBS/sprites-f32-mask.osb"
export OSSICLE_SPRITES_Q16_I8RLE="$BLOBS/sprites-q16-i8rle.osb"
export OSSICLE_SPRITES_F32_565LE="$BLOBS/sprites-f32-565le.osb"
export OSSICLE_SCENE_Q16="$BLOBS/castle-q16.osb"
export OSSICLE_SCENE_F32="$BLOBS/castle-f32.osb"
export OSSICLE_SCENE_SCRIPT="$ROOT/samples/scenes/castle.script"
export OSSICLE_BENCH_SCENE_Q16="$BLOBS/bench-scene-q16.osb"
export OSSICLE_BENCH_SCENE_F32="$BLOBS/bench-scene-f32.osb"
export OSSICLE_FIGURE_Q16="$BLOBS/figure-q16.osb"
export OSSICLE_FIGURE_F32="$BLOBS/figure-f32.osb"
for v in Q16 F32 Q16_RQ F32_RQ; do
    lower=$(tr 'A-Z_' 'a-z-' <<<"$v")
    export "OSSICLE_SKEL_$v=$BLOBS/slowrun-$lower.osb"
done

step "firmware (release: links only if no panic is reachable)"
for t in "${TARGETS[@]}"; do
    (cd "$BOARD" && CARGO_TARGET_DIR="$BOARD/target" cargo build --quiet --release --target "$t" --bin ossicle-qemu --bin sprites --bin scene --bin skeleton-q16 --bin skeleton-f32)
    for bin in ossicle-qemu sprites scene skeleton-q16 skeleton-f32; do
        if command -v llvm-size >/dev/null 2>&1; then
            llvm-size "$BOARD/target/$t/release/$bin" | awk -v t="$t" -v b="$bin" 'NR==2 {print "built " b " for " t ": flash " $1 + $2 " bytes, static RAM " $2 + $3 " bytes"}'
        else
            echo "built $bin for $t"
        fi
    done
done
if [[ $LINT -eq 1 ]]; then
    step "lint (board crate)"
    (cd "$BOARD" && export CARGO_TARGET_DIR="$BOARD/target" && cargo fmt --check && for t in "${TARGETS[@]}"; do
        cargo clippy --quiet --release --target "$t" --all-targets -- -D warnings
    done)
fi

run() { # name bin target qemu-args...
    local name=$1 bin=$2 target=$3; shift 3
    local rc=0
    timeout "$TIMEOUT" qemu-system-arm "$@" -nographic -semihosting-config enable=on,target=native \
        -kernel "$BOARD/target/$target/release/$bin" >"$OUT/$name.txt" 2>"$OUT/$name.stderr" || rc=$?
    grep -E 'checksum|error|^sprites |^scene |^trace .* end|^skeleton-trace .* (end|skipped)|^ok|^stack' "$OUT/$name.txt" | sed "s/^/$name: /" || true
    if [[ $rc -ne 0 ]]; then
        echo "$name: QEMU exited with status $rc$([[ $rc -eq 124 ]] && echo " (timeout after ${TIMEOUT}s)")" >&2
        cat "$OUT/$name.txt" "$OUT/$name.stderr" >&2
        exit 1
    fi
}
step "QEMU"
run m4f ossicle-qemu thumbv7em-none-eabihf -cpu cortex-m4 -machine mps2-an386
run m0 ossicle-qemu thumbv6m-none-eabi -machine microbit
run sprites-m4f sprites thumbv7em-none-eabihf -cpu cortex-m4 -machine mps2-an386
run sprites-m0 sprites thumbv6m-none-eabi -machine microbit
run scene-m4f scene thumbv7em-none-eabihf -cpu cortex-m4 -machine mps2-an386
run scene-m0 scene thumbv6m-none-eabi -machine microbit
for ty in q16 f32; do
    run skeleton-$ty-m4f skeleton-$ty thumbv7em-none-eabihf -cpu cortex-m4 -machine mps2-an386
    run skeleton-$ty-m0 skeleton-$ty thumbv6m-none-eabi -machine microbit
done

step "compare with the host (tests/tests/qemu.rs, qemu_sprites.rs, qemu_scene.rs, qemu_skeleton.rs)"
cd "$ROOT"
OSSICLE_REQUIRE_QEMU=1 OSSICLE_QEMU_OUTPUTS="$OUT/m4f.txt:$OUT/m0.txt" \
    OSSICLE_QEMU_SPRITES_OUTPUTS="$OUT/sprites-m4f.txt:$OUT/sprites-m0.txt" \
    OSSICLE_QEMU_SCENE_OUTPUTS="$OUT/scene-m4f.txt:$OUT/scene-m0.txt" \
    OSSICLE_QEMU_SKELETON_OUTPUTS="$OUT/skeleton-q16-m4f.txt:$OUT/skeleton-q16-m0.txt:$OUT/skeleton-f32-m4f.txt:$OUT/skeleton-f32-m0.txt" \
    cargo test -p ossicle-conformance --test qemu --test qemu_sprites --test qemu_scene --test qemu_skeleton -- --nocapture
