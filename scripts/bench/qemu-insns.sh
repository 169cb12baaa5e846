#!/usr/bin/env bash
# Instruction counts, f32 and Q16.16, on a Cortex-M4F (QEMU mps2-an386, thumbv7em-none-eabihf,
# hardware f32) and a Cortex-M0 (QEMU microbit, thumbv6m-none-eabi, soft float): every Scalar
# function, every ease curve, the update of one tween, motion, sequence or dynamics channel, the
# update of one sprite player, the sprite blitter per pixel, and the Animator per track, the state
# machine per update (definitions in RAM, and read in place from a blob), a whole scene update, and
# the skeletal jobs per joint on Mixamo's SlowRun (when the fixtures are there).
#
#   scripts/bench/qemu-insns.sh            # prints seven Markdown tables (and the commit measured)
#   scripts/bench/qemu-insns.sh --raw DIR  # also keeps the firmware output and plugin logs in DIR
#
# How: boards/qemu's `bench` binary (src/bin/bench.rs) runs each benchmark between the marker
# functions `bench_start` and `bench_stop`; the TCG plugin scripts/qemu/plugin/insn_count.c counts the
# guest instructions executed in between. Scalar functions and ease curves: instructions/call =
# (count - count of the empty loop of the same arity and type) / K calls. Updates: (count of U updates
# of a pool of M objects) / (U*M), nothing subtracted. Sprites (`bench-sprite`, src/bin/bench-sprite.rs):
# count / U player updates, and count / pixels drawn for the blits (see that file). Animator, state
# machine and scene (`bench-anim`'s in-RAM definitions, `bench-scene`'s read from a blob,
# src/bin/bench-scene.rs): count / (U*tracks) per track, count / U per machine or scene update. Skeletal
# jobs (`bench-skel-f32` and `bench-skel-q16`, src/skel.rs: one image per scalar type, as the four SlowRun
# blobs do not fit one): count / (runs*70) per joint; skipped with a note when the SlowRun blobs are
# missing (check.sh builds them only when ../shared/fixtures or OSSICLE_FIXTURES has SlowRun.eva). Counts are
# instructions, not cycles, and are exact and repeatable: re-run after a kernel change and compare.
# Needs qemu-system-arm (7.2 or newer, with TCG plugin support), gcc, llvm-nm or nm and the two rustup
# targets; installs the missing ones when it can (apt-get as root, rustup). The sprite and scene
# benchmarks embed blobs, which `scripts/qemu/check.sh --blobs-only` builds with the host CLI first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BOARD="$ROOT/boards/qemu"
RAW=""
if [[ "${1:-}" == "--raw" ]]; then RAW="${2:?--raw needs a directory}"; mkdir -p "$RAW"; fi
WORK="$BOARD/target/bench"
mkdir -p "$WORK"

NM=llvm-nm
command -v "$NM" >/dev/null 2>&1 || NM=nm
need() { # command debian-package
    command -v "$1" >/dev/null 2>&1 && return
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
    else
        echo "$1 is missing: install $2 (Debian/Ubuntu: sudo apt-get install $2)" >&2
        exit 2
    fi
}
need qemu-system-arm qemu-system-arm
need gcc gcc
if command -v rustup >/dev/null 2>&1; then
    for t in thumbv7em-none-eabihf thumbv6m-none-eabi; do
        rustup target list --installed | grep -qx "$t" || rustup target add "$t"
    done
fi

# The sprite, scene and SlowRun blobs bench-sprite, bench-scene and bench-skel-* embed
# (boards/qemu/target/blobs, built with the host CLI).
"$ROOT/scripts/qemu/check.sh" --blobs-only >"$WORK/blobs.log" 2>&1 || { cat "$WORK/blobs.log" >&2; exit 1; }

SKEL=1
for f in slowrun-f32 slowrun-q16 slowrun-f32-rq slowrun-q16-rq; do
    [[ -f "$BOARD/target/blobs/$f.osb" ]] || SKEL=0
done
if [[ $SKEL -eq 0 ]]; then
    echo "note: the SlowRun blobs are missing (no fixtures: see scripts/qemu/check.sh): no skeletal table" >&2
fi

PLUGIN="$WORK/insn_count.so"
gcc -O2 -Wall -shared -fPIC -o "$PLUGIN" "$ROOT/scripts/qemu/plugin/insn_count.c"

