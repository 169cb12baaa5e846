#!/usr/bin/env python3
"""Draws ossicle's own sample sprite art (samples/sprites/) with plain Python (no imaging library).

The art is committed; this script documents how it was made and regenerates it byte for byte:
  python3 scripts/gen-sample-art.py
- coin/coin.png: a 3x2 grid sheet (16x16 cells, margin 1, spacing 2) of a spinning coin (+ coin.anim.xml)
- slime/frame_0.png .. frame_7.png: a bouncing slime, 24x24 frames with varying transparent borders
  (a PNG sequence: the host trims and packs them into one atlas)
- knight/knight.json + knight.png: an Aseprite-style JSON (hash) sheet with trimmed frames and tags
"""
import json, math, os, struct, zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples", "sprites")


def write_png(path, w, h, px):
    """px: list of rows of (r, g, b, a)."""
    raw = b"".join(b"\x00" + b"".join(bytes(p) for p in row) for row in px)
    def chunk(t, d):
        c = struct.pack(">I", len(d)) + t + d
        return c + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def blank(w, h):
    return [[(0, 0, 0, 0) for _ in range(w)] for _ in range(h)]


T = (0, 0, 0, 0)
GOLD, GOLD_DARK, GOLD_LIGHT, OUTLINE, WHITE = (248, 200, 40, 255), (184, 120, 16, 255), (255, 240, 128, 255), (64, 32, 8, 255), (255, 255, 255, 255)


def coin_cell(k):
    """Frame k of 6: the coin's visible half-width shrinks and grows as it spins."""
    img = blank(16, 16)
    half = [6.5, 5.0, 2.5, 1.0, 2.5, 5.0][k]
    for y in range(16):
        for x in range(16):
            dx, dy = (x + 0.5 - 8) / half, (y + 0.5 - 8) / 6.5
            d = dx * dx + dy * dy
            if d <= 1.0:
                edge = d > 0.62 or half < 1.5
                img[y][x] = OUTLINE if d > 0.86 else (GOLD_DARK if edge else GOLD)
    if k in (0, 5):  # a glint on the face
        img[5][6] = WHITE
        img[6][6] = GOLD_LIGHT
    return img


def coin():
    cols, rows, margin, spacing, cell = 3, 2, 1, 2, 16
    w = 2 * margin + cols * cell + (cols - 1) * spacing
    h = 2 * margin + rows * cell + (rows - 1) * spacing
    sheet = blank(w, h)
    for k in range(6):
        cx, cy = k % cols, k // cols
        ox, oy = margin + cx * (cell + spacing), margin + cy * (cell + spacing)
        img = coin_cell(k)
        for y in range(cell):
            for x in range(cell):
                sheet[oy + y][ox + x] = img[y][x]
    write_png(os.path.join(ROOT, "coin", "coin.png"), w, h, sheet)


SLIME, SLIME_DARK, SLIME_EYE = (96, 208, 80, 255), (32, 128, 48, 255), (16, 24, 16, 255)


def slime():
    # Bounce: height factor and vertical lift per frame.
    squash = [(1.00, 0), (0.80, 0), (0.70, 0), (1.15, 2), (1.25, 6), (1.10, 8), (0.95, 4), (0.85, 0)]
    for k, (sy, lift) in enumerate(squash):
        img = blank(24, 24)
        rx, ry = 8.5 / math.sqrt(sy), 7.0 * sy
        base = 22 - lift
        for y in range(24):
            for x in range(24):
                dx, dy = (x + 0.5 - 12) / rx, (y + 0.5 - (base - ry)) / ry
                if dy <= 1.0 and dx * dx + dy * dy <= 1.0 and y < base:
                    img[y][x] = SLIME_DARK if dx * dx + dy * dy > 0.7 else SLIME
        ey = int(base - ry * 1.2)
        for ex in (9, 14):
            if 0 <= ey < 24 and img[ey][ex] != T:
                img[ey][ex] = SLIME_EYE
        write_png(os.path.join(ROOT, "slime", f"frame_{k}.png"), 24, 24, img)


