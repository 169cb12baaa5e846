//! Per-sprite change tracking for dirty regions ([`SpriteOutput`]) and the quarter-turn
//! [`Rotation`] of sprite draws.

use super::dirty::{DirtyRects, RectExt};
use super::Rect;

/// A rotation in quarter turns, clockwise on screen (y down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Rotation {
    /// Not turned.
    #[default]
    Deg0,
    /// A quarter turn clockwise.
    Deg90,
    /// A half turn.
    Deg180,
    /// Three quarter turns clockwise (a quarter turn counter-clockwise).
    Deg270,
}

impl Rotation {
    /// `n` quarter turns clockwise (taken modulo 4; negative turns counter-clockwise).
    ///
    /// ```
    /// use ossicle::sprite::Rotation;
    /// assert_eq!(Rotation::from_quarter_turns(5), Rotation::Deg90);
    /// assert_eq!(Rotation::from_quarter_turns(-1), Rotation::Deg270);
    /// ```
    pub const fn from_quarter_turns(n: i32) -> Self {
        match n.rem_euclid(4) {
            0 => Rotation::Deg0,
            1 => Rotation::Deg90,
            2 => Rotation::Deg180,
            _ => Rotation::Deg270,
        }
    }

    /// The number of quarter turns clockwise, 0 to 3.
    pub const fn quarter_turns(self) -> u8 {
        match self {
            Rotation::Deg0 => 0,
            Rotation::Deg90 => 1,
            Rotation::Deg180 => 2,
            Rotation::Deg270 => 3,
        }
    }

    /// Whether the rotation swaps width and height (90° and 270°).
    pub const fn swaps_axes(self) -> bool {
        matches!(self, Rotation::Deg90 | Rotation::Deg270)
    }
}

/// Everything that decides what a sprite puts on screen. Two equal appearances draw the same
/// pixels in the same place (given the same frame data and palettes).
///
/// ```
/// use ossicle::sprite::{Appearance, Rect, Rotation};
/// let a = Appearance::new(3, Rect { x: 0, y: 0, w: 8, h: 8 });
/// assert_eq!((a.frame, a.scale, a.rotation, a.palette), (3, 1, Rotation::Deg0, 0));
/// let turned = Appearance { rotation: Rotation::Deg90, ..a };
/// assert_ne!(a, turned);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Appearance {
    /// The source frame (sheet cell or atlas frame) index.
    pub frame: u32,
    /// The screen rectangle the draw may touch.
    pub rect: Rect,
    /// Mirrored left to right.
    pub flip_h: bool,
    /// Mirrored top to bottom.
    pub flip_v: bool,
    /// Quarter turns.
    pub rotation: Rotation,
    /// Integer scale.
    pub scale: u8,
    /// The caller's key for the palette in effect (0: the frame's own), e.g. a team number.
    pub palette: u32,
    /// The caller's key for anything else that changes the pixels but maybe not the rectangle,
    /// e.g. a hash of an affine transform (0 if none).
    pub transform: u32,
}

impl Appearance {
    /// Frame `frame` in `rect`: no flip, no rotation, scale 1, palette and transform keys 0.
    pub const fn new(frame: u32, rect: Rect) -> Self {
        Self { frame, rect, flip_h: false, flip_v: false, rotation: Rotation::Deg0, scale: 1, palette: 0, transform: 0 }
    }
}

