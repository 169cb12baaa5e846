#!/usr/bin/env bash
# The main job: builds the bundled sample source into blobs (Q16.16 and f32) with the host tool,
# shows what is in them, then loads them with the kernel and evaluates them.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/demo
cargo build --release --quiet -p ossicle-host -p ossicle-examples
bin="${CARGO_TARGET_DIR:-target}/release"
$bin/ossicle build samples/foundation.json -o target/demo/foundation.q16.osb --scalar q16
$bin/ossicle build samples/foundation.json -o target/demo/foundation.f32.osb --scalar f32
$bin/ossicle inspect target/demo/foundation.q16.osb
$bin/foundation target/demo/foundation.q16.osb target/demo/foundation.f32.osb
# Tweens and motions: a UI slide-in, a coin pop and a screen shake, as PNG frames.
$bin/tweens target/demo/tweens
