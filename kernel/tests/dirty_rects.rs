//! Dirty-rectangle list: clipping, merging, overflow, extreme inputs. Integer pixels only, so every
//! expectation is exact and computed by hand in the comments.

use ossicle::sprite::{DirtyOverflow, DirtyRects, Rect, RectExt};

fn r(x: i32, y: i32, w: u32, h: u32) -> Rect {
    Rect { x, y, w, h }
}

const SCREEN: Rect = Rect { x: 0, y: 0, w: 320, h: 240 };

/// The listed rectangles, sorted (the list's order is unspecified).
fn sorted<const N: usize>(d: &DirtyRects<N>) -> Vec<Rect> {
    let mut v: Vec<Rect> = d.iter().collect();
    v.sort_by_key(|r| (r.y, r.x, r.w, r.h));
    v
}

/// No two listed rectangles overlap or touch, all lie inside the screen, none is empty.
fn assert_invariants<const N: usize>(d: &DirtyRects<N>) {
    let v: Vec<Rect> = d.iter().collect();
    assert_eq!(v.len(), d.len());
    assert!(v.len() <= N.max(1));
    for (i, a) in v.iter().enumerate() {
        assert!(!a.is_empty(), "{a:?}");
        assert_eq!(a.intersection(&d.screen()), Some(*a), "{a:?} not inside the screen");
        for b in v.iter().skip(i + 1) {
            assert!(!a.touches(b), "{a:?} touches {b:?}");
        }
    }
}

// ---- Rect helpers ----

#[test]
fn rect_helpers() {
    let a = r(0, 0, 10, 10);
    // Overlapping by 5 × 5 at (5, 5).
    let b = r(5, 5, 10, 10);
    assert!(a.intersects(&b) && a.touches(&b));
    assert_eq!(a.intersection(&b), Some(r(5, 5, 5, 5)));
    assert_eq!(a.union(&b), r(0, 0, 15, 15));
    // Sharing the edge x = 10 over y 0..10: touching, not intersecting.
    let c = r(10, 0, 4, 10);
    assert!(a.touches(&c) && c.touches(&a) && !a.intersects(&c));
    assert_eq!(a.intersection(&c), None);
    // Sharing the edge y = 10 over x 3..10.
    let d = r(3, 10, 20, 2);
    assert!(a.touches(&d) && !a.intersects(&d));
    // Corner only at (10, 10): neither.
    let e = r(10, 10, 5, 5);
    assert!(!a.touches(&e) && !a.intersects(&e));
    assert!(!a.touches(&r(-5, -5, 5, 5)));
    // A gap of one pixel: neither.
    let f = r(11, 0, 5, 5);
    assert!(!a.touches(&f) && !a.intersects(&f));
    // Containment.
    assert_eq!(a.intersection(&r(2, 3, 4, 5)), Some(r(2, 3, 4, 5)));
    assert_eq!(a.union(&r(2, 3, 4, 5)), a);
    // Empty rectangles touch nothing, and a union ignores them.
    let z = r(5, 5, 0, 7);
    assert!(z.is_empty() && r(1, 1, 3, 0).is_empty() && !a.is_empty());
    assert!(!a.touches(&z) && !z.touches(&a) && !a.intersects(&z));
    assert_eq!(a.intersection(&z), None);
    assert_eq!(a.union(&z), a);
    assert_eq!(z.union(&a), a);
    assert_eq!(z.union(&r(100, 100, 0, 0)), z);
    // Edges and areas.
    assert_eq!((b.right(), b.bottom(), b.area()), (15, 15, 100));
    assert_eq!(r(-3, 4, 7, 2).area(), 14);
}

#[test]
fn rect_helpers_extremes() {
    let max = u32::MAX;
    let huge = r(i32::MAX, i32::MAX, max, max);
    // i32::MAX + u32::MAX = 2147483647 + 4294967295 = 6442450942.
    assert_eq!(huge.right(), 6_442_450_942);
    assert_eq!(huge.bottom(), 6_442_450_942);
    // (2³² − 1)² = 18446744065119617025.
    assert_eq!(huge.area(), 18_446_744_065_119_617_025);
    let low = r(i32::MIN, i32::MIN, max, max);
    // i32::MIN + u32::MAX = 2147483647 = i32::MAX: low covers up to i32::MAX − 1, huge starts at i32::MAX.
    assert_eq!(low.right(), i64::from(i32::MAX));
    assert!(!low.intersects(&huge));
    // They meet only at the corner (i32::MAX, i32::MAX).
    assert!(!low.touches(&huge));
    // Their union spans 6442450942 − (−2147483648) = 8589934590 > u32::MAX: saturates.
    assert_eq!(low.union(&huge), r(i32::MIN, i32::MIN, max, max));
    // Overlap of a full-range rect with one at the far end: one pixel wide at i32::MAX − 1.
    let a = r(i32::MIN, 0, max, 10);
    let b = r(i32::MAX - 1, 0, max, 10);
    assert_eq!(a.intersection(&b), Some(r(i32::MAX - 1, 0, 1, 10)));
    assert_eq!(a.union(&b).w, max);
}

