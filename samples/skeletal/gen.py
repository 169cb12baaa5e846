#!/usr/bin/env python3
"""Writes the skeletal sample: a 17-bone stick figure (centimetres, Y up, facing +Z, its left on +X)
and three clips on it, as EVA text (`EVA 1`, host/src/sources/eva.rs):

  figure.eva       the skeleton (bind pose) and clip `walk`: 1 s loop, two steps, legs and arms
                   swing, hips bob, the root moves 120 cm forward along +Z (root motion)
  src/idle.eva     the same skeleton and clip `idle`: 2 s loop, breathing (spine, neck, arms)
  src/wave.eva     the same skeleton and clip `wave`: 2 s, not looping, the right arm raised and
                   waving (tracks on the right arm only)

Every key is at a multiple of 1/30 s; the first and last key of a looping channel are equal (the
root's translation excepted), so the loops are seamless. Quaternions are written with 9 decimals
(unit length within 1e-8). Run from anywhere: `python3 samples/skeletal/gen.py`.

The idle and wave clips are shipped as EVAC (idle.evac, wave.evac), bound at build time to the
skeleton of figure.eva; they are made from src/*.eva with the ossicle CLI:

  ossicle build samples/skeletal/src/idle.eva -o idle.osb --scalar f32
  ossicle export-evac idle.osb --clip idle -o samples/skeletal/idle.evac

`python3 samples/skeletal/gen.py --evac` runs those commands too (through `cargo run -p
ossicle-host`, or the binary named by $OSSICLE).
"""
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RATE = 30

# (name, parent, bind translation relative to the parent). Bind rotations are the identity and
# scales 1: the figure stands straight, arms hanging down.
BONES = [
    ("root", -1, (0, 0, 0)),
    ("hips", 0, (0, 95, 0)),
    ("spine", 1, (0, 20, 0)),
    ("neck", 2, (0, 30, 0)),
    ("head", 3, (0, 10, 0)),
    ("upperarm_l", 2, (18, 28, 0)),
    ("forearm_l", 5, (0, -28, 0)),
    ("hand_l", 6, (0, -25, 0)),
    ("upperarm_r", 2, (-18, 28, 0)),
    ("forearm_r", 8, (0, -28, 0)),
    ("hand_r", 9, (0, -25, 0)),
    ("thigh_l", 1, (10, -5, 0)),
    ("shin_l", 11, (0, -43, 0)),
    ("foot_l", 12, (0, -45, 0)),
    ("thigh_r", 1, (-10, -5, 0)),
    ("shin_r", 14, (0, -43, 0)),
    ("foot_r", 15, (0, -45, 0)),
]
INDEX = {name: i for i, (name, _, _) in enumerate(BONES)}

# The walk: 1 s per cycle (two steps), 120 cm per cycle.
STRIDE = 120.0


def quat(axis, degrees):
    """A unit quaternion (x, y, z, w) turning `degrees` about a unit axis ('x', 'y' or 'z')."""
    half = math.radians(degrees) / 2
    s = math.sin(half)
    v = {"x": (s, 0, 0), "y": (0, s, 0), "z": (0, 0, s)}[axis]
    return (*v, math.cos(half))


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def pitch(degrees):
    """Swings a limb that hangs along -Y forward (towards +Z) by `degrees` (about -X)."""
    return quat("x", -degrees)


def times(duration):
    n = round(duration * RATE)
    return [i / RATE for i in range(n + 1)]


def fmt(x):
    s = f"{x:.9f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def write_eva(path, clip, duration, looping, tracks):
    """tracks: {bone name: (translation keys, rotation keys)}, each a list of (t, tuple) or []."""
    lines = ["EVA 1", f"skeleton {len(BONES)}"]
    for i, (name, parent, t) in enumerate(BONES):
        lines.append(f"bone {i} {parent} {name}")
        lines.append(f"bind {i} {' '.join(fmt(v) for v in t)} 0 0 0 1 1 1 1")
    lines += [f"clip {clip}", f"duration {fmt(duration)}", f"loop {int(looping)}", f"rate {RATE}"]
    for name in sorted(tracks, key=INDEX.get):
        pos, rot = tracks[name]
        lines.append(f"track {INDEX[name]} {len(pos)} {len(rot)} 0")
        for t, v in pos:
            lines.append(f"p {fmt(t)} {' '.join(fmt(x) for x in v)}")
        for t, q in rot:
            assert abs(math.sqrt(sum(c * c for c in q)) - 1) < 1e-8
            lines.append(f"r {fmt(t)} {' '.join(fmt(x) for x in q)}")
    lines.append("end")
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {os.path.relpath(path)}: clip {clip!r}, {duration} s, {len(tracks)} tracks")


def bind(name):
    return BONES[INDEX[name]][2]