/// What one sprite last drew, for dirty tracking.
///
/// A game loop keeps one `SpriteOutput` per drawn sprite. Each frame it describes what the sprite
/// would draw now (an [`Appearance`]: source frame, screen rectangle, flips, rotation, scale,
/// palette and transform keys); if that equals what was drawn last, nothing needs redrawing for
/// this sprite; otherwise both the old and the new rectangles are dirty (the old one to erase, the
/// new one to draw). [`update`](Self::update) does the bookkeeping into a [`DirtyRects`] list;
/// [`change`](Self::change) reports the union instead. The rectangle is the caller's: for the
/// integer blit, `ossicle::draw::frame_bounds` (feature `graphics`) gives it; for an affine draw,
/// `ossicle::draw::affine_bounds`.
///
/// Memory: [`SpriteOutput::BYTES`] = 32 bytes on every target (the `bool` fields leave a niche
/// for the `Option`); nothing else is kept.
///
/// ```
/// use ossicle::sprite::{Appearance, DirtyRects, Rect, SpriteOutput};
/// let mut dirty: DirtyRects<4> = DirtyRects::new(Rect { x: 0, y: 0, w: 320, h: 240 });
/// let mut out = SpriteOutput::new();
/// let a = Appearance::new(0, Rect { x: 10, y: 10, w: 16, h: 16 });
/// assert!(out.update(a, &mut dirty)); // first draw: its rectangle is dirty
/// assert_eq!(dirty.iter().collect::<Vec<_>>(), [Rect { x: 10, y: 10, w: 16, h: 16 }]);
/// dirty.clear();
/// assert!(!out.update(a, &mut dirty)); // the same again: nothing to redraw
/// assert!(dirty.is_empty());
/// // Next frame of the animation, moved 100 px right: the old place and the new one.
/// let b = Appearance::new(1, Rect { x: 110, y: 10, w: 16, h: 16 });
/// assert_eq!(out.change(&b), Some(Rect { x: 10, y: 10, w: 116, h: 16 }));
/// assert!(out.update(b, &mut dirty));
/// assert_eq!(dirty.len(), 2); // two separate rectangles, not their union
/// // Hidden: its rectangle must be repainted.
/// assert_eq!(out.hide(), Some(Rect { x: 110, y: 10, w: 16, h: 16 }));
/// assert_eq!(out.drawn(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SpriteOutput {
    drawn: Option<Appearance>,
}

impl SpriteOutput {
    /// The size in bytes.
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// Nothing drawn yet.
    pub const fn new() -> Self {
        Self { drawn: None }
    }

    /// What was last drawn, if anything is shown.
    pub const fn drawn(&self) -> Option<Appearance> {
        self.drawn
    }

    /// Whether drawing `next` would change the screen: nothing is shown, or what is shown differs.
    pub fn changed(&self, next: &Appearance) -> bool {
        self.drawn.as_ref() != Some(next)
    }

    /// `None` when `next` is what is shown; otherwise the union of the shown rectangle (if any) and
    /// `next`'s: everything the change repaints (empty rectangles are ignored by the union).
    pub fn change(&self, next: &Appearance) -> Option<Rect> {
        if !self.changed(next) {
            return None;
        }
        Some(match &self.drawn {
            Some(old) => old.rect.union(&next.rect),
            None => next.rect,
        })
    }

    /// Records that `now` was drawn.
    pub fn mark_drawn(&mut self, now: Appearance) {
        self.drawn = Some(now);
    }

    /// Forgets what was shown (the sprite was removed or hidden) and returns its rectangle, which
    /// must be repainted; `None` if nothing was shown or its rectangle is empty.
    pub fn hide(&mut self) -> Option<Rect> {
        self.drawn.take().map(|a| a.rect).filter(|r| !r.is_empty())
    }

    /// If `next` differs from what is shown: adds the old rectangle and the new one to `dirty` (as
    /// two rectangles, which the list merges only if they touch), records `next` as drawn and
    /// returns `true`; otherwise changes nothing and returns `false`.
    pub fn update<const N: usize>(&mut self, next: Appearance, dirty: &mut DirtyRects<N>) -> bool {
        if !self.changed(&next) {
            return false;
        }
        if let Some(old) = self.drawn {
            dirty.add(old.rect);
        }
        dirty.add(next.rect);
        self.drawn = Some(next);
        true
    }

