//! The sprite blitter (`ossicle::draw`) against a per-pixel reference renderer written here.
//!
//! Frames are encoded by a small encoder in this file (raw rows, mask rows, colour key, row RLE)
//! from test images of stored values; the reference computes each destination pixel from the test
//! image by the flip/rotation/scale formulas of the module documentation, and colours by rounding
//! formulas written out in f64. A recording draw target checks that every draw goes through
//! horizontal `fill_contiguous`/`fill_solid` spans (never `draw_iter`), one per opaque run, inside
//! the target's bounding box, each pixel written once.
#![cfg(feature = "graphics")]

use core::convert::Infallible;
use core::fmt::Debug;
use embedded_graphics_core::draw_target::DrawTarget;
use embedded_graphics_core::geometry::{Dimensions, Point, Size};
use embedded_graphics_core::pixelcolor::{
    Bgr565, Bgr888, BinaryColor, Gray8, IntoStorage, PixelColor, Rgb565, Rgb888, RgbColor,
};
use embedded_graphics_core::primitives::Rectangle;
use embedded_graphics_core::Pixel;
use ossicle::draw::{
    affine_bounds, convert_palette, decode_row, draw_frame, draw_frame_affine, frame_bounds, render_bands, BandBuffer,
    DrawError, DrawOptions, RenderError, SpriteColor,
};
use ossicle::math::{Affine2, Vec2};
use ossicle::sprite::{Appearance, DirtyRects, Rect, RectExt, Rotation, SpriteOutput};
use ossicle::{Scalar, Q16};
use ossicle_format::sprite::{FramePixels, PixelFormat, Transparency};

const FORMATS: [PixelFormat; 7] = [
    PixelFormat::Indexed1,
    PixelFormat::Indexed2,
    PixelFormat::Indexed4,
    PixelFormat::Indexed8,
    PixelFormat::Rgb565Le,
    PixelFormat::Rgb565Be,
    PixelFormat::Rgb888,
];
const ROTATIONS: [Rotation; 4] = [Rotation::Deg0, Rotation::Deg90, Rotation::Deg180, Rotation::Deg270];

// ---------------------------------------------------------------------------------------------
// Deterministic generator.

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }
}

// ---------------------------------------------------------------------------------------------
// Reference colours: rounding formulas in f64.

/// RGB565 channels into 8 bits by bit replication (the blob format's and the host's expansion:
/// the top bits repeated into the low ones).
fn expand(v: u32, max: u32) -> u8 {
    let bits = if max == 63 { 6 } else { 5 };
    ((v << (8 - bits)) | (v >> (2 * bits - 8))) as u8
}
fn reduce(v: u8, max: u32) -> u8 {
    (v as f64 * max as f64 / 255.0).round() as u8
}

/// A target colour with the reference conversions.
trait TestColor: SpriteColor + Debug {
    fn ref_888(r: u8, g: u8, b: u8) -> Self;
    fn ref_565(v: u16) -> Self;
}

fn split565(v: u16) -> (u32, u32, u32) {
    (u32::from(v >> 11), u32::from((v >> 5) & 63), u32::from(v & 31))
}

impl TestColor for Rgb888 {
    fn ref_888(r: u8, g: u8, b: u8) -> Self {
        Rgb888::new(r, g, b)
    }
    fn ref_565(v: u16) -> Self {
        let (r, g, b) = split565(v);
        Rgb888::new(expand(r, 31), expand(g, 63), expand(b, 31))
    }
}
impl TestColor for Bgr888 {
    fn ref_888(r: u8, g: u8, b: u8) -> Self {
        Bgr888::new(r, g, b)
    }
    fn ref_565(v: u16) -> Self {
        let (r, g, b) = split565(v);
        Bgr888::new(expand(r, 31), expand(g, 63), expand(b, 31))
    }
}
impl TestColor for Rgb565 {
    fn ref_888(r: u8, g: u8, b: u8) -> Self {
        Rgb565::new(reduce(r, 31), reduce(g, 63), reduce(b, 31))
    }
    fn ref_565(v: u16) -> Self {
        let (r, g, b) = split565(v);
        Rgb565::new(r as u8, g as u8, b as u8)
    }
}
impl TestColor for Bgr565 {
    fn ref_888(r: u8, g: u8, b: u8) -> Self {
        Bgr565::new(reduce(r, 31), reduce(g, 63), reduce(b, 31))
    }
    fn ref_565(v: u16) -> Self {
        let (r, g, b) = split565(v);
        Bgr565::new(r as u8, g as u8, b as u8)
    }
}

/// The reference colour of a stored value, `None` when it has none (index beyond the palette).
fn ref_color<C: TestColor>(fmt: PixelFormat, palette: &[u8], over: Option<&[C]>, v: u32) -> Option<C> {
    match fmt {
        PixelFormat::Rgb565Le | PixelFormat::Rgb565Be => Some(C::ref_565(v as u16)),
        PixelFormat::Rgb888 => Some(C::ref_888((v >> 16) as u8, (v >> 8) as u8, v as u8)),
        _ => match over {
            Some(o) => o.get(v as usize).copied(),
            None => palette.get(3 * v as usize..3 * v as usize + 3).map(|t| C::ref_888(t[0], t[1], t[2])),
        },
    }
}

#[test]
fn colour_conversions_match_the_rounding_formulas() {
    // Every RGB565 value into the four target types, every 8-bit channel value into the 565 ones.
    for v in 0..=u16::MAX {
        assert_eq!(Rgb565::from_rgb565_raw(v), Rgb565::ref_565(v));
        assert_eq!(Bgr565::from_rgb565_raw(v), Bgr565::ref_565(v));
        assert_eq!(Rgb888::from_rgb565_raw(v), Rgb888::ref_565(v));
        assert_eq!(Bgr888::from_rgb565_raw(v), Bgr888::ref_565(v));
    }
    for c in 0..=255u8 {
        for (r, g, b) in [(c, 0, 0), (0, c, 0), (0, 0, c), (c, 255 - c, c / 2)] {
            assert_eq!(Rgb565::from_rgb888(r, g, b), Rgb565::ref_888(r, g, b));
            assert_eq!(Bgr565::from_rgb888(r, g, b), Bgr565::ref_888(r, g, b));
            assert_eq!(Rgb888::from_rgb888(r, g, b), Rgb888::new(r, g, b));
            assert_eq!(Bgr888::from_rgb888(r, g, b), Bgr888::new(r, g, b));
        }
    }
    // RGB565 into Rgb565 is the stored value itself.
    assert_eq!(Rgb565::from_rgb565_raw(0xABCD).into_storage(), 0xABCD);
    // Grey and binary targets: BT.601 luma (77 R + 150 G + 29 B + 128) / 256, on at 128.
    for (r, g, b) in [(255u8, 255u8, 255u8), (0, 0, 0), (200, 10, 30), (10, 200, 30), (90, 90, 90)] {
        let luma = ((77 * r as u32 + 150 * g as u32 + 29 * b as u32 + 128) / 256) as u8;
        assert_eq!(Gray8::from_rgb888(r, g, b), Gray8::new(luma));
        assert_eq!(BinaryColor::from_rgb888(r, g, b), BinaryColor::from(luma >= 128));
    }
    assert_eq!(Gray8::from_rgb565_raw(0xFFFF), Gray8::new(255));
}

// ---------------------------------------------------------------------------------------------
// Test images and the encoder.

/// An image of stored values (palette index, RGB565 value, 0xRRGGBB); `None` is transparent.
#[derive(Clone, Debug)]
struct Img {
    w: usize,
    h: usize,
    px: Vec<Option<u32>>,
}

impl Img {
    fn get(&self, x: i64, y: i64) -> Option<u32> {
        if x < 0 || y < 0 || x >= self.w as i64 || y >= self.h as i64 {
            return None;
        }
        self.px[y as usize * self.w + x as usize]
    }
}

fn value_range(fmt: PixelFormat) -> u32 {
    match fmt {
        PixelFormat::Rgb565Le | PixelFormat::Rgb565Be => 1 << 16,
        PixelFormat::Rgb888 => 1 << 24,
        f => 1 << f.bits(),
    }
}

/// Palette triples for an indexed format: `n` entries of distinct colours.
fn palette(n: u32) -> Vec<u8> {
    (0..n).flat_map(|i| [(i * 37 + 11) as u8, (i * 91 + 3) as u8, (255 - (i * 13) % 256) as u8]).collect()
}

/// An image with runs of equal values (so RLE runs occur) and, if `transparent`, transparent
/// stretches; values below `values`.
fn make_img(w: usize, h: usize, values: u32, transparent: bool, rng: &mut Lcg) -> Img {
    let mut px = Vec::with_capacity(w * h);
    for _ in 0..h {
        let mut prev: Option<u32> = None;
        for x in 0..w {
            let p = if x > 0 && rng.chance(45) {
                prev
            } else if transparent && rng.chance(30) {
                None
            } else {
                Some(rng.below(values))
            };
            px.push(p);
            prev = p;
        }
    }
    Img { w, h, px }
}

fn put_value(fmt: PixelFormat, v: u32, out: &mut Vec<u8>) {
    match fmt {
        PixelFormat::Rgb565Le => out.extend((v as u16).to_le_bytes()),
        PixelFormat::Rgb565Be => out.extend((v as u16).to_be_bytes()),
        PixelFormat::Rgb888 => out.extend([(v >> 16) as u8, (v >> 8) as u8, v as u8]),
        _ => out.push(v as u8),
    }
}

