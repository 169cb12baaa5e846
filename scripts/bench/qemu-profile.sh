#!/usr/bin/env bash
# Where one benchmark row of the QEMU bench images spends its instructions: per function (the
# innermost inlined one and the outermost), per source line, and the disassembly annotated with
# execution counts, and the executed instructions by mnemonic (loads and stores from sp apart). A
# tool for optimising (counts are exact, as in qemu-insns.sh).
#
#   scripts/bench/qemu-profile.sh BIN ROW [m4f|m0] [OUTDIR]
#   scripts/bench/qemu-profile.sh bench-skel-f32 skel.direct.sample-fwd m4f /tmp/prof
#
# BIN is a binary of boards/qemu (bench, bench-anim, bench-sprite, bench-scene, bench-skel-f32,
# bench-skel-q16), ROW the name of one of its rows (second field of its `bench` lines). Writes
# OUTDIR/report.txt (the summaries, also printed) and OUTDIR/annotated.txt (every executed
# instruction with its count). Needs what qemu-insns.sh needs, plus llvm-objdump,
# llvm-addr2line and python3.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BOARD="$ROOT/boards/qemu"
BIN=${1:?binary}; ROW=${2:?row}; MACHINE=${3:-m4f}; OUT=${4:-$BOARD/target/profile}
mkdir -p "$OUT"
if [[ $MACHINE == m4f ]]; then TARGET=thumbv7em-none-eabihf; Q=(-cpu cortex-m4 -machine mps2-an386)
else TARGET=thumbv6m-none-eabi; Q=(-machine microbit); fi
"$ROOT/scripts/qemu/check.sh" --blobs-only >"$OUT/blobs.log" 2>&1 || { cat "$OUT/blobs.log" >&2; exit 1; }
BLOBS="$BOARD/target/blobs"
for v in Q16 F32 Q16_RQ F32_RQ; do
    lower=$(tr 'A-Z_' 'a-z-' <<<"$v")
    export "OSSICLE_SKEL_$v=$BLOBS/slowrun-$lower.osb"
done
(cd "$BOARD" && CARGO_TARGET_DIR="$BOARD/target" cargo build --quiet --release --bin "$BIN" --target "$TARGET")
ELF="$BOARD/target/$TARGET/release/$BIN"
gcc -O2 -Wall -shared -fPIC -o "$OUT/hot_pc.so" "$ROOT/scripts/qemu/plugin/hot_pc.c"
start=$(llvm-nm "$ELF" | awk '$3=="bench_start"{print "0x"$1}')
stop=$(llvm-nm "$ELF" | awk '$3=="bench_stop"{print "0x"$1}')
# The row's window: its position among the binary's rows.
timeout 900 qemu-system-arm "${Q[@]}" -nographic -semihosting-config enable=on,target=native -kernel "$ELF" >"$OUT/rows.out"
window=$(grep '^bench ' "$OUT/rows.out" | grep -v '^bench done' | awk -v r="$ROW" '$3 == r {print NR; exit}')
[[ -n $window ]] || { echo "no row $ROW in $BIN" >&2; exit 1; }
K=$(grep '^bench ' "$OUT/rows.out" | awk -v r="$ROW" '$3 == r {print $5; exit}')
timeout 900 qemu-system-arm "${Q[@]}" -nographic -semihosting-config enable=on,target=native \
    -plugin "$OUT/hot_pc.so,start=$start,stop=$stop,window=$window" -d plugin -D "$OUT/pc.log" -kernel "$ELF" >/dev/null
grep '^pc ' "$OUT/pc.log" | awk '{print $2, $3}' >"$OUT/pc.txt"
awk '{print "0x"$1}' "$OUT/pc.txt" | llvm-addr2line -e "$ELF" -f -i -C -a >"$OUT/a2l.txt"
llvm-objdump -d --no-show-raw-insn "$ELF" >"$OUT/disasm.txt"
python3 - "$OUT" "$K" <<'PY'
import collections, re, sys
out, k = sys.argv[1], int(sys.argv[2])
counts = {int(a, 16): int(c) for a, c in (l.split() for l in open(f"{out}/pc.txt"))}
frames, cur, lines, i = {}, None, open(f"{out}/a2l.txt").read().splitlines(), 0
while i < len(lines):
    if lines[i].startswith("0x"):
        cur = int(lines[i], 16); frames[cur] = []; i += 1; continue
    frames[cur].append((lines[i], lines[i + 1] if i + 1 < len(lines) else "")); i += 2
def short(fn):
    for _ in range(4):
        fn = re.sub(r"<[^<>]*>", "", fn)
    return re.sub(r"::h[0-9a-f]{16}$", "", fn)
tot = sum(counts.values())
inner, outer, line = collections.Counter(), collections.Counter(), collections.Counter()
for a, c in counts.items():
    fr = frames.get(a) or [("?", "?")]
    inner[short(fr[0][0])] += c; outer[short(fr[-1][0])] += c; line[fr[0][1].split("/")[-1]] += c
with open(f"{out}/report.txt", "w") as f:
    f.write(f"total {tot} instructions, {tot / k:.1f} per K (K = {k})\n")
    for title, ctr, n in (("innermost function", inner, 30), ("outermost function", outer, 10), ("source line", line, 40)):
        f.write(f"== {title}\n")
        for key, v in ctr.most_common(n):
            f.write(f"{v:10d} {100 * v / tot:5.1f}% {v / k:7.1f}/K  {key}\n")
# Executed instructions by mnemonic; loads and stores addressed from sp (spills, reloads and
# stack copies) apart from the others.
ops = {}
for l in open(f"{out}/disasm.txt"):
    m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", l)
    if m and int(m.group(1), 16) in counts:
        op = m.group(2)
        if op in ("ldr", "str", "ldrb", "strb", "ldrh", "strh") and re.search(r"\[sp\b", m.group(3)):
            op += " [sp]"
        ops[int(m.group(1), 16)] = op
mnem = collections.Counter()
for a, c in counts.items():
    mnem[ops.get(a, "?")] += c
with open(f"{out}/report.txt", "a") as f:
    f.write("== mnemonic\n")
    for key, v in mnem.most_common(20):
        f.write(f"{v:10d} {100 * v / tot:5.1f}% {v / k:7.1f}/K  {key}\n")
with open(f"{out}/annotated.txt", "w") as f:
    for l in open(f"{out}/disasm.txt"):
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)", l)
        if m and int(m.group(1), 16) in counts:
            f.write(f"{m.group(1)} {counts[int(m.group(1), 16)]:9d}  {m.group(2)}\n")
        elif re.match(r"[0-9a-f]+ <", l):
            f.write(f"== {l.strip()}\n")
PY
cat "$OUT/report.txt"