    /// [`hide`](Self::hide), adding the old rectangle to `dirty`.
    pub fn hide_into<const N: usize>(&mut self, dirty: &mut DirtyRects<N>) {
        if let Some(r) = self.hide() {
            dirty.add(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn r(x: i32, y: i32, w: u32, h: u32) -> Rect {
        Rect { x, y, w, h }
    }

    #[test]
    fn rotation_turns() {
        for n in -8..8 {
            let rot = Rotation::from_quarter_turns(n);
            assert_eq!(i32::from(rot.quarter_turns()), n.rem_euclid(4));
            assert_eq!(rot.swaps_axes(), n.rem_euclid(2) == 1);
        }
        assert_eq!(Rotation::default(), Rotation::Deg0);
        assert_eq!(Rotation::from_quarter_turns(i32::MIN), Rotation::Deg0); // −2³¹ is a multiple of 4
    }

    #[test]
    fn first_draw_marks_its_rect() {
        let out = SpriteOutput::new();
        let a = Appearance::new(0, r(-5, 7, 20, 10));
        assert!(out.changed(&a));
        assert_eq!(out.change(&a), Some(r(-5, 7, 20, 10)));
        assert_eq!(out.drawn(), None);
    }

    #[test]
    fn every_field_counts_as_a_change() {
        let base = Appearance::new(2, r(10, 20, 8, 8));
        let mut out = SpriteOutput::new();
        out.mark_drawn(base);
        assert_eq!(out.change(&base), None);
        let variants = [
            Appearance { frame: 3, ..base },
            Appearance { flip_h: true, ..base },
            Appearance { flip_v: true, ..base },
            Appearance { rotation: Rotation::Deg270, ..base },
            Appearance { scale: 2, ..base },
            Appearance { palette: 1, ..base },
            Appearance { transform: 0xDEAD, ..base },
        ];
        for v in variants {
            // Same rectangle: the union is that rectangle.
            assert_eq!(out.change(&v), Some(r(10, 20, 8, 8)), "{v:?}");
        }
    }

    #[test]
    fn moving_unions_old_and_new() {
        let mut out = SpriteOutput::new();
        out.mark_drawn(Appearance::new(0, r(10, 10, 16, 16)));
        // Moved by (+3, −4): union x 10..29, y 6..26.
        assert_eq!(out.change(&Appearance::new(0, r(13, 6, 16, 16))), Some(r(10, 6, 19, 20)));
        // Grown (scale 2 from the same corner): the new rectangle holds the old one.
        let big = Appearance { scale: 2, ..Appearance::new(0, r(10, 10, 32, 32)) };
        assert_eq!(out.change(&big), Some(r(10, 10, 32, 32)));
        // To an empty rectangle (an empty frame): only the old one is repainted.
        assert_eq!(out.change(&Appearance::new(1, r(50, 50, 0, 0))), Some(r(10, 10, 16, 16)));
    }

    #[test]
    fn hide_reports_the_old_rect_once() {
        let mut out = SpriteOutput::new();
        assert_eq!(out.hide(), None);
        out.mark_drawn(Appearance::new(0, r(1, 2, 3, 4)));
        assert_eq!(out.hide(), Some(r(1, 2, 3, 4)));
        assert_eq!(out.hide(), None);
        // After hiding, drawing the same appearance again is a change.
        assert_eq!(out.change(&Appearance::new(0, r(1, 2, 3, 4))), Some(r(1, 2, 3, 4)));
        out.mark_drawn(Appearance::new(0, r(1, 2, 0, 4)));
        assert_eq!(out.hide(), None); // empty: nothing to repaint
    }

    #[test]
    fn update_feeds_dirty_rects() {
        let screen = r(0, 0, 100, 100);
        let mut dirty: DirtyRects<4> = DirtyRects::new(screen);
        let mut out = SpriteOutput::new();
        assert!(out.update(Appearance::new(0, r(0, 0, 10, 10)), &mut dirty));
        assert_eq!(dirty.iter().collect::<heapless::Vec<_, 4>>(), [r(0, 0, 10, 10)]);
        dirty.clear();
        assert!(!out.update(Appearance::new(0, r(0, 0, 10, 10)), &mut dirty));
        assert!(dirty.is_empty());
        // Moved far: two rectangles, 200 pixels, not the 60 × 10 union.
        assert!(out.update(Appearance::new(0, r(50, 0, 10, 10)), &mut dirty));
        assert_eq!(dirty.len(), 2);
        assert_eq!(dirty.area(), 200);
        dirty.clear();
        // Moved by 4: the rectangles overlap and merge into x 46..60.
        assert!(out.update(Appearance::new(0, r(46, 0, 10, 10)), &mut dirty));
        assert_eq!(dirty.iter().collect::<heapless::Vec<_, 4>>(), [r(46, 0, 14, 10)]);
        dirty.clear();
        // Partly off screen: clipped by the list.
        assert!(out.update(Appearance::new(0, r(95, 95, 10, 10)), &mut dirty));
        let mut got: heapless::Vec<Rect, 4> = dirty.iter().collect();
        got.sort_by_key(|r| r.x);
        assert_eq!(got, [r(46, 0, 10, 10), r(95, 95, 5, 5)]);
        dirty.clear();
        out.hide_into(&mut dirty);
        assert_eq!(dirty.iter().collect::<heapless::Vec<_, 4>>(), [r(95, 95, 5, 5)]);
        assert_eq!(out.drawn(), None);
    }

    #[test]
    fn size() {
        assert_eq!(SpriteOutput::BYTES, 32);
    }
}
