#!/usr/bin/env bash
# Runs every check of the project: formatting, lints, rustdoc, unit and conformance tests, the
# no_std cross-builds of the kernel (with and without optional features), the fuzz targets' build and lints,
# a cross-check of the SoA jobs against ozz-animation-rs (peers/ozz-rs, on a pinned nightly), and
# the QEMU firmware runs with their checksum comparison against the host.
#
# It installs what is missing (rustup targets and components; Debian's qemu-system-arm and gcc when
# run as root), or says exactly what to install. Set OSSICLE_REQUIRE_FIXTURES=1 to make absent
# third-party fixtures a failure (CI does).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

step() { printf '\n=== %s\n' "$*"; }
started=$(date +%s)

step "toolchain"
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
installed_targets=$(rustup target list --installed)
for t in thumbv6m-none-eabi thumbv7em-none-eabihf; do
  grep -qx "$t" <<<"$installed_targets" || rustup target add "$t"
done
rustc --version; cargo --version

step "rustfmt"
cargo fmt --all -- --check
cargo fmt --manifest-path boards/qemu/Cargo.toml -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo fmt --manifest-path peers/ozz-rs/Cargo.toml -- --check

step "clippy (host, all targets, all features)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p ossicle --all-targets --features fast-math,graphics -- -D warnings
cargo clippy -p ossicle --features defmt -- -D warnings
cargo clippy -p ossicle --features defmt,graphics -- -D warnings

step "rustdoc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

step "tests (unit, doc, conformance)"
cargo test --workspace
cargo test -p ossicle --features fast-math,graphics
# The sprite scene example checks itself: every incrementally redrawn frame equals a full redraw.
cargo run --quiet -p ossicle-examples --bin sprites -- --frames 120 --out target/test-sprites-scene >/dev/null
# The character example checks itself: its state machine enters the states its scripted input implies.
cargo run --quiet -p ossicle-examples --bin character -- --png-every 60 --out target/test-character >/dev/null
# The skeleton example checks itself: root motion, crossfades, the one-shot, pose ranges, f32 = Q16.16.
cargo run --quiet -p ossicle-examples --bin skeleton -- --png-every 64 --out target/test-skeleton >/dev/null

step "SDL2 builds: ossicle sim (host feature sim) and the sprites example's window (feature window)"
# They need SDL2's development files (Debian: libsdl2-dev) to link; installed when run as root with
# apt-get, otherwise the step is skipped with the reason. No window is opened: the sim unit tests draw
# into an off-screen display.
have_sdl2() { command -v sdl2-config >/dev/null 2>&1 || pkg-config --exists sdl2 2>/dev/null; }
if ! have_sdl2 && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing libsdl2-dev (apt-get)"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsdl2-dev >/dev/null; }; then
    echo "apt-get could not install libsdl2-dev" >&2
  fi
fi
if have_sdl2; then
  echo "SDL2 $(sdl2-config --version 2>/dev/null || pkg-config --modversion sdl2)"
  cargo check -p ossicle-host --features sim
  cargo check -p ossicle-examples --features window --bin sprites
  cargo clippy -p ossicle-host --all-targets --features sim -- -D warnings
  cargo clippy -p ossicle-examples --all-targets --features window -- -D warnings
  cargo test -p ossicle-host --features sim --lib sim
else
  echo "skipped: SDL2's development files are missing (no sdl2-config, and pkg-config finds no sdl2) and" \
    "cannot be installed here (that needs root and apt-get); install them (Debian/Ubuntu: sudo apt-get install" \
    "libsdl2-dev; Fedora: sudo dnf install SDL2-devel; macOS: brew install sdl2) to check these builds"
fi

step "kernel cross-builds (no_std, no alloc)"
for t in thumbv6m-none-eabi thumbv7em-none-eabihf; do
  for f in "" "fast-math" "defmt" "graphics" "fast-math,defmt,graphics"; do
    echo "ossicle for $t features [${f}]"
    cargo build -p ossicle --release --target "$t" ${f:+--features "$f"} --quiet
  done
  cargo clippy -p ossicle --target "$t" --features fast-math,defmt,graphics -- -D warnings
done
# No std or alloc anywhere in the kernel's dependency graph (features resolved for the target).
if cargo tree -p ossicle --target thumbv6m-none-eabi --features graphics -e normal,features --prefix none | grep -E 'feature "(std|alloc|use-std)"'; then
  echo "error: a dependency of the kernel enables std or alloc (see above)" >&2
  exit 1
fi
# std is not even in thumbv6m's sysroot, so the builds above prove the kernel and formats are no_std;
# alloc is there, so make sure nothing links it in.
if grep -rn 'extern crate alloc' kernel/src formats/src; then
  echo "error: kernel/format code uses alloc (see above)" >&2
  exit 1
fi

step "fuzz targets build (clippy-clean)"
cargo clippy --manifest-path fuzz/Cargo.toml --all-targets --quiet -- -D warnings

step "peer cross-check: ossicle's sampling, SoA blend, local-to-model and frame against ozz-animation-rs (pinned nightly)"
# An independent implementation of the same jobs (a Rust port of ozz-animation's runtime) on the
# Mixamo poses: the results must agree (scripts/bench/ozz-rs.sh times them for BENCHMARKS.md).
scripts/bench/ozz-rs.sh --check

step "QEMU: firmware (never-panic link), runs on Cortex-M4F and M0, checksums against the host"
scripts/qemu/check.sh --lint

step "instruction-count harness (QEMU TCG plugin; figures are for BENCHMARKS.md, not asserted)"
mkdir -p target
scripts/bench/qemu-insns.sh > target/qemu-insns.txt
grep -c '^| ' target/qemu-insns.txt | xargs -I{} echo "{} table rows measured (target/qemu-insns.txt)"

echo
echo "all checks passed in $(( $(date +%s) - started )) s"
