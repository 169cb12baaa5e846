#!/usr/bin/env bash
# Instructions per call of every Scalar function, f32 and Q16.16, on a Cortex-M4F (QEMU mps2-an386,
# thumbv7em-none-eabihf, hardware f32) and a Cortex-M0 (QEMU microbit, thumbv6m-none-eabi, soft float).
#
#   scripts/bench/qemu-insns.sh            # prints a Markdown table
#   scripts/bench/qemu-insns.sh --raw DIR  # also keeps the firmware output and plugin logs in DIR
#
# How: boards/qemu's `bench` binary calls each function K times between the marker functions
# `bench_start` and `bench_stop`; the TCG plugin scripts/qemu/plugin/insn_count.c counts the guest
# instructions executed in between. Instructions/call = (count - count of the empty loop of the same
# arity and type) / K. Counts are instructions, not cycles, and are exact and repeatable.
# Needs qemu-system-arm (7.2 or newer, with TCG plugin support), gcc, llvm-nm or nm and the two rustup
# targets; installs the missing ones when it can (apt-get as root, rustup).
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

PLUGIN="$WORK/insn_count.so"
gcc -O2 -Wall -shared -fPIC -o "$PLUGIN" "$ROOT/scripts/qemu/plugin/insn_count.c"

run_machine() { # name target qemu-args...
    local name=$1 target=$2; shift 2
    (cd "$BOARD" && CARGO_TARGET_DIR="$BOARD/target" cargo build --quiet --release --bin bench --target "$target")
    local elf="$BOARD/target/$target/release/bench"
    local start stop
    start=$("$NM" "$elf" | awk '$3=="bench_start"{print "0x"$1}')
    stop=$("$NM" "$elf" | awk '$3=="bench_stop"{print "0x"$1}')
    timeout 300 qemu-system-arm "$@" -nographic -semihosting-config enable=on,target=native \
        -plugin "$PLUGIN,start=$start,stop=$stop" -d plugin -D "$WORK/$name.plugin.log" \
        -kernel "$elf" >"$WORK/$name.out"
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

run_machine m4f thumbv7em-none-eabihf -cpu cortex-m4 -machine mps2-an386
run_machine m0 thumbv6m-none-eabi -machine microbit

echo "| function | f32 M4F | f32 M0 | Q16.16 M4F | Q16.16 M0 |"
echo "| --- | ---: | ---: | ---: | ---: |"
awk '
    # Baselines: the empty loops of each (machine, type, arity).
    { m = FILENAME; sub(/.*\//, "", m); sub(/\.tsv$/, "", m) }
    $2 ~ /^loop[0-9]$/ { base[m, $1, $3] = $5; next }
    { per[m, $1, $2] = ($5 - base[m, $1, $3]) / $4; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
    END {
        for (i = 0; i < n; i++) {
            f = order[i]
            printf "| %s | %.1f | %.1f | %.1f | %.1f |\n", f, per["m4f", "f32", f], per["m0", "f32", f], per["m4f", "q16", f], per["m0", "q16", f]
        }
    }
' "$WORK/m4f.tsv" "$WORK/m0.tsv"
echo
echo "Instructions per call (empty loop of the same arity subtracted; K=$(awk 'NR==1{print $4}' "$WORK/m4f.tsv") calls over 8 inputs per function)."