def walk():
    ts = times(1.0)
    tau = 2 * math.pi
    tracks = {}
    # The root carries the forward motion: linear, two keys.
    tracks["root"] = ([(0.0, (0, 0, 0)), (1.0, (0, 0, STRIDE))], [])
    # Hips: lowest just after each heel strike (t = 0 and 0.5), a slight roll with the steps.
    hx, hy, hz = bind("hips")
    tracks["hips"] = (
        [(t, (hx, hy - 1.5 + 1.5 * math.cos(2 * tau * t - 0.6), hz)) for t in ts],
        [(t, quat("y", 4 * math.sin(tau * t))) for t in ts],
    )
    tracks["spine"] = ([], [(t, qmul(pitch(4), quat("y", -6 * math.sin(tau * t)))) for t in ts])
    tracks["neck"] = ([], [(t, pitch(-3)) for t in (0.0, 1.0)])
    tracks["head"] = ([], [(t, quat("y", 3 * math.sin(tau * t))) for t in ts])
    for side, phase in (("l", 0.0), ("r", 0.5)):
        # Thigh forward at its heel strike (t = phase), back half a cycle later.
        swing = [22 * math.cos(tau * (t - phase)) for t in ts]
        # The knee bends most in the swing (after toe-off), a little under load.
        knee = [8 + 30 * max(0.0, math.sin(tau * (t - phase - 0.55))) ** 1.5 for t in ts]
        tracks[f"thigh_{side}"] = ([], [(t, pitch(s)) for t, s in zip(ts, swing)])
        tracks[f"shin_{side}"] = ([], [(t, pitch(-k)) for t, k in zip(ts, knee)])
        # The foot stays near level: it undoes most of thigh and knee.
        tracks[f"foot_{side}"] = ([], [(t, pitch(-(s - k) * 0.8)) for t, s, k in zip(ts, swing, knee)])
        # The arm swings against the leg of its side.
        arm = [-20 * math.cos(tau * (t - phase)) for t in ts]
        tracks[f"upperarm_{side}"] = ([], [(t, pitch(a)) for t, a in zip(ts, arm)])
        tracks[f"forearm_{side}"] = ([], [(t, pitch(15 + 10 * max(0.0, a) / 20)) for t, a in zip(ts, arm)])
    return tracks


def idle():
    ts = times(2.0)
    tau = 2 * math.pi
    breath = [math.sin(tau * t / 2) for t in ts]  # one breath per 2 s loop
    hx, hy, hz = bind("hips")
    tracks = {
        "hips": ([(t, (hx, hy - 0.3 - 0.3 * b, hz)) for t, b in zip(ts, breath)], []),
        "spine": ([], [(t, pitch(-1.5 * b)) for t, b in zip(ts, breath)]),
        "neck": ([], [(t, pitch(1.0 * b)) for t, b in zip(ts, breath)]),
        "head": ([], [(t, pitch(2 + 1.0 * b)) for t, b in zip(ts, breath)]),
    }
    for side, sign in (("l", 1), ("r", -1)):
        # Arms a little away from the body, opening as the chest rises.
        tracks[f"upperarm_{side}"] = ([], [(t, quat("z", sign * (4 + 2 * b))) for t, b in zip(ts, breath)])
        tracks[f"forearm_{side}"] = ([], [(t, pitch(8)) for t in (0.0, 2.0)])
    return tracks


def smooth(x):
    x = min(1.0, max(0.0, x))
    return x * x * (3 - 2 * x)


def wave():
    ts = times(2.0)
    tracks = {}
    arm, fore, hand = [], [], []
    for t in ts:
        # Raise over 0.4 s, wave for 1.2 s (three waves), lower over the last 0.4 s.
        r = smooth(t / 0.4) * smooth((2.0 - t) / 0.4)
        w = math.sin(2 * math.pi * 2.5 * (t - 0.4)) if 0.4 <= t <= 1.6 else 0.0
        # The right arm hangs along -Y with its side at -X: turning about -Z lifts it out and up.
        arm.append((t, quat("z", -100 * r)))
        fore.append((t, quat("z", -r * (60 + 25 * w))))
        hand.append((t, quat("z", -r * 10 * w)))
    tracks["upperarm_r"] = ([], arm)
    tracks["forearm_r"] = ([], fore)
    tracks["hand_r"] = ([], hand)
    return tracks


def run_evac():
    cli = os.environ.get("OSSICLE")
    cmd = [cli] if cli else ["cargo", "run", "--quiet", "-p", "ossicle-host", "--"]
    with tempfile.TemporaryDirectory() as tmp:
        for clip in ("idle", "wave"):
            blob = os.path.join(tmp, f"{clip}.osb")
            src = os.path.join(HERE, "src", f"{clip}.eva")
            subprocess.run(cmd + ["build", src, "-o", blob, "--scalar", "f32"], check=True, cwd=HERE)
            out = os.path.join(HERE, f"{clip}.evac")
            subprocess.run(cmd + ["export-evac", blob, "--clip", clip, "-o", out], check=True, cwd=HERE)
            print(f"wrote {os.path.relpath(out)}")


def main():
    write_eva(os.path.join(HERE, "figure.eva"), "walk", 1.0, True, walk())
    write_eva(os.path.join(HERE, "src", "idle.eva"), "idle", 2.0, True, idle())
    write_eva(os.path.join(HERE, "src", "wave.eva"), "wave", 2.0, False, wave())
    if "--evac" in sys.argv[1:]:
        run_evac()


if __name__ == "__main__":
    main()