/// Raw rows; transparent pixels are stored as `fill`.
fn pack_raw(fmt: PixelFormat, img: &Img, fill: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..img.h {
        let mut row = vec![0u8; (img.w * fmt.bits() as usize).div_ceil(8)];
        for x in 0..img.w {
            let v = img.px[y * img.w + x].unwrap_or(fill);
            match fmt.bits() {
                b @ (1 | 2 | 4) => {
                    let b = b as usize;
                    let bit = x * b; // leftmost pixel in the most significant bits
                    row[bit / 8] |= (v as u8) << (8 - b - bit % 8);
                }
                _ => {
                    let mut bytes = Vec::new();
                    put_value(fmt, v, &mut bytes);
                    let n = bytes.len();
                    row[x * n..x * n + n].copy_from_slice(&bytes);
                }
            }
        }
        out.extend(row);
    }
    out
}

fn pack_mask(img: &Img) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..img.h {
        let mut row = vec![0u8; img.w.div_ceil(8)];
        for x in 0..img.w {
            if img.px[y * img.w + x].is_some() {
                row[x / 8] |= 0x80 >> (x % 8);
            }
        }
        out.extend(row);
    }
    out
}

/// Row RLE: skips for transparent pixels, runs for 3 or more equal values, literals otherwise.
/// With `trim`, a row's trailing transparent pixels are not encoded (the stream ends early).
fn encode_rle(fmt: PixelFormat, img: &Img, trim: bool) -> Vec<u8> {
    let mut streams: Vec<Vec<u8>> = Vec::new();
    for y in 0..img.h {
        let row = &img.px[y * img.w..(y + 1) * img.w];
        let end = if trim { row.iter().rposition(|p| p.is_some()).map_or(0, |i| i + 1) } else { img.w };
        let mut s = Vec::new();
        let mut x = 0;
        while x < end {
            match row[x] {
                None => {
                    let n = row[x..end].iter().take_while(|p| p.is_none()).count().min(64);
                    s.push(0x3F + n as u8);
                    x += n;
                }
                Some(v) => {
                    let same = row[x..end].iter().take_while(|p| **p == Some(v)).count();
                    if same >= 3 {
                        let n = same.min(128);
                        s.push(0x7F + n as u8);
                        put_value(fmt, v, &mut s);
                        x += n;
                    } else {
                        let mut lit = Vec::new();
                        while x < end && lit.len() < 64 {
                            let Some(v) = row[x] else { break };
                            if !lit.is_empty() && row[x..end].iter().take_while(|p| **p == Some(v)).count() >= 3 {
                                break;
                            }
                            lit.push(v);
                            x += 1;
                        }
                        s.push(lit.len() as u8 - 1);
                        for v in lit {
                            put_value(fmt, v, &mut s);
                        }
                    }
                }
            }
        }
        streams.push(s);
    }
    rle_with_table(&streams)
}

/// The row-offset table followed by the streams.
fn rle_with_table(streams: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut off = 4 * streams.len() as u32;
    for s in streams {
        out.extend(off.to_le_bytes());
        off += s.len() as u32;
    }
    for s in streams {
        out.extend(s);
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Opaque,
    Key,
    Mask,
    Rle,
}

/// A frame's data as the blob would hold it, and the image it encodes.
#[derive(Clone, Debug)]
struct Sprite {
    fmt: PixelFormat,
    kind: Kind,
    img: Img,
    palette: Vec<u8>,
    key: u32,
    data: Vec<u8>,
    mask: Option<Vec<u8>>,
    x: i16,
    y: i16,
    canvas: (u16, u16),
}

impl Sprite {
    fn frame(&self) -> FramePixels<'_> {
        FramePixels {
            format: self.fmt,
            transparency: match self.kind {
                Kind::Opaque | Kind::Rle => Transparency::None,
                Kind::Key => Transparency::ColorKey,
                Kind::Mask => Transparency::Mask,
            },
            key: self.key,
            palette: &self.palette,
            x: self.x,
            y: self.y,
            width: self.img.w as u16,
            height: self.img.h as u16,
            rle: self.kind == Kind::Rle,
            data: &self.data,
            mask: self.mask.as_deref(),
        }
    }
}

fn sprite_from(fmt: PixelFormat, kind: Kind, mut img: Img, rng: &mut Lcg) -> Sprite {
    let range = value_range(fmt);
    let pal = if fmt.is_indexed() { palette(range) } else { Vec::new() };
    let mut key = 0;
    let data = match kind {
        Kind::Opaque => {
            for p in &mut img.px {
                p.get_or_insert(rng.below(range));
            }
            pack_raw(fmt, &img, 0)
        }
        Kind::Key => {
            key = rng.below(range);
            // An opaque pixel must not equal the key.
            for p in img.px.iter_mut().flatten() {
                if *p == key {
                    *p = (key + 1) % range;
                }
            }
            pack_raw(fmt, &img, key)
        }
        Kind::Mask => pack_raw(fmt, &img, rng.below(range)),
        Kind::Rle => encode_rle(fmt, &img, rng.chance(50)),
    };
    let mask = (kind == Kind::Mask).then(|| pack_mask(&img));
    Sprite { fmt, kind, img, palette: pal, key, data, mask, x: 2, y: 1, canvas: (11, 9) }
}

fn sprite(fmt: PixelFormat, kind: Kind, seed: u64) -> Sprite {
    let mut rng = Lcg(seed);
    let img = make_img(7, 5, value_range(fmt), kind != Kind::Opaque, &mut rng);
    sprite_from(fmt, kind, img, &mut rng)
}

// ---------------------------------------------------------------------------------------------
// The recording target.

/// A framebuffer over `area` that records how it is drawn to and checks the span contract.
struct Rec<C> {
    area: Rectangle,
    px: Vec<Option<C>>,
    writes: Vec<u8>,
    contiguous: usize,
    solid: usize,
}

impl<C: PixelColor + Debug> Rec<C> {
    fn new(x: i32, y: i32, w: u32, h: u32) -> Self {
        let n = (w * h) as usize;
        Self {
            area: Rectangle::new(Point::new(x, y), Size::new(w, h)),
            px: vec![None; n],
            writes: vec![0; n],
            contiguous: 0,
            solid: 0,
        }
    }

    fn calls(&self) -> usize {
        self.contiguous + self.solid
    }

    fn span(&mut self, area: &Rectangle, colors: impl Iterator<Item = C>) {
        assert_eq!(area.size.height, 1, "spans are one row high: {area:?}");
        assert!(area.size.width > 0, "empty span");
        let (x0, y) = (area.top_left.x as i64, area.top_left.y as i64);
        let (bx, by) = (self.area.top_left.x as i64, self.area.top_left.y as i64);
        let (bw, bh) = (self.area.size.width as i64, self.area.size.height as i64);
        assert!(
            y >= by && y < by + bh && x0 >= bx && x0 + area.size.width as i64 <= bx + bw,
            "span {area:?} outside the bounding box {:?}",
            self.area
        );
        let colors: Vec<C> = colors.collect();
        assert_eq!(colors.len(), area.size.width as usize, "span {area:?} got {} colours", colors.len());
        for (i, c) in colors.into_iter().enumerate() {
            let at = ((y - by) * bw + x0 + i as i64 - bx) as usize;
            self.px[at] = Some(c);
            self.writes[at] += 1;
            assert_eq!(self.writes[at], 1, "pixel {},{} written twice", x0 + i as i64, y);
        }
    }
}

impl<C: PixelColor> Dimensions for Rec<C> {
    fn bounding_box(&self) -> Rectangle {
        self.area
    }
}

impl<C: PixelColor + Debug> DrawTarget for Rec<C> {
    type Color = C;
    type Error = Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<C>>>(&mut self, _: I) -> Result<(), Infallible> {
        panic!("the blitter must not draw pixel by pixel");
    }

    fn fill_contiguous<I: IntoIterator<Item = C>>(&mut self, area: &Rectangle, colors: I) -> Result<(), Infallible> {
        self.contiguous += 1;
        self.span(area, colors.into_iter());
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: C) -> Result<(), Infallible> {
        self.solid += 1;
        self.span(area, std::iter::repeat_n(color, area.size.width as usize));
        Ok(())
    }
}

/// Maximal horizontal runs of drawn pixels.
fn runs<C>(px: &[Option<C>], w: usize) -> usize {
    px.chunks(w)
        .map(|row| (0..row.len()).filter(|&i| row[i].is_some() && (i == 0 || row[i - 1].is_none())).count())
        .sum()
}

fn assert_same<C: PartialEq + Debug>(got: &[Option<C>], want: &[Option<C>], area: Rectangle, what: &str) {
    let w = area.size.width as usize;
    for (i, (g, e)) in got.iter().zip(want).enumerate() {
        if g != e {
            let (x, y) = (area.top_left.x + (i % w) as i32, area.top_left.y + (i / w) as i32);
            panic!("{what}: pixel ({x}, {y}) is {g:?}, expected {e:?}");
        }
    }
    assert_eq!(got.len(), want.len());
}

// ---------------------------------------------------------------------------------------------
// The reference renderer.

#[derive(Clone, Copy, Debug)]
struct Look {
    flip_h: bool,
    flip_v: bool,
    rot: Rotation,
    scale: u8,
}