run_bin() { # machine bin target qemu-args...
    local machine=$1 bin=$2 target=$3; shift 3
    local name="$machine-$bin"
    (cd "$BOARD" && CARGO_TARGET_DIR="$BOARD/target" cargo build --quiet --release --bin "$bin" --target "$target")
    local elf="$BOARD/target/$target/release/$bin"
    local start stop
    start=$("$NM" "$elf" | awk '$3=="bench_start"{print "0x"$1}')
    stop=$("$NM" "$elf" | awk '$3=="bench_stop"{print "0x"$1}')
    timeout 600 qemu-system-arm "$@" -nographic -semihosting-config enable=on,target=native \
        -plugin "$PLUGIN,start=$start,stop=$stop" -d plugin -D "$WORK/$name.plugin.log" \
        -kernel "$elf" >"$WORK/$name.out"
    if grep '^bench-error' "$WORK/$name.out" >&2; then
        echo "$name: a benchmark did not measure what it should (see above)" >&2
        exit 1
    fi
    grep '^bench ' "$WORK/$name.out" | grep -v '^bench done' >"$WORK/$name.names"
    grep '^insns ' "$WORK/$name.plugin.log" >"$WORK/$name.counts"
    if [[ $(wc -l <"$WORK/$name.names") -ne $(wc -l <"$WORK/$name.counts") ]]; then
        echo "$name: $(wc -l <"$WORK/$name.names") benchmarks but $(wc -l <"$WORK/$name.counts") counts" >&2
        exit 1
    fi
    # "type name arity K count"
    paste -d' ' "$WORK/$name.names" "$WORK/$name.counts" | awk '{print $2, $3, $4, $5, $7}' >"$WORK/$name.tsv"
    if [[ -n "$RAW" ]]; then cp "$WORK/$name.out" "$WORK/$name.plugin.log" "$WORK/$name.tsv" "$RAW/"; fi
}

# Each binary's rows follow its own empty loops, so the baselines below are that binary's.
run_machine() { # machine target qemu-args...
    local machine=$1 target=$2; shift 2
    run_bin "$machine" bench "$target" "$@"
    run_bin "$machine" bench-anim "$target" "$@"
    run_bin "$machine" bench-sprite "$target" "$@"
    run_bin "$machine" bench-scene "$target" "$@"
    local skel=()
    if [[ $SKEL -eq 1 ]]; then
        run_bin "$machine" bench-skel-f32 "$target" "$@"
        run_bin "$machine" bench-skel-q16 "$target" "$@"
        skel=("$WORK/$machine-bench-skel-f32.tsv" "$WORK/$machine-bench-skel-q16.tsv")
    fi
    cat "$WORK/$machine-bench.tsv" "$WORK/$machine-bench-anim.tsv" "$WORK/$machine-bench-sprite.tsv" \
        "$WORK/$machine-bench-scene.tsv" "${skel[@]}" >"$WORK/$machine.tsv"
}

run_machine m4f thumbv7em-none-eabihf -cpu cortex-m4 -machine mps2-an386
run_machine m0 thumbv6m-none-eabi -machine microbit

COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git -C "$ROOT" status --porcelain -- kernel boards/qemu 2>/dev/null) ]]; then COMMIT="$COMMIT + uncommitted changes"; fi
echo "Measured at commit $COMMIT ($(qemu-system-arm --version | head -1), $(rustc -V))."
echo

