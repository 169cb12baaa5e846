#!/usr/bin/env bash
# The main job: builds the bundled samples into blobs with the host tool, shows what is in them, then
# loads them with the kernel: evaluates the foundation sample, renders the tween scene, and renders
# every sample sprite animation (one play-through each) to an animated GIF and a folder of PNG frames
# with frames.json, all drawn by the kernel's blitter. Everything lands in target/demo.
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
# Sprites: the team's sample art (samples/sprites: a grid sheet + .anim.xml, a folder of PNGs +
# .anim.xml, an Aseprite-style JSON sheet) -> one blob -> the kernel's player and blitter -> GIF/PNG.
$bin/ossicle build samples/sprites/coin/coin.anim.xml samples/sprites/slime.anim.xml \
    samples/sprites/knight/knight.json -o target/demo/sprites.osb --scalar q16
$bin/ossicle inspect target/demo/sprites.osb | grep -E '^  (sprite|  animation)'
mkdir -p target/demo/sprites
for anim in coin:spin coin:wobble slime:bounce slime:squish knight:idle knight:walk; do
    sprite=${anim%%:*}; name=${anim#*:}
    $bin/ossicle render target/demo/sprites.osb --sprite "$sprite" --animation "$name" --scale 4 \
        --out "target/demo/sprites/$sprite-$name.gif"
    $bin/ossicle render target/demo/sprites.osb --sprite "$sprite" --animation "$name" \
        --out "target/demo/sprites/$sprite-$name"
done
# The sample sprites in a simulated 160 x 128 handheld screen, redrawn by dirty rectangles (PNG
# frames; `cargo run -p ossicle-examples --features window --bin sprites -- --window` opens a window).
$bin/sprites target/demo/sprites.osb --out target/demo/sprites-scene --frames 240
# A knight driven by its state machine through the kernel's scene runtime
# (samples/scenes/character.scene.xml): a scripted input walks it, makes it jump and hurts it, as PNG
# frames; the run fails unless the machine enters the states the script implies (`cargo run -p
# ossicle-examples --features window --bin character -- --window`: the keyboard drives it).
$bin/character --out target/demo/character
# Skeletal animation: the team's stick figure (samples/skeletal: figure.eva holds the skeleton and the
# walk, idle.evac and wave.evac are bound to it by bone name) built into an f32 and a Q16.16 blob; the
# example walks it with root motion, crossfades to idle, waves the right arm (a one-shot on an arm mask)
# and walks on, in both scalar types, as PNG frames; it fails unless the root moved 480 cm, the
# crossfades and the wave happened, the feet and hands stayed plausible and Q16.16 agrees with f32.
for scalar in f32 q16; do
    $bin/ossicle build samples/skeletal/figure.eva samples/skeletal/idle.evac samples/skeletal/wave.evac \
        -o "target/demo/skeletal.$scalar.osb" --scalar "$scalar"
done
$bin/skeleton target/demo/skeletal.f32.osb target/demo/skeletal.q16.osb --out target/demo/skeleton
echo "skeleton frames: target/demo/skeleton/frame_0000.png ... frame_0384.png"
# Scenes: the castle (a door, a platform, a UI panel, a coin, a knight whose state machine drives its
# sprite) built into one blob with its sprites, then a scripted session run by the kernel's trace
# runner: one JSON line per step with the property writes and the events (docs/trace.md).
$bin/ossicle build samples/scenes/castle.scene.xml -o target/demo/castle.osb --scalar q16
$bin/ossicle inspect target/demo/castle.osb | grep -E '^  (scene|  animator|  machine)'
$bin/ossicle trace target/demo/castle.osb --script samples/scenes/castle.script > target/demo/castle.trace.jsonl
echo "castle trace: $(wc -l < target/demo/castle.trace.jsonl) steps in target/demo/castle.trace.jsonl; the first:"
head -n 1 target/demo/castle.trace.jsonl
echo "demo output: target/demo (sprites: target/demo/sprites/*.gif and PNG folders with frames.json;" \
    "the character: target/demo/character; the skeleton: target/demo/skeleton; the castle's trace: target/demo/castle.trace.jsonl)"