const PLAIN: Look = Look { flip_h: false, flip_v: false, rot: Rotation::Deg0, scale: 1 };

/// What `draw_frame` must produce on `area`: for each destination pixel, the block of the rotated
/// canvas it lies in, that pixel's flipped-canvas position (undoing the clockwise turn), the
/// canvas position (undoing the flips), and the image pixel there.
fn reference<C: TestColor>(sp: &Sprite, over: Option<&[C]>, at: Point, l: Look, area: Rectangle) -> Vec<Option<C>> {
    let (cw, ch) = (sp.canvas.0 as i64, sp.canvas.1 as i64);
    let s = l.scale as i64;
    let mut out = Vec::new();
    for y in area.rows() {
        for x in area.columns() {
            let rx = (x as i64 - at.x as i64).div_euclid(s);
            let ry = (y as i64 - at.y as i64).div_euclid(s);
            let (fx, fy) = match l.rot {
                Rotation::Deg0 => (rx, ry),
                Rotation::Deg90 => (ry, ch - 1 - rx),
                Rotation::Deg180 => (cw - 1 - rx, ch - 1 - ry),
                Rotation::Deg270 => (cw - 1 - ry, rx),
            };
            let cx = if l.flip_h { cw - 1 - fx } else { fx };
            let cy = if l.flip_v { ch - 1 - fy } else { fy };
            let v = sp.img.get(cx - sp.x as i64, cy - sp.y as i64);
            out.push(v.and_then(|v| ref_color(sp.fmt, &sp.palette, over, v)));
        }
    }
    out
}

fn options<'p, C>(sp: &Sprite, l: Look, over: Option<&'p [C]>) -> DrawOptions<'p, C> {
    let mut o = DrawOptions::new().flipped(l.flip_h, l.flip_v).rotated(l.rot).scaled(l.scale);
    o = o.in_canvas(sp.canvas.0, sp.canvas.1);
    o.palette = over;
    o
}

/// Draws `sp` into a recording target over `area` and checks it against the reference: the
/// pixels, one call per opaque run, and the returned rectangle.
fn check<C: TestColor>(sp: &Sprite, over: Option<&[C]>, at: Point, l: Look, area: Rectangle) -> Rec<C> {
    let what = format!("{:?} {:?} {l:?} at {at:?} into {area:?}", sp.fmt, sp.kind);
    let mut rec = Rec::<C>::new(area.top_left.x, area.top_left.y, area.size.width, area.size.height);
    let opts = options(sp, l, over);
    let touched = draw_frame(&mut rec, &sp.frame(), at, &opts).unwrap();
    let want = reference(sp, over, at, l, area);
    assert_same(&rec.px, &want, area, &what);
    assert_eq!(rec.calls(), runs(&want, area.size.width as usize), "{what}: calls");
    // The returned rectangle is the placed image clipped to the target.
    let placed = frame_bounds(&sp.frame(), at, &opts).unwrap();
    let clip = Rect { x: area.top_left.x, y: area.top_left.y, w: area.size.width, h: area.size.height };
    assert_eq!(touched, placed.intersection(&clip).unwrap_or_default(), "{what}: returned rect");
    rec
}

fn screen() -> Rectangle {
    Rectangle::new(Point::new(0, 0), Size::new(40, 34))
}

// ---------------------------------------------------------------------------------------------
// The integer blit.

#[test]
fn every_format_kind_flip_rotation_and_scale() {
    for (fi, fmt) in FORMATS.into_iter().enumerate() {
        for (ki, kind) in [Kind::Opaque, Kind::Key, Kind::Mask, Kind::Rle].into_iter().enumerate() {
            let sp = sprite(fmt, kind, 100 + 10 * fi as u64 + ki as u64);
            for rot in ROTATIONS {
                for (flip_h, flip_v) in [(false, false), (true, false), (false, true), (true, true)] {
                    for scale in [1, 2, 3] {
                        let l = Look { flip_h, flip_v, rot, scale };
                        check::<Rgb888>(&sp, None, Point::new(3, 2), l, screen());
                    }
                }
            }
        }
    }
}

/// A 70-pixel-wide image whose rows put run ends at and around the 32-pixel decoding chunks:
/// one solid row, runs ending at 31, 32 and 64, and a random row.
fn wide_img(fmt: PixelFormat, rng: &mut Lcg) -> Img {
    let range = value_range(fmt);
    let w = 70;
    let mut px = Vec::new();
    let solid = rng.below(range);
    px.extend((0..w).map(|_| Some(solid)));
    px.extend((0..w).map(|x| (x < 32).then(|| rng.below(range))));
    px.extend((0..w).map(|x| (x >= 31).then(|| rng.below(range))));
    px.extend((0..w).map(|x| if x < 64 { Some(solid) } else { None }));
    px.extend((0..w).map(|x| (x % 32 != 0).then(|| (x as u32 / 3) % range)));
    px.extend(make_img(w, 1, range, true, rng).px);
    Img { w, h: 6, px }
}

#[test]
fn wide_rows_cross_decoding_chunks() {
    let area = Rectangle::new(Point::new(-3, -2), Size::new(150, 150));
    for (fi, fmt) in FORMATS.into_iter().enumerate() {
        for kind in [Kind::Opaque, Kind::Key, Kind::Mask, Kind::Rle] {
            let mut rng = Lcg(700 + fi as u64);
            let img = wide_img(fmt, &mut rng);
            let mut sp = sprite_from(fmt, kind, img, &mut rng);
            sp.canvas = (72, 8);
            for rot in ROTATIONS {
                for (flip_h, scale) in [(false, 1), (true, 1), (false, 2)] {
                    check::<Rgb888>(&sp, None, Point::new(1, 0), Look { flip_h, rot, scale, flip_v: false }, area);
                }
            }
            // The solid rows are one fill_solid each, across chunks (frames with transparency: an
            // opaque frame's rows are drawn whole, without looking for runs).
            let rec = check::<Rgb888>(&sp, None, Point::new(0, 0), PLAIN, area);
            if kind != Kind::Opaque {
                assert!(rec.solid >= 2, "{fmt:?} {kind:?}");
            }
            // Affine: a shear over rows wider than a chunk, against the reference rule.
            let m = Affine2::<f32>::from_cols(Vec2::new(1.5, 0.25), Vec2::new(-0.5, 1.0), Vec2::new(12.0, 3.0));
            let rec = draw_affine::<Rgb888, f32>(&sp, &m, None, area);
            assert_same(&rec.px, &affine_reference(&sp, quantised_inverse(&m), None, area), area, "wide shear");
        }
    }
}

#[test]
fn the_largest_scale() {
    // Scale 16: a 7 × 5 image becomes 112 × 80, clipped by a 100 × 90 target.
    let area = Rectangle::new(Point::new(0, 0), Size::new(100, 90));
    for kind in [Kind::Key, Kind::Rle] {
        let sp = sprite(PixelFormat::Indexed8, kind, 16);
        for rot in [Rotation::Deg0, Rotation::Deg270] {
            check::<Rgb888>(
                &sp,
                None,
                Point::new(-40, -20),
                Look { rot, scale: 16, flip_h: true, flip_v: false },
                area,
            );
        }
    }
}

#[test]
fn frame_bounds_follow_the_placement_formulas() {
    // A 7 × 5 image at (2, 1) in an 11 × 9 canvas, canvas at (10, 20), scale 2.
    let sp = sprite(PixelFormat::Indexed8, Kind::Opaque, 1);
    let at = Point::new(10, 20);
    let b = |flip_h, rot| {
        frame_bounds(&sp.frame(), at, &options::<Rgb888>(&sp, Look { flip_h, flip_v: false, rot, scale: 2 }, None))
    };
    // Columns 2..9, rows 1..6 of the canvas.
    assert_eq!(b(false, Rotation::Deg0), Some(Rect { x: 10 + 4, y: 20 + 2, w: 14, h: 10 }));
    // Mirrored: columns 11 − 9 = 2 .. 11 − 2 = 9 → 2..9 (centred image, same place).
    assert_eq!(b(true, Rotation::Deg0), Some(Rect { x: 14, y: 22, w: 14, h: 10 }));
    // 90°: rotated x = H − 1 − y over rows 1..=5 → 3..=7; rotated y = x over 2..=8.
    assert_eq!(b(false, Rotation::Deg90), Some(Rect { x: 10 + 6, y: 20 + 4, w: 10, h: 14 }));
    // 180°: x = 10 − (2..=8) → 2..=8, y = 8 − (1..=5) → 3..=7.
    assert_eq!(b(false, Rotation::Deg180), Some(Rect { x: 14, y: 26, w: 14, h: 10 }));
    // 270°: rotated x = y over 1..=5, rotated y = W − 1 − x = 10 − (2..=8) → 2..=8.
    assert_eq!(b(false, Rotation::Deg270), Some(Rect { x: 12, y: 24, w: 10, h: 14 }));
    // Invalid scales and empty frames have no bounds.
    let o = options::<Rgb888>(&sp, PLAIN, None);
    assert_eq!(frame_bounds(&sp.frame(), at, &o.scaled(0)), None);
    assert_eq!(frame_bounds(&sp.frame(), at, &o.scaled(17)), None);
    assert!(frame_bounds(&sp.frame(), at, &o.scaled(16)).is_some());
    let empty = FramePixels { width: 0, ..sp.frame() };
    assert_eq!(frame_bounds(&empty, at, &o), None);
}