// ---- Clipping ----

#[test]
fn clipping_at_every_edge() {
    let cases = [
        // Left: x −10..20 → 0..20.
        (r(-10, 50, 30, 10), r(0, 50, 20, 10)),
        // Top: y −5..5 → 0..5.
        (r(40, -5, 8, 10), r(40, 0, 8, 5)),
        // Right: x 310..340 → 310..320.
        (r(310, 60, 30, 4), r(310, 60, 10, 4)),
        // Bottom: y 230..260 → 230..240.
        (r(100, 230, 6, 30), r(100, 230, 6, 10)),
        // All four at once.
        (r(-100, -100, 1000, 1000), SCREEN),
        // Top-left corner: (−3, −4) size 10 × 10 → 7 × 6.
        (r(-3, -4, 10, 10), r(0, 0, 7, 6)),
        // Bottom-right corner: (315, 238) size 10 × 10 → 5 × 2.
        (r(315, 238, 10, 10), r(315, 238, 5, 2)),
    ];
    for (input, want) in cases {
        let mut d: DirtyRects<4> = DirtyRects::new(SCREEN);
        d.add(input);
        assert_eq!(sorted(&d), [want], "{input:?}");
        assert_eq!(d.is_full_screen(), want == SCREEN);
        assert_invariants(&d);
    }
}

#[test]
fn clipping_to_an_offset_screen() {
    // A screen at (100, 50), 40 × 30: x 100..140, y 50..80.
    let screen = r(100, 50, 40, 30);
    let mut d: DirtyRects<4> = DirtyRects::new(screen);
    d.add(r(0, 0, 110, 60)); // → x 100..110, y 50..60
    d.add(r(135, 75, 100, 100)); // → x 135..140, y 75..80
    d.add(r(0, 0, 100, 50)); // touches the screen only at its corner: nothing
    d.add(r(140, 50, 10, 10)); // right of it: nothing
    assert_eq!(sorted(&d), [r(100, 50, 10, 10), r(135, 75, 5, 5)]);
    assert_invariants(&d);
}

#[test]
fn off_screen_and_empty_rectangles_are_ignored() {
    let mut d: DirtyRects<4> = DirtyRects::new(SCREEN);
    for rect in [
        r(10, 10, 0, 10),
        r(10, 10, 10, 0),
        r(0, 0, 0, 0),
        r(-20, 10, 20, 10), // ends exactly at x = 0
        r(10, -20, 10, 20), // ends exactly at y = 0
        r(320, 10, 10, 10), // starts exactly at x = 320
        r(10, 240, 10, 10), // starts exactly at y = 240
        r(1000, 1000, 5, 5),
        r(i32::MIN, i32::MIN, 5, 5),
    ] {
        d.add(rect);
        assert_eq!(d.try_add(rect), Ok(()));
    }
    assert!(d.is_empty());
    assert_eq!(d.len(), 0);
    assert_eq!(d.bounds(), None);
    assert_eq!(d.area(), 0);
    assert!(!d.is_full_screen());
    // An empty rectangle next to a real one does not join it either.
    d.add(r(10, 10, 5, 5));
    d.add(r(15, 10, 0, 5));
    assert_eq!(sorted(&d), [r(10, 10, 5, 5)]);
}

#[test]
fn an_empty_screen_takes_nothing() {
    let mut d: DirtyRects<2> = DirtyRects::new(r(0, 0, 0, 100));
    d.add(r(0, 0, 10, 10));
    d.mark_full_screen();
    assert!(d.is_empty() && !d.is_full_screen());
}

// ---- Merging ----

#[test]
fn disjoint_rectangles_stay_separate() {
    let mut d: DirtyRects<8> = DirtyRects::new(SCREEN);
    d.add(r(0, 0, 10, 10));
    d.add(r(11, 0, 10, 10)); // one-pixel gap at x = 10
    d.add(r(0, 11, 10, 10)); // one-pixel gap at y = 10
    d.add(r(21, 10, 5, 5)); // x 21..26, y 10..15: corner contact at (21, 10) with the second only
    assert_eq!(d.len(), 4);
    assert_eq!(sorted(&d), [r(0, 0, 10, 10), r(11, 0, 10, 10), r(21, 10, 5, 5), r(0, 11, 10, 10)]);
    // 100 + 100 + 25 + 100.
    assert_eq!(d.area(), 325);
    // Bounds: x 0..26, y 0..21.
    assert_eq!(d.bounds(), Some(r(0, 0, 26, 21)));
    assert_invariants(&d);
}

