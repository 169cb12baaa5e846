#!/usr/bin/env bash
# Flash bytes per frame of every sprite fixture and sample, for each pixel storage, against the size
# of the source file(s) it came from. Prints a Markdown table (for BENCHMARKS.md).
#
#   scripts/bench/sprite-flash.sh [FIXTURES_DIR]   # default: ../shared/fixtures or $OSSICLE_FIXTURES
#
# "pixels" is what `ossicle build` reports per sprite: palette + frame records + pixel data (frames
# with identical pixels stored once); divided by the number of frames. "source" is the source file's
# size (the .aseprite file, or the JSON sheet's PNG page(s), or the PNG files of a folder), divided
# by the frames too. indexed = the smallest indexed format that holds the colours (— above 256
# colours); rgb565 rounds colours it cannot hold exactly (marked *).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FIX="${1:-${OSSICLE_FIXTURES:-$ROOT/../shared/fixtures}}"
cd "$ROOT"
cargo build --release --quiet -p ossicle-host --bin ossicle
BIN="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release/ossicle"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# name|input|source files (for the source size)
sources=(
  "aseprite/beetle|$FIX/aseprite/beetle.aseprite|$FIX/aseprite/beetle.aseprite"
  "aseprite/countAndColours|$FIX/aseprite/countAndColours.aseprite|$FIX/aseprite/countAndColours.aseprite"
  "aseprite/man|$FIX/aseprite/man.aseprite|$FIX/aseprite/man.aseprite"
  "aseprite/sample_test_file|$FIX/aseprite/sample_test_file.aseprite|$FIX/aseprite/sample_test_file.aseprite"
  "aseprite-json/beetle|$FIX/aseprite-json/beetle.json|$FIX/aseprite-json/beetle.png"
  "aseprite-json/countAndColours|$FIX/aseprite-json/countAndColours.json|$FIX/aseprite-json/countAndColours.png"
  "texturepacker/building1|$FIX/texturepacker/building1.json|$FIX/texturepacker/building1.png"
  "texturepacker/multi-pack|$FIX/texturepacker/multi-pack-0.json|$FIX/texturepacker/multi-pack-0.png $FIX/texturepacker/multi-pack-1.png"
  "samples/coin|samples/sprites/coin/coin.anim.xml|samples/sprites/coin/coin.png"
  "samples/slime|samples/sprites/slime|$(echo samples/sprites/slime/*.png)"
  "samples/knight|samples/sprites/knight/knight.json|samples/sprites/knight/knight.png"
)
storages=("auto|--pixels auto" "indexed|--pixels indexed --rle never" "indexed+RLE|--pixels indexed --rle always"
  "rgb565|--pixels rgb565le --rle never" "rgb565+RLE|--pixels rgb565le --rle always"
  "rgb888|--pixels rgb888 --rle never" "rgb888+RLE|--pixels rgb888 --rle always")

header="| sprite | frames | colours | source B/frame |"
rule="|---|---|---|---|"
for st in "${storages[@]}"; do header+=" ${st%%|*} |"; rule+="---|"; done
echo "$header"
echo "$rule"
for entry in "${sources[@]}"; do
  IFS='|' read -r name input srcfiles <<<"$entry"
  src=0
  for f in $srcfiles; do src=$((src + $(stat -c %s "$f"))); done
  row=""
  frames=""
  colours=""
  for st in "${storages[@]}"; do
    label=${st%%|*}; args=${st#*|}
    # shellcheck disable=SC2086
    if out=$("$BIN" build "$input" -o "$TMP/x.osb" $args 2>&1); then
      line=$(grep -m1 '^sprite ' <<<"$out")
      n=$(sed -n 's/^sprite [^:]*: \([0-9]*\) frames.*/\1/p' <<<"$line")
      bytes=$(sed -n 's/.*pixels \([0-9]*\) flash bytes.*/\1/p' <<<"$line")
      fmt=$(sed -n 's/.* colours, \([a-z0-9]*\) + .*/\1/p' <<<"$line")
      colours=$(sed -n 's/.* animations, \([0-9]*\) colours.*/\1/p' <<<"$line")
      frames=$n
      q=""; grep -q 'rounded to RGB565' <<<"$out" && q="*"
      cell="$(( (bytes + n / 2) / n ))$q"
      [[ $label == auto ]] && cell+=" ($fmt)"
      row+=" $cell |"
    else
      row+=" — |"
    fi
  done
  echo "| $name | $frames | $colours | $(( (src + frames / 2) / frames )) |$row"
done