#[test]
fn rgb565_frames_into_565_and_bgr_targets() {
    for fmt in [PixelFormat::Rgb565Le, PixelFormat::Rgb565Be] {
        for kind in [Kind::Opaque, Kind::Key, Kind::Rle] {
            let sp = sprite(fmt, kind, 7);
            for rot in ROTATIONS {
                let l = Look { rot, flip_h: true, ..PLAIN };
                check::<Rgb565>(&sp, None, Point::new(1, 1), l, screen());
                check::<Bgr565>(&sp, None, Point::new(1, 1), l, screen());
                check::<Bgr888>(&sp, None, Point::new(1, 1), l, screen());
            }
        }
    }
    // Indexed and RGB888 frames into 565 targets round each channel.
    for fmt in [PixelFormat::Indexed4, PixelFormat::Rgb888] {
        let sp = sprite(fmt, Kind::Mask, 8);
        check::<Rgb565>(&sp, None, Point::new(0, 0), PLAIN, screen());
        check::<Bgr565>(&sp, None, Point::new(0, 0), PLAIN, screen());
    }
}

#[test]
fn rgb565_byte_orders_draw_the_same() {
    let le = sprite(PixelFormat::Rgb565Le, Kind::Key, 21);
    let mut be = le.clone();
    be.fmt = PixelFormat::Rgb565Be;
    be.data = pack_raw(PixelFormat::Rgb565Be, &be.img, be.key);
    assert_ne!(le.data, be.data);
    let a = check::<Rgb565>(&le, None, Point::new(2, 2), PLAIN, screen());
    let b = check::<Rgb565>(&be, None, Point::new(2, 2), PLAIN, screen());
    assert_eq!(a.px, b.px);
    assert!(a.px.iter().flatten().count() > 10);
    // A hand-made pixel: 0xF81F (magenta) stored LE is [1F, F8], BE [F8, 1F].
    for (fmt, data) in [(PixelFormat::Rgb565Le, [0x1F, 0xF8]), (PixelFormat::Rgb565Be, [0xF8, 0x1F])] {
        let f = FramePixels {
            format: fmt,
            transparency: Transparency::None,
            key: 0,
            palette: &[],
            x: 0,
            y: 0,
            width: 1,
            height: 1,
            rle: false,
            data: &data,
            mask: None,
        };
        let mut rec = Rec::<Rgb565>::new(0, 0, 2, 2);
        draw_frame(&mut rec, &f, Point::new(1, 1), &DrawOptions::new()).unwrap();
        assert_eq!(rec.px[3], Some(Rgb565::MAGENTA));
    }
}

#[test]
fn colour_key_compares_stored_values() {
    // Indexed: the key is an index. RGB565: the native value (also for BE). RGB888: 0xRRGGBB.
    let cases: [(PixelFormat, Vec<u8>, u32); 4] = [
        (PixelFormat::Indexed2, vec![0b00_01_10_11], 2),
        (
            PixelFormat::Rgb565Le,
            [0x1234u16, 0x5678, 0x9ABC, 0xDEF0].iter().flat_map(|v| v.to_le_bytes()).collect(),
            0x9ABC,
        ),
        (
            PixelFormat::Rgb565Be,
            [0x1234u16, 0x5678, 0x9ABC, 0xDEF0].iter().flat_map(|v| v.to_be_bytes()).collect(),
            0x9ABC,
        ),
        (PixelFormat::Rgb888, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 0x070809),
    ];
    for (fmt, data, key) in cases {
        let pal = palette(4);
        let f = FramePixels {
            format: fmt,
            transparency: Transparency::ColorKey,
            key,
            palette: &pal,
            x: 0,
            y: 0,
            width: 4,
            height: 1,
            rle: false,
            data: &data,
            mask: None,
        };
        let mut rec = Rec::<Rgb888>::new(0, 0, 4, 1);
        draw_frame(&mut rec, &f, Point::zero(), &DrawOptions::new()).unwrap();
        let drawn: Vec<bool> = rec.px.iter().map(Option::is_some).collect();
        assert_eq!(drawn, [true, true, false, true], "{fmt:?}");
        assert_eq!(rec.calls(), 2, "{fmt:?}");
    }
}

#[test]
fn mask_bits_and_missing_mask() {
    // 10 pixels wide: mask rows are 2 bytes; bit 7 of the first byte is the leftmost pixel.
    let data: Vec<u8> = (0..10).collect();
    let pal = palette(256);
    let mask = [0b1011_0000, 0b0100_0000];
    let f = FramePixels {
        format: PixelFormat::Indexed8,
        transparency: Transparency::Mask,
        key: 0,
        palette: &pal,
        x: 0,
        y: 0,
        width: 10,
        height: 1,
        rle: false,
        data: &data,
        mask: Some(&mask),
    };
    let mut rec = Rec::<Rgb888>::new(0, 0, 10, 1);
    draw_frame(&mut rec, &f, Point::zero(), &DrawOptions::new()).unwrap();
    let drawn: Vec<usize> = (0..10).filter(|&i| rec.px[i].is_some()).collect();
    assert_eq!(drawn, [0, 2, 3, 9]);
    assert_eq!(rec.px[3], Some(Rgb888::new(pal[9], pal[10], pal[11])));
    assert_eq!(rec.calls(), 3);
    // Mask transparency without mask rows: the frame is opaque (the blob stores opaque frames of
    // Mask sprites without a mask); with a short mask the missing bits are 0.
    for mask in [None, Some(&mask[..1])] {
        let mut rec = Rec::<Rgb888>::new(0, 0, 10, 1);
        draw_frame(&mut rec, &FramePixels { mask, ..f }, Point::zero(), &DrawOptions::new()).unwrap();
        let drawn: Vec<usize> = (0..10).filter(|&i| rec.px[i].is_some()).collect();
        assert_eq!(drawn, if mask.is_some() { vec![0, 2, 3] } else { (0..10).collect() });
    }
    // A mask given to a colour-keyed frame is ignored (only the key counts).
    let mut rec = Rec::<Rgb888>::new(0, 0, 10, 1);
    let keyed = FramePixels { transparency: Transparency::ColorKey, key: 4, ..f };
    draw_frame(&mut rec, &keyed, Point::zero(), &DrawOptions::new()).unwrap();
    assert_eq!(rec.px.iter().filter(|p| p.is_some()).count(), 9);
}

/// Draws one RLE row of `w` pixels (indexed 8) and returns which pixels were drawn with which index.
fn rle_row(w: u16, streams: &[Vec<u8>], rows: u16, look: Look) -> (Vec<Option<u8>>, usize) {
    let data = rle_with_table(streams);
    // Palette entry i is (i, 0, 0): the drawn red channel is the index.
    let pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, 0, 0]).collect();
    let f = FramePixels {
        format: PixelFormat::Indexed8,
        transparency: Transparency::None,
        key: 0,
        palette: &pal,
        x: 0,
        y: 0,
        width: w,
        height: rows,
        rle: true,
        data: &data,
        mask: None,
    };
    let mut rec = Rec::<Rgb888>::new(0, 0, u32::from(w.max(rows)) * 2, u32::from(w.max(rows)) * 2);
    let opts = DrawOptions::new().flipped(look.flip_h, look.flip_v).rotated(look.rot).scaled(look.scale);
    draw_frame(&mut rec, &f, Point::zero(), &opts).unwrap();
    let calls = rec.calls();
    let bw = rec.area.size.width as usize;
    (rec.px.chunks(bw).next().unwrap()[..usize::from(w)].iter().map(|p| p.map(|c| c.r())).collect(), calls)
}

#[test]
fn rle_literal_skip_run_cut_and_short_streams() {
    // literal 3 (5 6 7), skip 2, run 4 × 9: 9 pixels, then the stream ends: 3 transparent.
    let (px, calls) = rle_row(12, &[vec![0x02, 5, 6, 7, 0x41, 0x83, 9]], 1, PLAIN);
    assert_eq!(px, [Some(5), Some(6), Some(7), None, None, Some(9), Some(9), Some(9), Some(9), None, None, None]);
    assert_eq!(calls, 2);
    // A literal run straight into a run is one opaque run: one call.
    let (px, calls) = rle_row(5, &[vec![0x01, 1, 2, 0x82, 3]], 1, PLAIN);
    assert_eq!(px, [Some(1), Some(2), Some(3), Some(3), Some(3)]);
    assert_eq!(calls, 1);
    // A run of 128 cut at the width 6; a literal of 4 cut at 2; a skip past the end.
    assert_eq!(rle_row(6, &[vec![0xFF, 4]], 1, PLAIN).0, [Some(4); 6]);
    assert_eq!(rle_row(2, &[vec![0x03, 1, 2, 3, 4]], 1, PLAIN).0, [Some(1), Some(2)]);
    assert_eq!(rle_row(3, &[vec![0x01, 1, 2, 0x7F, 0x80, 5]], 1, PLAIN).0, [Some(1), Some(2), None]);
    // A literal whose bytes stop early (the end of the data): the missing pixels are transparent.
    assert_eq!(rle_row(5, &[vec![0x04, 1, 2]], 1, PLAIN).0, [Some(1), Some(2), None, None, None]);
    // A run whose value byte is missing; an empty stream.
    assert_eq!(rle_row(3, &[vec![0x82]], 1, PLAIN).0, [None; 3]);
    assert_eq!(rle_row(3, &[vec![]], 1, PLAIN).0, [None; 3]);
    // Mirrored: the same row right to left, still one call per run.
    let (px, calls) = rle_row(12, &[vec![0x02, 5, 6, 7, 0x41, 0x83, 9]], 1, Look { flip_h: true, ..PLAIN });
    assert_eq!(px, [None, None, None, Some(9), Some(9), Some(9), Some(9), None, None, Some(7), Some(6), Some(5)]);
    assert_eq!(calls, 2);
    // A single run is drawn with fill_solid.
    let data = rle_with_table(&[vec![0x41, 0x83, 9]]);
    let f = FramePixels {
        format: PixelFormat::Indexed8,
        transparency: Transparency::None,
        key: 0,
        palette: &[7; 30],
        x: 0,
        y: 0,
        width: 6,
        height: 1,
        rle: true,
        data: &data,
        mask: None,
    };
    let mut rec = Rec::<Rgb888>::new(0, 0, 6, 1);
    draw_frame(&mut rec, &f, Point::zero(), &DrawOptions::new()).unwrap();
    assert_eq!((rec.solid, rec.contiguous), (1, 0));
}