ARMOR, ARMOR_DARK, VISOR, PLUME, SKIN_BOOT = (176, 184, 200, 255), (96, 104, 128, 255), (24, 24, 40, 255), (208, 40, 48, 255), (120, 72, 40, 255)


def knight_frame(pose):
    """A 20x28 knight; pose: (step phase -1..1 for the legs, bob 0/1, plume sway)."""
    legs, bob, sway = pose
    img = blank(20, 28)
    def rect(x0, y0, x1, y1, c):
        for y in range(max(0, y0), min(28, y1)):
            for x in range(max(0, x0), min(20, x1)):
                img[y][x] = c
    top = 4 + bob
    rect(6, top, 14, top + 8, ARMOR)          # helmet
    rect(7, top + 3, 13, top + 5, VISOR)      # visor slit
    rect(9 + sway, top - 3, 11 + sway, top, PLUME)
    rect(5, top + 8, 15, top + 17, ARMOR_DARK)  # body
    rect(6, top + 9, 14, top + 16, ARMOR)
    rect(3, top + 9, 5, top + 15, ARMOR_DARK)   # arms
    rect(15, top + 9, 17, top + 15, ARMOR_DARK)
    l = int(round(2 * legs))
    rect(6 + l, top + 17, 9 + l, 27, ARMOR_DARK)  # legs
    rect(11 - l, top + 17, 14 - l, 27, ARMOR_DARK)
    rect(6 + l, 26, 9 + l, 28, SKIN_BOOT)
    rect(11 - l, 26, 14 - l, 28, SKIN_BOOT)
    return img


def trim(img):
    ys = [y for y, row in enumerate(img) if any(p[3] for p in row)]
    xs = [x for x in range(len(img[0])) if any(img[y][x][3] for y in range(len(img)))]
    x0, y0, x1, y1 = xs[0], ys[0], xs[-1] + 1, ys[-1] + 1
    return x0, y0, [row[x0:x1] for row in img[y0:y1]]


def knight():
    poses = [(0, 0, 0), (0, 1, 1), (-1, 0, 0), (0, 1, -1), (1, 0, 0), (0, 1, 1)]
    durations = [300, 300, 120, 120, 120, 120]
    frames = [trim(knight_frame(p)) for p in poses]
    # Pack side by side with 1 px spacing (like Aseprite's "by rows" with padding).
    width = sum(len(f[2][0]) + 1 for f in frames) - 1
    height = max(len(f[2]) for f in frames)
    sheet = blank(width, height)
    out, x = {}, 0
    for i, (fx, fy, img) in enumerate(frames):
        fw, fh = len(img[0]), len(img)
        for yy in range(fh):
            for xx in range(fw):
                sheet[yy][x + xx] = img[yy][xx]
        out[f"knight {i}.aseprite"] = {
            "frame": {"x": x, "y": 0, "w": fw, "h": fh},
            "rotated": False,
            "trimmed": True,
            "spriteSourceSize": {"x": fx, "y": fy, "w": fw, "h": fh},
            "sourceSize": {"w": 20, "h": 28},
            "duration": durations[i],
        }
        x += fw + 1
    write_png(os.path.join(ROOT, "knight", "knight.png"), width, height, sheet)
    doc = {
        "frames": out,
        "meta": {
            "app": "http://www.aseprite.org/",
            "version": "1.3.x (written by ossicle's scripts/gen-sample-art.py)",
            "image": "knight.png",
            "format": "RGBA8888",
            "size": {"w": width, "h": height},
            "scale": "1",
            "frameTags": [
                {"name": "idle", "from": 0, "to": 1, "direction": "pingpong", "color": "#000000ff"},
                {"name": "walk", "from": 2, "to": 5, "direction": "forward", "color": "#000000ff"},
                {"name": "step_once", "from": 2, "to": 3, "direction": "forward", "repeat": "2", "color": "#000000ff"},
            ],
            "layers": [{"name": "Layer 1", "opacity": 255, "blendMode": "normal"}],
            "slices": [],
        },
    }
    with open(os.path.join(ROOT, "knight", "knight.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    coin()
    slime()
    knight()
