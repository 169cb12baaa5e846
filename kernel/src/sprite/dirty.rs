//! Dirty regions: a small fixed-capacity list of screen rectangles to redraw.
//!
//! An application adds the rectangles that changed since the last draw (for a moving sprite, its
//! old and its new bounds) and then redraws only what [`DirtyRects::iter`] yields; on SPI panels
//! this is the difference between a few frames per second and 60.
//!
//! # Rules
//!
//! - **Clipping**: every added rectangle is clipped to the screen given to [`DirtyRects::new`];
//!   what is empty after clipping (zero width or height, or off screen) is ignored.
//! - **Merging**: a new rectangle is merged with every listed rectangle it overlaps or touches
//!   (shares an edge segment with; a shared corner alone does not count), into their bounding box,
//!   and the merging repeats until the box touches no other listed rectangle. So the list never
//!   holds two rectangles that overlap or touch, and no pixel is listed twice. Merging can grow
//!   the covered area: the bounding box of an L-shaped pair also covers the corner the pair left
//!   free. That is the usual trade-off — fewer, larger rectangles are cheaper to send to a panel
//!   than many small ones — and it is why rectangles that are merely close are *not* merged.
//! - **Overflow**: when a rectangle that merges with nothing finds the list full, the list falls
//!   back to a single full-screen rectangle and [`DirtyRects::is_full_screen`] says so until
//!   [`DirtyRects::clear`]; further additions change nothing. ([`DirtyRects::try_add`] refuses
//!   instead.) A merge that happens to cover the whole screen also makes the list full-screen.
//! - **Arithmetic**: edges are computed in `i64`, so no input overflows or panics. A rectangle's
//!   right edge `x + w` may lie beyond `i32::MAX`; a bounding box wider or higher than `u32::MAX`
//!   (only possible outside any screen, with [`RectExt::union`]) saturates its size.
//!
//! # Memory
//!
//! A `DirtyRects<N>` is [`DirtyRects::BYTES`] = `16 × N + 24` bytes on every target (16 per
//! rectangle; the screen, a `u32` length and the full-screen flag).
//!
//! # Example
//!
//! ```
//! use ossicle::sprite::{DirtyRects, Rect};
//! let mut dirty: DirtyRects<8> = DirtyRects::new(Rect { x: 0, y: 0, w: 320, h: 240 });
//! dirty.add(Rect { x: 10, y: 10, w: 20, h: 20 }); // a sprite's old bounds
//! dirty.add(Rect { x: 14, y: 10, w: 20, h: 20 }); // its new bounds: they overlap, one rectangle
//! dirty.add(Rect { x: 300, y: 230, w: 50, h: 50 }); // clipped to 20 × 10
//! let rects: Vec<Rect> = dirty.iter().collect();
//! assert_eq!(rects, [Rect { x: 10, y: 10, w: 24, h: 20 }, Rect { x: 300, y: 230, w: 20, h: 10 }]);
//! assert_eq!(dirty.area(), 24 * 20 + 20 * 10);
//! dirty.clear();
//! assert!(dirty.is_empty());
//! ```

use super::Rect;
use core::fmt;

/// Rectangle helpers for dirty regions (in this trait so that [`Rect`] itself stays plain data).
///
/// A rectangle covers the pixels `x ≤ px < x + w`, `y ≤ py < y + h`; edges are computed in `i64`,
/// so nothing here overflows or panics.
///
/// ```
/// use ossicle::sprite::{Rect, RectExt};
/// let a = Rect { x: 0, y: 0, w: 10, h: 10 };
/// let b = Rect { x: 10, y: 5, w: 10, h: 10 };
/// assert!(a.touches(&b) && !a.intersects(&b)); // they share the edge x = 10
/// assert_eq!(a.intersection(&b), None);
/// assert_eq!(a.union(&b), Rect { x: 0, y: 0, w: 20, h: 15 });
/// ```
pub trait RectExt {
    /// Whether the rectangle covers no pixel (zero width or height).
    fn is_empty(&self) -> bool;
    /// The right edge, `x + w` (exclusive).
    fn right(&self) -> i64;
    /// The bottom edge, `y + h` (exclusive).
    fn bottom(&self) -> i64;
    /// The number of pixels, `w × h`.
    fn area(&self) -> u64;
    /// Whether both rectangles cover a common pixel (false if either is empty).
    fn intersects(&self, other: &Rect) -> bool;
    /// Whether the rectangles overlap or share an edge segment (a shared corner alone does not
    /// count; false if either is empty).
    fn touches(&self, other: &Rect) -> bool;
    /// The pixels both cover, or `None` when there are none.
    fn intersection(&self, other: &Rect) -> Option<Rect>;
    /// The smallest rectangle holding both; an empty rectangle is ignored (the union of two empty
    /// ones is `self`). A size beyond `u32::MAX` saturates.
    fn union(&self, other: &Rect) -> Rect;
}