#[test]
fn rle_long_mirrored_runs_and_row_ends() {
    // 150 pixels of alternating literals and runs, all opaque: one opaque run across many segments.
    let mut s = Vec::new();
    let mut want = Vec::new();
    for i in 0..15u8 {
        s.extend([0x01, 2 * i, 2 * i + 1]); // literal of 2
        s.extend([0x7F + 8, 100 + i]); // run of 8
        want.extend([2 * i, 2 * i + 1]);
        want.extend([100 + i; 8]);
    }
    for look in [PLAIN, Look { flip_h: true, ..PLAIN }, Look { flip_h: true, scale: 2, ..PLAIN }] {
        let (px, calls) = rle_row(150, &[s.clone()], 1, look);
        let mut w: Vec<Option<u8>> = want.iter().map(|&v| Some(v)).collect();
        if look.flip_h {
            w.reverse();
        }
        if look.scale == 2 {
            // The first 150 destination pixels of the doubled mirrored row: each value twice.
            w = w.iter().flat_map(|&v| [v, v]).take(150).collect();
        }
        assert_eq!(px, w, "{look:?}");
        assert_eq!(calls, if look.scale == 2 { 2 } else { 1 }, "{look:?}"); // 2 rows when doubled
    }
    // Streams end at the next row's offset: a trimmed row is transparent after its stream, and
    // equal offsets are an empty (fully transparent) row.
    let streams = [vec![0x00, 7], vec![], vec![0x40, 0x81, 8]];
    let data = rle_with_table(&streams);
    assert_eq!(&data[..12], [12, 0, 0, 0, 14, 0, 0, 0, 14, 0, 0, 0]);
    let pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, 0, 0]).collect();
    let f = FramePixels {
        format: PixelFormat::Indexed8,
        transparency: Transparency::None,
        key: 0,
        palette: &pal,
        x: 0,
        y: 0,
        width: 4,
        height: 3,
        rle: true,
        data: &data,
        mask: None,
    };
    let mut rows = [[Some(0); 4]; 3];
    for (y, row) in rows.iter_mut().enumerate() {
        assert_eq!(decode_row(&f, y as u32, row), 4);
    }
    assert_eq!(rows, [[Some(7), None, None, None], [None; 4], [None, Some(8), Some(8), None]]);
    assert_eq!(decode_row(&f, 3, &mut [None; 4]), 0);
    let (px, _) = rle_row(4, &streams, 3, Look { rot: Rotation::Deg90, ..PLAIN });
    // Turned 90°: destination row 0 is source column 0 read bottom-up.
    assert_eq!(&px[..3], [None, None, Some(7)]);
    // A row offset beyond the data: the row is transparent.
    let bad = [100u32.to_le_bytes(), 8u32.to_le_bytes()]
        .concat()
        .into_iter()
        .chain([0x00, 7, 0x40, 0x81, 8])
        .collect::<Vec<u8>>();
    let f = FramePixels { data: &bad, height: 2, ..f };
    let mut row = [Some(0); 4];
    decode_row(&f, 0, &mut row);
    assert_eq!(row, [None; 4]);
    decode_row(&f, 1, &mut row);
    assert_eq!(row, [Some(7), None, Some(8), Some(8)]);
}

#[test]
fn rle_turned_reads_source_columns() {
    // 3 × 2: row 0 = [1 2 3], row 1 = [skip, run 2 × 4]. Turned 90°: destination row 0 is source
    // column 0 read bottom-up: [row1 col0 (skip), row0 col0 = 1].
    let streams = [vec![0x02, 1, 2, 3], vec![0x40, 0x81, 4]];
    let data = rle_with_table(&streams);
    let pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, 0, 0]).collect();
    let f = FramePixels {
        format: PixelFormat::Indexed8,
        transparency: Transparency::None,
        key: 0,
        palette: &pal,
        x: 0,
        y: 0,
        width: 3,
        height: 2,
        rle: true,
        data: &data,
        mask: None,
    };
    let mut rec = Rec::<Rgb888>::new(0, 0, 2, 3);
    draw_frame(&mut rec, &f, Point::zero(), &DrawOptions::new().rotated(Rotation::Deg90)).unwrap();
    let got: Vec<Option<u8>> = rec.px.iter().map(|p| p.map(|c| c.r())).collect();
    assert_eq!(got, [None, Some(1), Some(4), Some(2), Some(4), Some(3)]);
}

#[test]
fn palette_swap_and_indices_beyond_the_palette() {
    for kind in [Kind::Opaque, Kind::Key, Kind::Rle] {
        let sp = sprite(PixelFormat::Indexed4, kind, 31);
        // A full override: every index remapped.
        let full: Vec<Rgb888> = (0..16).map(|i| Rgb888::new(255 - i * 10, i * 3, 77)).collect();
        check::<Rgb888>(&sp, Some(&full), Point::new(4, 4), PLAIN, screen());
        // A short override: indices 6.. are transparent.
        let short = &full[..6];
        let rec = check::<Rgb888>(&sp, Some(short), Point::new(4, 4), Look { flip_h: true, ..PLAIN }, screen());
        assert!(rec.px.iter().flatten().all(|c| short.contains(c)));
        // A short frame palette (5 entries): the same rule.
        let mut sp5 = sp.clone();
        sp5.palette.truncate(15);
        check::<Rgb888>(&sp5, None, Point::new(4, 4), Look { rot: Rotation::Deg90, ..PLAIN }, screen());
        // An empty override draws nothing.
        let rec = check::<Rgb888>(&sp, Some(&[]), Point::new(4, 4), PLAIN, screen());
        assert_eq!(rec.calls(), 0);
    }
    // convert_palette builds an override from the frame's triples.
    let pal = palette(16);
    let mut conv = [Rgb565::BLACK; 16];
    assert_eq!(convert_palette(&pal, &mut conv), 16);
    assert_eq!(conv[3], Rgb565::ref_888(pal[9], pal[10], pal[11]));
    // RLE indices of an Indexed1 frame are bytes: 2 and above have no colour in a 2-entry palette.
    let data = rle_with_table(&[vec![0x03, 0, 1, 2, 1]]);
    let pal = palette(2);
    let f = FramePixels {
        format: PixelFormat::Indexed1,
        transparency: Transparency::None,
        key: 0,
        palette: &pal,
        x: 0,
        y: 0,
        width: 4,
        height: 1,
        rle: true,
        data: &data,
        mask: None,
    };
    let mut rec = Rec::<Rgb888>::new(0, 0, 4, 1);
    draw_frame(&mut rec, &f, Point::zero(), &DrawOptions::new()).unwrap();
    assert_eq!(rec.px.iter().map(Option::is_some).collect::<Vec<_>>(), [true, true, false, true]);
    assert_eq!(rec.calls(), 2);
}

#[test]
fn clipping_at_every_edge_and_off_screen() {
    let area = Rectangle::new(Point::new(-5, 3), Size::new(23, 17));
    let positions = [-30, -16, -12, -9, -6, -3, 0, 4, 8, 12, 15, 18, 21, 25, 40];
    for (fi, fmt) in [PixelFormat::Indexed2, PixelFormat::Rgb565Be, PixelFormat::Rgb888].into_iter().enumerate() {
        for kind in [Kind::Opaque, Kind::Mask, Kind::Rle] {
            let sp = sprite(fmt, kind, 300 + fi as u64);
            for (i, &x) in positions.iter().enumerate() {
                for &y in &positions {
                    let rot = ROTATIONS[i % 4];
                    let l = Look { rot, flip_h: i % 3 == 0, flip_v: i % 5 == 0, scale: 1 + (i % 3) as u8 };
                    check::<Rgb888>(&sp, None, Point::new(x, y), l, area);
                }
            }
        }
    }
    // Fully off screen on each side: nothing drawn, an empty rectangle returned.
    let sp = sprite(PixelFormat::Indexed8, Kind::Opaque, 5);
    for at in [Point::new(-100, 5), Point::new(100, 5), Point::new(5, -100), Point::new(5, 100)] {
        let rec = check::<Rgb888>(&sp, None, at, Look { scale: 3, ..PLAIN }, area);
        assert_eq!(rec.calls(), 0);
    }
    // Extreme positions do not overflow.
    for at in [Point::new(i32::MAX, i32::MAX), Point::new(i32::MIN, i32::MIN), Point::new(i32::MAX - 3, 0)] {
        for rot in ROTATIONS {
            let mut rec = Rec::<Rgb888>::new(i32::MAX - 20, -10, 20, 20);
            let opts = options::<Rgb888>(&sp, Look { rot, scale: 16, ..PLAIN }, None);
            draw_frame(&mut rec, &sp.frame(), at, &opts).unwrap();
            let mut rec = Rec::<Rgb888>::new(i32::MIN, i32::MIN, 20, 20);
            draw_frame(&mut rec, &sp.frame(), at, &opts).unwrap();
        }
    }
}