#[test]
fn overlapping_rectangles_merge() {
    let mut d: DirtyRects<4> = DirtyRects::new(SCREEN);
    d.add(r(10, 10, 20, 20)); // x 10..30, y 10..30
    d.add(r(25, 20, 20, 20)); // x 25..45, y 20..40
                              // Box: x 10..45, y 10..40 → 35 × 30 = 1050, more than the 400 + 400 − 50 pixels covered.
    assert_eq!(sorted(&d), [r(10, 10, 35, 30)]);
    assert_eq!(d.area(), 1050);
    // A rectangle inside changes nothing.
    d.add(r(12, 12, 3, 3));
    assert_eq!(sorted(&d), [r(10, 10, 35, 30)]);
    // One that holds the box replaces it.
    d.add(r(0, 0, 50, 50));
    assert_eq!(sorted(&d), [r(0, 0, 50, 50)]);
    assert_invariants(&d);
}

#[test]
fn touching_rectangles_merge() {
    let mut d: DirtyRects<4> = DirtyRects::new(SCREEN);
    d.add(r(0, 0, 10, 10));
    d.add(r(10, 0, 10, 10)); // shares x = 10 → x 0..20
    assert_eq!(sorted(&d), [r(0, 0, 20, 10)]);
    d.add(r(5, 10, 2, 3)); // shares y = 10 over x 5..7 → y 0..13
    assert_eq!(sorted(&d), [r(0, 0, 20, 13)]);
    d.add(r(20, 12, 1, 1)); // shares x = 20 over y 12..13 → x 0..21
    assert_eq!(sorted(&d), [r(0, 0, 21, 13)]);
    assert_eq!(d.area(), 21 * 13);
    assert_invariants(&d);
}

#[test]
fn merging_is_transitive() {
    let mut d: DirtyRects<8> = DirtyRects::new(SCREEN);
    let a = r(0, 0, 10, 10); // x 0..10,  y 0..10
    let b = r(20, 0, 10, 10); // x 20..30, y 0..10
    let c = r(12, 20, 4, 4); // x 12..16, y 20..24
    let e = r(100, 100, 5, 5); // far away
    d.add(a);
    d.add(b);
    d.add(c);
    d.add(e);
    assert_eq!(d.len(), 4);
    // A bridge x 5..25, y 5..15 overlaps A and B: box x 0..30, y 0..15, which does not reach C
    // (C starts at y = 20).
    d.add(r(5, 5, 20, 10));
    assert_eq!(sorted(&d), [r(0, 0, 30, 15), r(12, 20, 4, 4), r(100, 100, 5, 5)]);
    // Now x 28..40, y 14..20 overlaps the box (x 28..30, y 14..15) but not C (C is x 12..16).
    // Its merge with the box gives x 0..40, y 0..20, which shares the edge y = 20 with C over
    // x 12..16: C joins transitively → x 0..40, y 0..24.
    d.add(r(28, 14, 12, 6));
    assert_eq!(sorted(&d), [r(0, 0, 40, 24), r(100, 100, 5, 5)]);
    assert_eq!(d.area(), 40 * 24 + 25);
    assert_invariants(&d);
}

#[test]
fn one_rectangle_can_absorb_several() {
    let mut d: DirtyRects<4> = DirtyRects::new(SCREEN);
    d.add(r(0, 0, 5, 5));
    d.add(r(50, 0, 5, 5));
    d.add(r(0, 50, 5, 5));
    d.add(r(50, 50, 5, 5));
    assert_eq!(d.len(), 4);
    // Full list, but this one overlaps all four: no overflow.
    assert_eq!(d.try_add(r(2, 2, 50, 50)), Ok(()));
    assert_eq!(sorted(&d), [r(0, 0, 55, 55)]);
    assert!(!d.is_full_screen());
    assert_invariants(&d);
}

// ---- Overflow ----