impl RectExt for Rect {
    fn is_empty(&self) -> bool {
        self.w == 0 || self.h == 0
    }

    fn right(&self) -> i64 {
        i64::from(self.x) + i64::from(self.w)
    }

    fn bottom(&self) -> i64 {
        i64::from(self.y) + i64::from(self.h)
    }

    fn area(&self) -> u64 {
        // (2³² − 1)² < 2⁶⁴: cannot overflow, but saturate anyway.
        u64::from(self.w).saturating_mul(u64::from(self.h))
    }

    fn intersects(&self, other: &Rect) -> bool {
        let (ox, oy) = overlaps(self, other);
        !self.is_empty() && !other.is_empty() && ox > 0 && oy > 0
    }

    fn touches(&self, other: &Rect) -> bool {
        let (ox, oy) = overlaps(self, other);
        !self.is_empty() && !other.is_empty() && ox >= 0 && oy >= 0 && (ox > 0 || oy > 0)
    }

    fn intersection(&self, other: &Rect) -> Option<Rect> {
        if !self.intersects(other) {
            return None;
        }
        let left = self.x.max(other.x);
        let top = self.y.max(other.y);
        let right = self.right().min(other.right());
        let bottom = self.bottom().min(other.bottom());
        Some(from_edges(left, top, right, bottom))
    }

    fn union(&self, other: &Rect) -> Rect {
        if other.is_empty() {
            return *self;
        }
        if self.is_empty() {
            return *other;
        }
        let left = self.x.min(other.x);
        let top = self.y.min(other.y);
        let right = self.right().max(other.right());
        let bottom = self.bottom().max(other.bottom());
        from_edges(left, top, right, bottom)
    }
}

/// The lengths of the overlaps along x and y (negative: a gap between the rectangles).
fn overlaps(a: &Rect, b: &Rect) -> (i64, i64) {
    let ox = a.right().min(b.right()) - i64::from(a.x.max(b.x));
    let oy = a.bottom().min(b.bottom()) - i64::from(a.y.max(b.y));
    (ox, oy)
}

/// The rectangle with these edges; a size that does not fit a `u32` saturates (a negative one is 0).
fn from_edges(left: i32, top: i32, right: i64, bottom: i64) -> Rect {
    let size = |lo: i32, hi: i64| u32::try_from(hi.saturating_sub(i64::from(lo)).max(0)).unwrap_or(u32::MAX);
    Rect { x: left, y: top, w: size(left, right), h: size(top, bottom) }
}

/// [`DirtyRects::try_add`] found no free slot for a rectangle that merges with nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DirtyOverflow;

impl fmt::Display for DirtyOverflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the dirty-rectangle list is full")
    }
}

/// At most `N` screen rectangles to redraw, none of them overlapping or touching another; see the
/// [module documentation](self) for the rules.
///
/// ```
/// use ossicle::sprite::{DirtyRects, Rect};
/// let mut dirty: DirtyRects<2> = DirtyRects::new(Rect { x: 0, y: 0, w: 100, h: 100 });
/// dirty.add(Rect { x: 0, y: 0, w: 5, h: 5 });
/// dirty.add(Rect { x: 50, y: 50, w: 5, h: 5 });
/// assert_eq!(dirty.len(), 2);
/// dirty.add(Rect { x: 90, y: 0, w: 5, h: 5 }); // a third separate rectangle: full screen
/// assert!(dirty.is_full_screen());
/// assert_eq!(dirty.iter().collect::<Vec<_>>(), [Rect { x: 0, y: 0, w: 100, h: 100 }]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirtyRects<const N: usize> {
    rects: heapless::Vec<Rect, N, u32>,
    screen: Rect,
    full: bool,
}