#[test]
fn band_shaped_targets_get_only_their_rows() {
    // A target of 3 rows: the blitter emits only inside them (the recording target asserts it),
    // with the same pixels as those rows of a full render.
    for kind in [Kind::Key, Kind::Rle] {
        let sp = sprite(PixelFormat::Indexed8, kind, 77);
        for rot in ROTATIONS {
            let l = Look { rot, scale: 2, flip_v: true, ..PLAIN };
            let full = check::<Rgb888>(&sp, None, Point::new(1, 2), l, screen());
            for y0 in [0, 5, 11, 20, 30] {
                let band = Rectangle::new(Point::new(0, y0), Size::new(40, 3));
                let rec = check::<Rgb888>(&sp, None, Point::new(1, 2), l, band);
                let rows = &full.px[(y0 as usize * 40)..((y0 as usize + 3).min(34) * 40)];
                assert_eq!(&rec.px[..rows.len()], rows);
            }
        }
    }
}

#[test]
fn invalid_scale_is_an_error_and_empty_frames_draw_nothing() {
    let sp = sprite(PixelFormat::Indexed8, Kind::Opaque, 9);
    let mut rec = Rec::<Rgb888>::new(0, 0, 8, 8);
    for s in [0u8, 17, 255] {
        let e = draw_frame(&mut rec, &sp.frame(), Point::zero(), &DrawOptions::new().scaled(s));
        assert_eq!(e, Err(DrawError::InvalidScale(s)));
        assert_eq!(format!("{}", e.unwrap_err()), format!("sprite scale {s} is not in 1..=16"));
    }
    let empty = FramePixels { height: 0, ..sp.frame() };
    assert_eq!(draw_frame(&mut rec, &empty, Point::zero(), &DrawOptions::new()), Ok(Rect::default()));
    assert_eq!(rec.calls(), 0);
}

#[test]
fn malformed_frames_never_panic() {
    // Random headers and data (short, long, garbage RLE tables and streams), random options,
    // targets anywhere: no panic, no draw_iter, no span outside the target or of the wrong length,
    // no pixel written twice (all checked by the recording target).
    let mut rng = Lcg(0xF00D);
    let transparencies = [Transparency::None, Transparency::ColorKey, Transparency::Mask];
    for i in 0..4000 {
        let fmt = FORMATS[rng.below(7) as usize];
        let w = rng.below(24) as u16;
        let h = rng.below(24) as u16;
        let data: Vec<u8> = (0..rng.below(700)).map(|_| rng.next() as u8).collect();
        let mask: Vec<u8> = (0..rng.below(80)).map(|_| rng.next() as u8).collect();
        let pal: Vec<u8> = (0..rng.below(800)).map(|_| rng.next() as u8).collect();
        let over: Vec<Rgb565> = (0..rng.below(20)).map(|_| Rgb565::from_rgb565_raw(rng.next() as u16)).collect();
        let xy = |r: &mut Lcg| match r.below(4) {
            0 => i16::MIN + r.below(4) as i16,
            1 => i16::MAX - r.below(4) as i16,
            _ => r.below(40) as i16 - 20,
        };
        let f = FramePixels {
            format: fmt,
            transparency: transparencies[rng.below(3) as usize],
            key: rng.next() % 300,
            palette: &pal,
            x: xy(&mut rng),
            y: xy(&mut rng),
            width: w,
            height: h,
            rle: rng.chance(50),
            data: &data,
            mask: rng.chance(70).then_some(&mask[..]),
        };
        let mut opts: DrawOptions<'_, Rgb565> = DrawOptions::new()
            .flipped(rng.chance(50), rng.chance(50))
            .rotated(ROTATIONS[rng.below(4) as usize])
            .scaled(rng.below(18) as u8);
        if rng.chance(50) {
            opts = opts.in_canvas(rng.below(70) as u16, rng.below(70) as u16);
        }
        if rng.chance(30) {
            opts.palette = Some(&over);
        }
        let (tx, ty) = match rng.below(5) {
            0 => (i32::MAX - 10, i32::MAX - 10),
            1 => (i32::MIN, i32::MIN),
            _ => (rng.below(40) as i32 - 20, rng.below(40) as i32 - 20),
        };
        let at = match rng.below(5) {
            0 => Point::new(i32::MAX - rng.below(50) as i32, i32::MIN + rng.below(50) as i32),
            _ => Point::new(tx.saturating_add(rng.below(60) as i32 - 30), ty.saturating_add(rng.below(60) as i32 - 30)),
        };
        let mut rec = Rec::<Rgb565>::new(tx, ty, 24, 20);
        let r = draw_frame(&mut rec, &f, at, &opts);
        if opts.scale == 0 || opts.scale > 16 {
            assert!(r.is_err(), "{i}");
        }
        // The affine path with random matrices, f32 and raw Q16.16 bits.
        let m = Affine2::from_cols(
            Vec2::new(rng.below(2000) as f32 / 100.0 - 10.0, rng.below(2000) as f32 / 100.0 - 10.0),
            Vec2::new(rng.below(2000) as f32 / 100.0 - 10.0, rng.below(2000) as f32 / 100.0 - 10.0),
            Vec2::new(rng.below(200) as f32 - 100.0 + tx as f32, rng.below(200) as f32 - 100.0 + ty as f32),
        );
        let mut rec = Rec::<Rgb565>::new(tx, ty, 24, 20);
        draw_frame_affine(&mut rec, &f, &m, opts.palette).unwrap();
        let q = |r: &mut Lcg| Q16::from_bits(r.next() as i32);
        let m = Affine2::from_cols(
            Vec2::new(q(&mut rng), q(&mut rng)),
            Vec2::new(q(&mut rng), q(&mut rng)),
            Vec2::new(q(&mut rng), q(&mut rng)),
        );
        let mut rec = Rec::<Rgb565>::new(rng.below(60) as i32 - 30, rng.below(60) as i32 - 30, 24, 20);
        draw_frame_affine(&mut rec, &f, &m, None).unwrap();
        let mut row = [None; 30];
        decode_row(&f, rng.below(30), &mut row);
    }
}

// ---------------------------------------------------------------------------------------------
// The affine blit.

/// Draws through `m` into a recording target and checks the span contract; returns the target.
fn draw_affine<C: TestColor, S: Scalar>(sp: &Sprite, m: &Affine2<S>, over: Option<&[C]>, area: Rectangle) -> Rec<C> {
    let mut rec = Rec::<C>::new(area.top_left.x, area.top_left.y, area.size.width, area.size.height);
    let touched = draw_frame_affine(&mut rec, &sp.frame(), m, over).unwrap();
    assert_eq!(rec.calls(), runs(&rec.px, area.size.width as usize), "one call per run");
    // Every drawn pixel lies in the returned rectangle, which lies in the bounds.
    let w = area.size.width as usize;
    for (i, p) in rec.px.iter().enumerate() {
        if p.is_some() {
            let (x, y) = (area.top_left.x + (i % w) as i32, area.top_left.y + (i / w) as i32);
            let inside = |r: &Rect| x >= r.x && y >= r.y && (x as i64) < r.right() && (y as i64) < r.bottom();
            assert!(inside(&touched), "({x}, {y}) outside {touched:?}");
        }
    }
    if !touched.is_empty() {
        let b = affine_bounds(&sp.frame(), m).unwrap();
        assert_eq!(touched.intersection(&b), Some(touched), "{touched:?} in {b:?}");
    }
    rec
}

/// An f64 evaluation of the documented sampling rule with the given inverse
/// `[m00, m01, m10, m11, tx, ty]`: destination pixel centre → canvas point → floor.
fn affine_reference<C: TestColor>(sp: &Sprite, inv: [f64; 6], over: Option<&[C]>, area: Rectangle) -> Vec<Option<C>> {
    let mut out = Vec::new();
    for y in area.rows() {
        for x in area.columns() {
            let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
            let px = inv[0] * cx + inv[1] * cy + inv[4];
            let py = inv[2] * cx + inv[3] * cy + inv[5];
            let v = sp.img.get(px.floor() as i64 - sp.x as i64, py.floor() as i64 - sp.y as i64);
            out.push(v.and_then(|v| ref_color(sp.fmt, &sp.palette, over, v)));
        }
    }
    out
}

/// The inverse as the kernel quantises it: computed in S, rounded to Q16.16.
fn quantised_inverse<S: Scalar>(m: &Affine2<S>) -> [f64; 6] {
    let i = m.inverse().unwrap();
    let q = |v: S| v.to_q16_bits() as f64 / 65536.0;
    [q(i.x_axis.x), q(i.y_axis.x), q(i.x_axis.y), q(i.y_axis.y), q(i.translation.x), q(i.translation.y)]
}