# One table per group: "scalar" (names without a dot), "ease" (ease.*), "sprite" (sprite.*), "blit"
# (blit.*, type px: one figure per machine), "scene" (animator.*, statemachine.*, scene.*), "skel"
# (skel.*), "update" (everything else).
# Baselines are looked up as the rows come: each binary's empty loops come before its functions.
table() { # group title
    if [[ $1 == blit ]]; then
        echo "| $2 | M4F | M0 |"
        echo "| --- | ---: | ---: |"
    else
        echo "| $2 | f32 M4F | f32 M0 | Q16.16 M4F | Q16.16 M0 |"
        echo "| --- | ---: | ---: | ---: | ---: |"
    fi
    awk -v group="$1" '
        { m = FILENAME; sub(/.*\//, "", m); sub(/\.tsv$/, "", m) }
        # Baselines: the empty loops of each (machine, type, arity).
        $2 ~ /^loop[0-9]$/ { base[m, $1, $3] = $5; next }
        {
            g = ($2 ~ /^ease\./) ? "ease" : ($2 ~ /^sprite\./) ? "sprite" : ($2 ~ /^blit\./) ? "blit" : ($2 ~ /^(animator|statemachine|scene)\./) ? "scene" : ($2 ~ /^skel\./) ? "skel" : ($2 ~ /\./) ? "update" : "scalar"
            if (g != group) next
            b = ($3 > 0) ? base[m, $1, $3] : 0
            per[m, $1, $2] = ($5 - b) / $4
            if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 }
        }
        END {
            for (i = 0; i < n; i++) {
                f = order[i]; name = f
                if (group == "ease") sub(/^ease\./, "", name)
                if (group == "skel") sub(/^skel\./, "", name)
                if (group == "blit") {
                    sub(/^blit\./, "", name)
                    printf "| %s | %.1f | %.1f |\n", name, per["m4f", "px", f], per["m0", "px", f]
                } else {
                    printf "| %s | %.1f | %.1f | %.1f | %.1f |\n", name, per["m4f", "f32", f], per["m0", "f32", f], per["m4f", "q16", f], per["m0", "q16", f]
                }
            }
        }
    ' "$WORK/m4f.tsv" "$WORK/m0.tsv"
}
K=$(awk '$2 == "loop1" {print $4; exit}' "$WORK/m4f.tsv")
UM=$(awk '$3 == 0 {print $4; exit}' "$WORK/m4f.tsv")

table scalar function
echo
echo "Instructions per call (empty loop of the same arity subtracted; K=$K calls over 8 inputs per function)."
echo
table ease curve
echo
echo "Instructions per ease(curve, t) call (empty loop subtracted; K=$K calls at t = 0.05 ... 0.97; the curve is read through black_box on every call, so the match on it runs)."
echo
table update "update of one"
echo
echo "Instructions per object update: (count of U updates of a pool of M running objects) / (U*M) = count / $UM, pool loop included, nothing subtracted; values go to a sink that stores them with volatile writes (.null: NullSink)."
echo
table sprite "sprite player"
echo
echo "Instructions per SpritePlayer::update over the coin's spin (6 frames, 10 fps, looping) read in place from an embedded blob: count / $(awk '$2 == "sprite.coin-spin.hold" {print $4; exit}' "$WORK/m4f.tsv") updates; .hold: dt = 1/1024 s (no frame change), .change: dt = one frame (every update shows the next frame and queues its events)."
echo
table blit "blit (32 x 32 frame)"
echo
echo "Instructions per pixel: count / (draws x pixels); integer blits: the 32 x 32 frame's 1024 pixels (a disc, 740 opaque, except .opaque), drawn at (16, 16) into a 64 x 64 RGB565 framebuffer; affine: 30 degrees, scale 1.5 about the centre, per destination pixel sampling inside the frame (f32/q16: the transform's type)."
echo
table scene "Animator, state machine, scene"
echo
echo "Instructions per track update (animator.*: count / (U*tracks)), per state-machine update (statemachine.*) and per Scene::update (scene.*): count / U, U = $(awk '$2 == "statemachine.5-transitions" {print $4; exit}' "$WORK/m4f.tsv"); .blob: the clip or machine read in place from an embedded blob (BlobClips, BlobMachine), otherwise built in RAM (SliceClips, SliceMachine); scene.castle.update: the castle (samples/scenes/castle.scene.xml) in a Scene<S, 16, 4, 8>, half a second in."
if [[ $SKEL -eq 1 ]]; then
    echo
    table skel "Skeletal jobs per joint"
    echo
    echo "Instructions per joint: count / (runs x 70) on Mixamo's SlowRun (70 bones, 52 animated tracks) read in place from an embedded blob of the row's type (slowrun-<type>.osb lossless; rq.*: slowrun-<type>-rq.osb, --reduce 0.01 --quantize), nlerp, every bone (src/skel.rs): sample-fwd: $(awk '$2 == "skel.sample-fwd" {print $4 / 70; exit}' "$WORK/m4f.tsv") SamplingJob runs at 60 Hz with one persistent SamplingContext; sample-seek: $(awk '$2 == "skel.sample-seek" {print $4 / 70; exit}' "$WORK/m4f.tsv") runs at pseudo-random times; blend2: BlendingJob of two sampled poses (0.7 / 0.3); l2m: LocalToModelJob; frame: two forward samples (SlowRun at t and at t + half its duration, a context each), blend2 and l2m, per frame at 60 Hz."
fi