#[test]
fn overflow_falls_back_to_full_screen() {
    let mut d: DirtyRects<3> = DirtyRects::new(SCREEN);
    d.add(r(0, 0, 5, 5));
    d.add(r(100, 0, 5, 5));
    d.add(r(200, 0, 5, 5));
    assert_eq!(d.len(), 3);
    // A fourth rectangle touching one of them still fits (it merges).
    d.add(r(5, 0, 5, 5));
    assert_eq!(d.len(), 3);
    assert!(!d.is_full_screen());
    // try_add refuses a fourth separate one and leaves the list alone.
    let before = d.clone();
    assert_eq!(d.try_add(r(300, 200, 5, 5)), Err(DirtyOverflow));
    assert_eq!(d, before);
    // add falls back.
    d.add(r(300, 200, 5, 5));
    assert!(d.is_full_screen());
    assert_eq!(d.len(), 1);
    assert!(!d.is_empty());
    assert_eq!(sorted(&d), [SCREEN]);
    assert_eq!(d.bounds(), Some(SCREEN));
    assert_eq!(d.area(), 320 * 240);
    // Further additions change nothing.
    d.add(r(1, 1, 1, 1));
    assert_eq!(d.try_add(r(7, 7, 1, 1)), Ok(()));
    assert_eq!(sorted(&d), [SCREEN]);
    assert_invariants(&d);
    // clear leaves full-screen mode.
    d.clear();
    assert!(d.is_empty() && !d.is_full_screen());
    d.add(r(1, 1, 1, 1));
    assert_eq!(sorted(&d), [r(1, 1, 1, 1)]);
}

#[test]
fn zero_capacity_is_always_full_screen() {
    let mut d: DirtyRects<0> = DirtyRects::new(SCREEN);
    assert_eq!(d.capacity(), 0);
    d.add(r(-5, -5, 5, 5)); // off screen: still nothing
    assert!(d.is_empty());
    assert_eq!(d.try_add(r(1, 1, 1, 1)), Err(DirtyOverflow));
    d.add(r(1, 1, 1, 1));
    assert!(d.is_full_screen());
    assert_eq!(sorted(&d), [SCREEN]);
}

#[test]
fn covering_the_screen_is_full_screen() {
    let mut d: DirtyRects<4> = DirtyRects::new(SCREEN);
    d.add(r(0, 0, 320, 100));
    assert!(!d.is_full_screen());
    d.add(r(0, 100, 320, 140)); // shares y = 100: the union is the screen
    assert!(d.is_full_screen());
    assert_eq!(sorted(&d), [SCREEN]);
    d.clear();
    d.mark_full_screen();
    assert!(d.is_full_screen());
    assert_eq!(d.area(), 76_800);
}

// ---- Extremes ----

#[test]
fn extreme_coordinates_never_panic() {
    let max = u32::MAX;
    let values_i = [i32::MIN, i32::MIN + 1, -1, 0, 1, 319, 320, i32::MAX - 1, i32::MAX];
    let values_u = [0, 1, 320, u32::MAX - 1, u32::MAX];
    let screens = [SCREEN, r(i32::MIN, i32::MIN, max, max), r(i32::MAX, i32::MAX, max, max), r(-1, -1, 2, 2)];
    for screen in screens {
        let mut d: DirtyRects<3> = DirtyRects::new(screen);
        for &x in &values_i {
            for &y in &values_i {
                for &w in &values_u {
                    for &h in &values_u {
                        d.add(r(x, y, w, h));
                        let _ = d.try_add(r(y, x, h, w));
                        assert_invariants(&d);
                        let _ = (d.bounds(), d.area());
                    }
                }
                d.clear();
            }
        }
    }
}

#[test]
fn extreme_screens_clip_exactly() {
    let max = u32::MAX;
    // The screen x, y from i32::MAX to i32::MAX + u32::MAX: a rectangle at i32::MAX − 10 of size
    // 20 covers i32::MAX − 10 .. i32::MAX + 10, clipped to i32::MAX .. i32::MAX + 10.
    let mut d: DirtyRects<2> = DirtyRects::new(r(i32::MAX, i32::MAX, max, max));
    d.add(r(i32::MAX - 10, i32::MAX - 10, 20, 20));
    assert_eq!(sorted(&d), [r(i32::MAX, i32::MAX, 10, 10)]);
    d.add(r(i32::MIN, i32::MIN, max, max)); // ends at i32::MAX exactly: off screen
    assert_eq!(d.len(), 1);
    // Covering the whole huge screen: full screen; its area is (2³² − 1)².
    d.add(r(i32::MAX, i32::MAX, max, max));
    assert!(d.is_full_screen());
    assert_eq!(d.area(), 18_446_744_065_119_617_025);

    // The lowest screen: anything covering it clips to it.
    let low = r(i32::MIN, i32::MIN, max, max);
    let mut d: DirtyRects<2> = DirtyRects::new(low);
    d.add(r(i32::MIN, 0, max, max)); // y 0 .. i32::MAX: height i32::MAX
    assert_eq!(sorted(&d), [r(i32::MIN, 0, max, i32::MAX as u32)]);
    d.add(r(i32::MIN, i32::MIN, 1, 1));
    assert_eq!(d.len(), 2);
    // 4294967295 × 2147483647 + 1 = 9223372030412324866.
    assert_eq!(d.area(), 9_223_372_030_412_324_866);
    // Bounds: x from i32::MIN, width u32::MAX; y from i32::MIN to i32::MAX: u32::MAX.
    assert_eq!(d.bounds(), Some(low));
}