fn v2<S: Scalar>(x: f64, y: f64) -> Vec2<S> {
    Vec2::new(S::from_f64(x), S::from_f64(y))
}

fn affine_equals_integer_blits<S: Scalar>() {
    let area = Rectangle::new(Point::new(-3, -2), Size::new(38, 36));
    for (fi, fmt) in FORMATS.into_iter().enumerate() {
        for kind in [Kind::Key, Kind::Mask, Kind::Rle] {
            let sp = sprite(fmt, kind, 500 + fi as u64);
            let (w, h) = (sp.canvas.0 as f64, sp.canvas.1 as f64);
            let cases: [(Affine2<S>, Look, Point); 8] = [
                (Affine2::IDENTITY, PLAIN, Point::zero()),
                (Affine2::from_translation(v2(7.0, -1.0)), PLAIN, Point::new(7, -1)),
                // (u, v) → (H − v, u): the quarter turn clockwise of the canvas.
                (
                    Affine2::from_cols(v2(0.0, 1.0), v2(-1.0, 0.0), v2(h + 2.0, 3.0)),
                    Look { rot: Rotation::Deg90, ..PLAIN },
                    Point::new(2, 3),
                ),
                (
                    Affine2::from_cols(v2(-1.0, 0.0), v2(0.0, -1.0), v2(w + 1.0, h)),
                    Look { rot: Rotation::Deg180, ..PLAIN },
                    Point::new(1, 0),
                ),
                (
                    Affine2::from_cols(v2(0.0, -1.0), v2(1.0, 0.0), v2(0.0, w)),
                    Look { rot: Rotation::Deg270, ..PLAIN },
                    Point::zero(),
                ),
                // A mirror: x → W − x.
                (
                    Affine2::from_cols(v2(-1.0, 0.0), v2(0.0, 1.0), v2(w, 0.0)),
                    Look { flip_h: true, ..PLAIN },
                    Point::zero(),
                ),
                (Affine2::from_scale(v2(2.0, 2.0)), Look { scale: 2, ..PLAIN }, Point::zero()),
                (
                    Affine2::from_translation(v2(-4.0, 2.0)).mul(Affine2::from_scale(v2(3.0, 3.0))),
                    Look { scale: 3, ..PLAIN },
                    Point::new(-4, 2),
                ),
            ];
            for (m, look, at) in cases {
                let rec = draw_affine::<Rgb888, S>(&sp, &m, None, area);
                let want = reference::<Rgb888>(&sp, None, at, look, area);
                assert_same(&rec.px, &want, area, &format!("{fmt:?} {kind:?} {look:?} affine {m:?}"));
            }
        }
    }
    // The rotation from from_angle (cos ≈ 0 but not exactly in S) also equals the quarter turn.
    let sp = sprite(PixelFormat::Indexed8, Kind::Key, 3);
    let m = Affine2::from_translation(v2::<S>(sp.canvas.1 as f64, 0.0)).mul(Affine2::from_angle(S::FRAC_PI_2));
    let rec = draw_affine::<Rgb888, S>(&sp, &m, None, area);
    assert_same(
        &rec.px,
        &reference::<Rgb888>(&sp, None, Point::zero(), Look { rot: Rotation::Deg90, ..PLAIN }, area),
        area,
        "from_angle",
    );
}

#[test]
fn affine_equals_integer_blits_f32() {
    affine_equals_integer_blits::<f32>();
}
#[test]
fn affine_equals_integer_blits_q16() {
    affine_equals_integer_blits::<Q16>();
}

/// A 30° rotation with scale 1.5 against the f64 reference: exactly with the kernel's Q16.16
/// inverse, and against the exact f64 inverse only where a sample point lies within `tol` source
/// pixels of a pixel edge.
fn affine_rotation<S: Scalar>(tol: f64) {
    let area = Rectangle::new(Point::new(0, 0), Size::new(48, 44));
    let (angle, scale, t) = (30f64.to_radians(), 1.5, (20.3, 3.7));
    let m = Affine2::<S>::from_scale_angle_translation(v2(scale, scale), S::from_f64(angle), v2(t.0, t.1));
    // The same transform inverted in f64: p = R(−a)·(q − t) / s.
    let (c, s) = (angle.cos(), angle.sin());
    let exact =
        [c / scale, s / scale, -s / scale, c / scale, -(c * t.0 + s * t.1) / scale, (s * t.0 - c * t.1) / scale];
    let mut mismatches = 0;
    let mut drawn = 0;
    for (fi, fmt) in FORMATS.into_iter().enumerate() {
        for kind in [Kind::Opaque, Kind::Key, Kind::Mask, Kind::Rle] {
            let mut rng = Lcg(900 + fi as u64);
            let img = make_img(19, 13, value_range(fmt), kind != Kind::Opaque, &mut rng);
            let sp = sprite_from(fmt, kind, img, &mut rng);
            let rec = draw_affine::<Rgb888, S>(&sp, &m, None, area);
            let q = quantised_inverse(&m);
            assert_same(&rec.px, &affine_reference(&sp, q, None, area), area, &format!("{fmt:?} {kind:?} 30°"));
            let want = affine_reference::<Rgb888>(&sp, exact, None, area);
            for (i, (g, e)) in rec.px.iter().zip(&want).enumerate() {
                drawn += usize::from(g.is_some());
                if g != e {
                    mismatches += 1;
                    let (x, y) = ((i % 48) as f64 + 0.5, (i / 48) as f64 + 0.5);
                    let px = exact[0] * x + exact[1] * y + exact[4];
                    let py = exact[2] * x + exact[3] * y + exact[5];
                    let edge = |v: f64| (v - v.round()).abs();
                    assert!(edge(px).min(edge(py)) < tol, "{fmt:?} {kind:?}: ({x}, {y}) samples ({px}, {py})");
                }
            }
        }
    }
    assert!(drawn > 5000, "{drawn}");
    // With `fast-math`, f32 sin/cos are micromath's (errors about 1e-3): the transform itself is off
    // by that much, so more samples land on the other side of an edge (measured: 0.9 %).
    let per_mille =
        if S::ENCODING == ossicle::asset::ScalarEncoding::F32 && cfg!(feature = "fast-math") { 30 } else { 5 };
    assert!(mismatches * 1000 < drawn * per_mille, "{mismatches} of {drawn}");
}

#[test]
fn affine_rotation_f32() {
    // Sample points of the kernel's transform lie within `tol` source pixels of the exact ones:
    // f32 rounding (libm), or micromath's sin/cos errors times coordinates up to ~60 px.
    affine_rotation::<f32>(if cfg!(feature = "fast-math") { 0.1 } else { 1e-3 });
}
#[test]
fn affine_rotation_q16() {
    // Q16.16 rounding of sin/cos (2⁻¹⁷) and of the inverse's coefficients, over coordinates ≤ 50.
    affine_rotation::<Q16>(2e-3);
}

fn affine_singular_and_palettes<S: Scalar>() {
    let sp = sprite(PixelFormat::Indexed4, Kind::Rle, 41);
    let area = screen();
    for m in [Affine2::<S>::from_scale(v2(0.0, 2.0)), Affine2::from_cols(v2(1.0, 2.0), v2(2.0, 4.0), v2(5.0, 5.0))] {
        let mut rec = Rec::<Rgb888>::new(0, 0, 40, 34);
        assert_eq!(draw_frame_affine(&mut rec, &sp.frame(), &m, None), Ok(Rect::default()));
        assert_eq!(rec.calls(), 0);
        assert_eq!(affine_bounds(&sp.frame(), &m), None);
    }
    // A palette override and a shear, RLE and raw encodings of the same image agree.
    let over: Vec<Rgb888> = (0..9).map(|i| Rgb888::new(i * 20, 255 - i * 20, 9)).collect();
    let m = Affine2::<S>::from_cols(v2(1.25, 0.5), v2(-0.75, 1.0), v2(10.0, 4.0));
    let mut raw = sp.clone();
    raw.kind = Kind::Mask;
    raw.data = pack_raw(raw.fmt, &raw.img, 0);
    raw.mask = Some(pack_mask(&raw.img));
    let a = draw_affine::<Rgb888, S>(&sp, &m, Some(&over), area);
    let b = draw_affine::<Rgb888, S>(&raw, &m, Some(&over), area);
    assert_eq!(a.px, b.px);
    assert_same(&a.px, &affine_reference(&sp, quantised_inverse(&m), Some(&over), area), area, "shear");
    assert!(a.px.iter().flatten().count() > 20);
}

#[test]
fn affine_singular_and_palettes_f32() {
    affine_singular_and_palettes::<f32>();
}
#[test]
fn affine_singular_and_palettes_q16() {
    affine_singular_and_palettes::<Q16>();
}

