#!/usr/bin/env bash
# Host nanoseconds per call of every Scalar function, f32 and Q16.16 (criterion, kernel/benches/scalar.rs).
#
#   scripts/bench/host-ns.sh                 # short run (1 s per function), prints a Markdown table
#   scripts/bench/host-ns.sh --measurement-time 5 --warm-up-time 2   # any criterion options
#
# The table shows the median time per iteration (one call plus the loop around it) and the net time
# per call: the median minus the median of the empty loop of the same arity and type (`loop1..3`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
ARGS=("$@")
if [[ ${#ARGS[@]} -eq 0 ]]; then ARGS=(--measurement-time 1 --warm-up-time 0.5); fi
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
cargo bench -p ossicle --bench scalar -- "${ARGS[@]}" >"$TARGET/host-ns.log" 2>&1 || { cat "$TARGET/host-ns.log" >&2; exit 1; }

median() { # criterion directory -> median point estimate in ns
    sed -e 's/.*"median":{[^}]*}[^}]*"point_estimate":\([0-9.e+-]*\).*/\1/' "$1/new/estimates.json"
}
# Functions in the order the bench defines them.
mapfile -t NAMES < <(grep -o '^[fq][0-9]*/[a-z0-9_]*' "$TARGET/host-ns.log" | awk -F/ '$1=="f32"{print $2}' | awk '!seen[$0]++')
arity() { grep -o "b\.\(unary\|binary\|ternary\)(\"$1\"" kernel/benches/scalar.rs | head -1 | sed 's/b\.\([a-z]*\).*/\1/' | sed 's/unary/1/;s/binary/2/;s/ternary/3/'; }
echo "| function | f32 ns/call | f32 net ns | Q16.16 ns/call | Q16.16 net ns |"
echo "| --- | ---: | ---: | ---: | ---: |"
for name in "${NAMES[@]}"; do
    [[ "$name" == loop[123] ]] && continue
    a=$(arity "$name")
    row="| $name"
    for ty in f32 q16; do
        m=$(median "$TARGET/criterion/${ty}_$name")
        base=$(median "$TARGET/criterion/${ty}_loop$a")
        row+=$(awk -v m="$m" -v b="$base" 'BEGIN { d = m - b; if (d < 0) d = 0; printf " | %.2f | %.2f", m, d }')
    done
    echo "$row |"
done
echo
echo "Empty loops (ns/iteration): $(for ty in f32 q16; do for a in 1 2 3; do printf '%s/loop%s %.2f  ' $ty $a "$(median "$TARGET/criterion/${ty}_loop$a")"; done; done)"
