#!/usr/bin/env bash
# Skeletal jobs on the Mixamo clips (70 bones), ns per joint, f32 and Q16.16, clips in RAM and read
# in place from a lossless blob: host/benches/skeleton.rs (see its docs for what each row does).
#
#   scripts/bench/skeleton-ns.sh            # runs the bench, prints a Markdown table
#   scripts/bench/skeleton-ns.sh --no-run   # only prints the table from the last run
#   scripts/bench/skeleton-ns.sh --min      # the bench's min mode (OSSICLE_SKEL_MIN): each row's
#                                           # fastest 20 µs batch, steady on a busy machine
#
# Needs the fixtures (../shared/fixtures or OSSICLE_FIXTURES). ns/joint = criterion's median per
# iteration (one whole skeleton) / 70, or with --min the fastest batch's time per iteration / 70.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
JOBS="sample_fwd sample_fwd_cached sample_fwd_direct sample_seek sample_seek_direct blend2 blend2_soa l2m l2m_soa l2m_soa_padded frame frame_soa frame_cached frame_direct frame_soa_direct frame_soa_direct_padded"
MODE="${1:-}"
if [[ "$MODE" == "--min" ]]; then
    out=$(cd "$ROOT" && OSSICLE_SKEL_MIN= cargo bench -p ossicle-host --bench skeleton 2>/dev/null | grep -E '^(f32|q16)_(ram|blob)/')
    # One cell: the min-mode line of group $1, clip $2, job $3.
    cell() { awk -v n="$1/$2/$3" '$1 == n {printf "%.1f", $2}' <<<"$out"; }
else
    if [[ "$MODE" != "--no-run" ]]; then
        (cd "$ROOT" && cargo bench -p ossicle-host --bench skeleton -- --measurement-time 2 --warm-up-time 0.5 >/dev/null)
    fi
    # One cell: criterion's median for group $1, clip $2, job $3, per joint.
    cell() {
        local f="$TARGET/criterion/$1/$2/$3/new/estimates.json"
        [[ -f "$f" ]] || f="$TARGET/criterion/$1/${2}_$3/new/estimates.json"
        [[ -f "$f" ]] || return 0
        python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["median"]["point_estimate"] / 70))' "$f"
    }
fi
printf '| clip | job | f32 RAM | f32 blob | Q16.16 RAM | Q16.16 blob |\n|---|---|---:|---:|---:|---:|\n'
for clip in Idle Jumping SlowRun; do
    for job in $JOBS; do
        row="| $clip | $job"
        for g in f32_ram f32_blob q16_ram q16_blob; do
            v=$(cell "$g" "$clip" "$job")
            row="$row | ${v:-–}"
        done
        echo "$row |"
    done
done