#[test]
fn affine_bounds_hold_the_drawn_pixels() {
    // 2 × 1 image at (0, 0), scaled by 4 and moved by (10, 20): covers [10, 18) × [20, 24).
    let data = [1u8, 1];
    let pal = palette(2);
    let f = FramePixels {
        format: PixelFormat::Indexed8,
        transparency: Transparency::None,
        key: 0,
        palette: &pal,
        x: 0,
        y: 0,
        width: 2,
        height: 1,
        rle: false,
        data: &data,
        mask: None,
    };
    let m = Affine2::from_translation(Vec2::new(10.0f32, 20.0)).mul(Affine2::from_scale(Vec2::splat(4.0)));
    assert_eq!(affine_bounds(&f, &m), Some(Rect { x: 10, y: 20, w: 8, h: 4 }));
    let mut rec = Rec::<Rgb888>::new(0, 0, 30, 30);
    assert_eq!(draw_frame_affine(&mut rec, &f, &m, None), Ok(Rect { x: 10, y: 20, w: 8, h: 4 }));
    assert_eq!(rec.px.iter().flatten().count(), 32);
    assert_eq!(rec.calls(), 4);
}

// ---------------------------------------------------------------------------------------------
// Band buffers.

/// A scene of several sprites (keyed, RLE mirrored, masked turned and scaled, affine), on a
/// cleared background.
fn draw_scene(target: &mut BandBuffer<'_, Rgb565>, sprites: &[Sprite]) {
    target.clear(Rgb565::new(3, 7, 11)).unwrap();
    let look =
        |i: usize| Look { flip_h: i % 2 == 1, flip_v: i % 3 == 1, rot: ROTATIONS[i % 4], scale: 1 + (i % 3) as u8 };
    for (i, sp) in sprites.iter().enumerate() {
        let opts = options::<Rgb565>(sp, look(i), None);
        let at = Point::new(i as i32 * 7 - 4, i as i32 * 5 - 3);
        draw_frame(target, &sp.frame(), at, &opts).unwrap();
    }
    let m = Affine2::<Q16>::from_scale_angle_translation(v2(1.3, 1.3), Q16::from_f64(0.6), v2(12.0, 8.0));
    draw_frame_affine(target, &sprites[0].frame(), &m, None).unwrap();
}

#[test]
fn bands_of_1_3_7_rows_equal_a_full_framebuffer() {
    let sprites: Vec<Sprite> = [
        (PixelFormat::Indexed4, Kind::Key),
        (PixelFormat::Rgb565Le, Kind::Rle),
        (PixelFormat::Rgb888, Kind::Mask),
        (PixelFormat::Indexed8, Kind::Rle),
        (PixelFormat::Rgb565Be, Kind::Opaque),
        (PixelFormat::Indexed1, Kind::Mask),
    ]
    .iter()
    .enumerate()
    .map(|(i, &(f, k))| sprite(f, k, 60 + i as u64))
    .collect();
    let (w, h) = (40u32, 34u32);
    let mut full = vec![Rgb565::BLACK; (w * h) as usize];
    draw_scene(&mut BandBuffer::new(&mut full, w, h).unwrap(), &sprites);
    assert!(full.iter().filter(|&&c| c != Rgb565::new(3, 7, 11)).count() > 300);
    for region in [Rect { x: 0, y: 0, w, h }, Rect { x: 5, y: 3, w: 30, h: 25 }] {
        for k in [1u32, 3, 7] {
            let mut a = vec![Rgb565::BLACK; (region.w * k) as usize];
            let mut b = vec![Rgb565::BLACK; (region.w * k) as usize + 5]; // a longer buffer is fine
            let mut out = vec![Rgb565::BLACK; (region.w * region.h) as usize];
            let mut seen = Vec::new();
            let bands = render_bands(
                region,
                &mut a,
                &mut b,
                |band| {
                    draw_scene(band, &sprites);
                    Ok::<(), Infallible>(())
                },
                |rect, px| {
                    seen.push(rect);
                    assert_eq!(px.len() as u32, rect.w * rect.h);
                    let start = ((rect.y - region.y) as u32 * region.w) as usize;
                    out[start..start + px.len()].copy_from_slice(px);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(bands, region.h.div_ceil(k), "{k}");
            assert_eq!(seen.len() as u32, bands);
            assert!(seen.iter().all(|r| r.x == region.x && r.w == region.w && r.h <= k));
            for y in 0..region.h {
                for x in 0..region.w {
                    let want = full[((region.y as u32 + y) * w + region.x as u32 + x) as usize];
                    assert_eq!(out[(y * region.w + x) as usize], want, "k {k}, region {region:?}, ({x}, {y})");
                }
            }
        }
    }
}

#[test]
fn render_bands_errors() {
    let mut a = [Rgb565::BLACK; 9];
    let mut b = [Rgb565::BLACK; 20];
    let r = render_bands(Rect { x: 0, y: 0, w: 10, h: 4 }, &mut a, &mut b, |_| Ok::<(), u8>(()), |_, _| Ok(()));
    assert!(matches!(r, Err(RenderError::BufferTooSmall(e)) if e.needed == 10 && e.len == 9));
    let mut a = [Rgb565::BLACK; 20];
    let r = render_bands(Rect { x: 0, y: 0, w: 10, h: 4 }, &mut a, &mut b, |_| Ok(()), |_, _| Err(7u8));
    assert_eq!(r, Err(RenderError::Callback(7)));
    assert_eq!(format!("{}", r.unwrap_err()), "band callback failed: 7");
    let r = render_bands(Rect { x: 0, y: 0, w: 0, h: 4 }, &mut a, &mut b, |_| Err(1u8), |_, _| Err(2));
    assert_eq!(r, Ok(0));
    assert!(BandBuffer::new(&mut a, 7, 3).is_err());
    assert!(BandBuffer::new(&mut a, u32::MAX, u32::MAX).is_err());
}

#[test]
fn band_buffer_fills_clip_to_the_band() {
    let mut mem = [Rgb888::BLACK; 6 * 3];
    let mut band = BandBuffer::new(&mut mem, 6, 3).unwrap();
    band.set_origin(Point::new(10, 100));
    assert_eq!(band.bounding_box(), Rectangle::new(Point::new(10, 100), Size::new(6, 3)));
    // A 4 × 5 area from (8, 98): rows 100..103 and columns 10..12 are inside. Colour = index.
    let area = Rectangle::new(Point::new(8, 98), Size::new(4, 5));
    band.fill_contiguous(&area, (0..20u8).map(|i| Rgb888::new(i, 0, 0))).unwrap();
    let at = |band: &BandBuffer<'_, Rgb888>, x, y| band.pixel(Point::new(x, y)).map(|c| c.r());
    // Row 100 is area row 2: indices 8..12, columns 8..12 → (10, 100) is index 10, (11, 100) 11.
    assert_eq!(at(&band, 10, 100), Some(10));
    assert_eq!(at(&band, 11, 100), Some(11));
    assert_eq!(at(&band, 12, 100), Some(0)); // outside the area
    assert_eq!(at(&band, 10, 102), Some(18));
    assert_eq!(at(&band, 9, 100), None); // outside the band
    band.fill_solid(&Rectangle::new(Point::new(14, 101), Size::new(10, 10)), Rgb888::WHITE).unwrap();
    assert_eq!(at(&band, 15, 102), Some(255));
    assert_eq!(at(&band, 13, 102), Some(0));
    // draw_iter works too (for other drawables), clipped.
    band.draw_iter([Pixel(Point::new(13, 101), Rgb888::RED), Pixel(Point::new(13, 99), Rgb888::RED)]).unwrap();
    assert_eq!(at(&band, 13, 101), Some(255));
    band.set_band(0);
    assert_eq!(band.rect(), Rect { x: 10, y: 0, w: 6, h: 3 });
    assert_eq!(band.pixels().len(), 18);
}

// ---------------------------------------------------------------------------------------------
// Dirty tracking with the draw bounds.

#[test]
fn sprite_output_with_frame_bounds() {
    let sp = sprite(PixelFormat::Indexed8, Kind::Key, 12);
    let mut dirty: DirtyRects<4> = DirtyRects::new(Rect { x: 0, y: 0, w: 40, h: 34 });
    let mut out = SpriteOutput::new();
    let appearance = |at: Point, l: Look| {
        let rect = frame_bounds(&sp.frame(), at, &options::<Rgb888>(&sp, l, None)).unwrap();
        Appearance { flip_h: l.flip_h, flip_v: l.flip_v, rotation: l.rot, scale: l.scale, ..Appearance::new(0, rect) }
    };
    // Drawn at (3, 2): the image covers (5, 3) 7 × 5.
    let a = appearance(Point::new(3, 2), PLAIN);
    assert_eq!(a.rect, Rect { x: 5, y: 3, w: 7, h: 5 });
    assert!(out.update(a, &mut dirty));
    let mut rec = Rec::<Rgb888>::new(0, 0, 40, 34);
    let touched = draw_frame(&mut rec, &sp.frame(), Point::new(3, 2), &options::<Rgb888>(&sp, PLAIN, None)).unwrap();
    assert_eq!(touched, a.rect);
    dirty.clear();
    // Turned 90° in place: the 11 × 9 canvas becomes 9 × 11; the image (columns 2..9, rows 1..6)
    // goes to columns 9 − 1 − (1..=5) = 3..=7 and rows 2..=8: (6, 4) 5 × 7.
    let b = appearance(Point::new(3, 2), Look { rot: Rotation::Deg90, ..PLAIN });
    assert_eq!(b.rect, Rect { x: 6, y: 4, w: 5, h: 7 });
    assert_eq!(out.change(&b), Some(Rect { x: 5, y: 3, w: 7, h: 8 }));
    assert!(out.update(b, &mut dirty));
    assert_eq!(dirty.iter().collect::<Vec<_>>(), [Rect { x: 5, y: 3, w: 7, h: 8 }]);
}