#[test]
fn memory_size() {
    // 16 bytes per rectangle, plus the screen (16), a u32 length and the flag (padded to 8).
    assert_eq!(DirtyRects::<0>::BYTES, 24);
    assert_eq!(DirtyRects::<8>::BYTES, 16 * 8 + 24);
    assert_eq!(core::mem::size_of::<DirtyRects<16>>(), 16 * 16 + 24);
}

#[test]
fn overflow_displays() {
    assert_eq!(DirtyOverflow.to_string(), "the dirty-rectangle list is full");
}

// ---- Against a pixel bitmap ----

/// A small deterministic generator (64-bit LCG, Knuth's MMIX constants), high bits used.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo) as u32) as i32
    }
}

/// Random rectangles on a 40 × 30 screen at (−5, 3), compared pixel by pixel with what was added:
/// every added (clipped) pixel is listed exactly once, nothing outside the bounding box of the
/// added pixels is listed, the list never exceeds its capacity, and the invariants hold.
#[test]
fn covers_every_added_pixel() {
    let screen = r(-5, 3, 40, 30);
    let (sx, sy) = (screen.x, screen.y);
    let mut rng = Lcg(0x5eed);
    let (mut full_rounds, mut multi_rounds) = (0, 0);
    for round in 0..400 {
        let mut d: DirtyRects<4> = DirtyRects::new(screen);
        let mut added = [[false; 40]; 30];
        let adds = 1 + rng.next() % 10;
        for _ in 0..adds {
            let rect = r(rng.range(-15, 45), rng.range(-8, 43), rng.next() % 7, rng.next() % 7);
            d.add(rect);
            for (row, line) in added.iter_mut().enumerate() {
                for (col, px) in line.iter_mut().enumerate() {
                    let (x, y) = (sx + col as i32, sy + row as i32);
                    let inside = i64::from(x) >= i64::from(rect.x)
                        && i64::from(x) < rect.right()
                        && i64::from(y) >= i64::from(rect.y)
                        && i64::from(y) < rect.bottom();
                    *px |= inside;
                }
            }
            assert_invariants(&d);
        }
        // Count how many listed rectangles hold each pixel.
        let mut listed = [[0u8; 40]; 30];
        for l in d.iter() {
            for y in l.y..l.bottom() as i32 {
                for x in l.x..l.right() as i32 {
                    listed[(y - sy) as usize][(x - sx) as usize] += 1;
                }
            }
        }
        let any = added.iter().flatten().any(|&p| p);
        assert_eq!(d.is_empty(), !any, "round {round}");
        // The bounding box of the added pixels.
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for (row, line) in added.iter().enumerate() {
            for (col, &p) in line.iter().enumerate() {
                if p {
                    let (x, y) = (sx + col as i32, sy + row as i32);
                    (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
                }
            }
        }
        let mut listed_pixels = 0u64;
        for row in 0..30 {
            for col in 0..40 {
                let n = listed[row][col];
                assert!(n <= 1, "round {round}: pixel listed {n} times");
                listed_pixels += u64::from(n);
                if added[row][col] {
                    assert_eq!(n, 1, "round {round}: an added pixel is not listed");
                }
                let (x, y) = (sx + col as i32, sy + row as i32);
                if n > 0 && !d.is_full_screen() {
                    assert!(x >= x0 && x < x1 && y >= y0 && y < y1, "round {round}: listed outside the added box");
                }
            }
        }
        assert_eq!(d.area(), listed_pixels, "round {round}");
        if any && !d.is_full_screen() {
            assert_eq!(d.bounds(), Some(r(x0, y0, (x1 - x0) as u32, (y1 - y0) as u32)), "round {round}");
        }
        full_rounds += u32::from(d.is_full_screen());
        multi_rounds += u32::from(d.len() >= 3);
    }
    // The rounds exercise both overflow and lists of several rectangles.
    assert!(full_rounds >= 10 && multi_rounds >= 50, "full {full_rounds}, multi {multi_rounds}");
}