impl<const N: usize> DirtyRects<N> {
    /// The size of the list in bytes (`16 × N + 24`).
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// An empty list for a screen (usually at `(0, 0)`, the panel's size).
    pub fn new(screen: Rect) -> Self {
        Self { rects: heapless::Vec::new(), screen, full: false }
    }

    /// The screen given to [`new`](Self::new).
    pub fn screen(&self) -> Rect {
        self.screen
    }

    /// Marks `rect` (clipped to the screen) dirty, merging it with the rectangles it overlaps or
    /// touches; when that needs a slot and none is left, the whole screen becomes dirty.
    pub fn add(&mut self, rect: Rect) {
        if self.try_add(rect).is_err() {
            self.mark_full_screen();
        }
    }

    /// As [`add`](Self::add), but when no slot is left for a rectangle that merges with nothing,
    /// refuses it and leaves the list unchanged.
    pub fn try_add(&mut self, rect: Rect) -> Result<(), DirtyOverflow> {
        if self.full {
            return Ok(());
        }
        let Some(mut r) = rect.intersection(&self.screen) else {
            return Ok(()); // empty after clipping
        };
        let fits = self.rects.len() < N || self.rects.iter().any(|o| o.touches(&r));
        if !fits {
            return Err(DirtyOverflow);
        }
        // Absorb every listed rectangle the growing box touches, until a pass absorbs none (each
        // pass that absorbs one removes it, so this ends after at most N + 1 passes).
        loop {
            let mut absorbed = false;
            self.rects.retain(|o| {
                let t = o.touches(&r);
                if t {
                    r = r.union(o);
                    absorbed = true;
                }
                !t
            });
            if !absorbed {
                break;
            }
        }
        if r == self.screen {
            self.mark_full_screen();
            return Ok(());
        }
        // A slot is free: either there was one, or at least one rectangle was absorbed.
        self.rects.push(r).map_err(|_| DirtyOverflow)
    }

    /// Makes the whole screen dirty (e.g. after a palette change); nothing if the screen is empty.
    pub fn mark_full_screen(&mut self) {
        if !self.screen.is_empty() {
            self.rects.clear();
            self.full = true;
        }
    }

    /// Whether the whole screen is dirty: after an overflow, [`mark_full_screen`], or when the
    /// added rectangles merged into the whole screen.
    ///
    /// [`mark_full_screen`]: Self::mark_full_screen
    pub fn is_full_screen(&self) -> bool {
        self.full
    }

    /// The rectangles to redraw: the whole screen alone when [full-screen](Self::is_full_screen),
    /// else the listed rectangles (in no promised order).
    pub fn iter(&self) -> impl Iterator<Item = Rect> + '_ {
        let screen = if self.full { Some(self.screen) } else { None };
        screen.into_iter().chain(self.rects.iter().copied())
    }

    /// How many rectangles [`iter`](Self::iter) yields (1 when full-screen).
    pub fn len(&self) -> usize {
        if self.full {
            1
        } else {
            self.rects.len()
        }
    }

    /// Whether nothing is dirty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many separate rectangles the list holds before it falls back to the full screen.
    pub fn capacity(&self) -> usize {
        N
    }

    /// Empties the list (also leaving full-screen mode), e.g. after drawing.
    pub fn clear(&mut self) {
        self.rects.clear();
        self.full = false;
    }

    /// The bounding box of everything dirty, or `None` when nothing is.
    pub fn bounds(&self) -> Option<Rect> {
        self.iter().reduce(|a, b| a.union(&b))
    }

    /// The number of dirty pixels: the sum of the rectangles' areas (they never overlap, so no
    /// pixel counts twice), saturating.
    pub fn area(&self) -> u64 {
        self.iter().fold(0u64, |s, r| s.saturating_add(r.area()))
    }
}
