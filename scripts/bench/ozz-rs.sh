#!/usr/bin/env bash
# ossicle's sampling, SoA blending and local-to-model jobs and a whole frame side by side with
# ozz-animation-rs 0.11 (a Rust port of ozz-animation's runtime), same machine, same Mixamo clips:
# peers/ozz-rs. Prints the largest differences between the two libraries' results (failing when
# they disagree), then a markdown table of ns per joint.
#
#   scripts/bench/ozz-rs.sh           compare, then time (release build)
#   scripts/bench/ozz-rs.sh --check   the crate's tests, then compare only (the test script's
#                                     step; debug build)
#
# ozz-animation-rs is written on std::simd, so it needs a nightly toolchain; the newest nightly
# renamed a std::simd method it uses, so the toolchain is pinned. It is installed (minimal profile)
# when missing; when that is impossible the step says so and exits 0, or 1 with
# OSSICLE_REQUIRE_PEERS=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
toolchain=nightly-2025-09-01
if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
  echo "installing the $toolchain toolchain (minimal profile) for ozz-animation-rs"
  if ! rustup toolchain install "$toolchain" --profile minimal >/dev/null; then
    if [[ ${OSSICLE_REQUIRE_PEERS:-0} == 1 ]]; then
      echo "error: rustup could not install $toolchain, which ozz-animation-rs (std::simd) needs" >&2
      exit 1
    fi
    echo "skipped: rustup could not install $toolchain, which ozz-animation-rs (std::simd) needs" >&2
    exit 0
  fi
fi
manifest=peers/ozz-rs/Cargo.toml
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}/peers
if [[ ${1:-} == --check ]]; then
  # The animation writer's own tests (ozz's key encodings), then the comparisons.
  RUSTFLAGS="-D warnings" cargo "+$toolchain" test --quiet --manifest-path "$manifest"
  RUSTFLAGS="-D warnings" cargo "+$toolchain" run --quiet --manifest-path "$manifest" -- --check
else
  RUSTFLAGS="-D warnings" cargo "+$toolchain" run --quiet --release --manifest-path "$manifest" -- "$@"
fi
