//! Sheet geometry: grid cells and trimmed atlas frames, in integer pixels.

/// A rectangle in pixels: top-left corner `(x, y)`, size `w × h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// A sprite sheet laid out on a grid. Cells are numbered left to right, then top to bottom, from 0:
///
/// ```text
/// +---+---+---+
/// | 0 | 1 | 2 |
/// +---+---+---+
/// | 3 | 4 | 5 |
/// +---+---+---+
/// ```
///
/// `margin` pixels surround the grid, `spacing` pixels separate neighbouring cells.
///
/// ```
/// use ossicle::sprite::{Grid, Rect};
/// // A 100 × 50 sheet, 3 × 2 cells, 2 px margin, 1 px spacing: cells are 31 × 22.
/// let g = Grid::from_sheet(100, 50, 3, 2, 2, 1).unwrap();
/// assert_eq!(g.cell(4), Some(Rect { x: 2 + 32, y: 2 + 23, w: 31, h: 22 }));
/// assert_eq!(g.cell(6), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Grid {
    /// Cells across.
    pub columns: u32,
    /// Cells down.
    pub rows: u32,
    /// Width of a cell.
    pub cell_w: u32,
    /// Height of a cell.
    pub cell_h: u32,
    /// Pixels around the outside of the grid.
    pub margin: u32,
    /// Pixels between neighbouring cells.
    pub spacing: u32,
}

impl Grid {
    /// The grid of a `width × height` sheet with `columns × rows` cells: each cell is
    /// `(width − 2·margin − (columns − 1)·spacing) / columns` wide (rounded down), likewise high.
    /// `None` when there are no cells or they would have no pixels.
    pub fn from_sheet(width: u32, height: u32, columns: u32, rows: u32, margin: u32, spacing: u32) -> Option<Self> {
        let inner = |total: u32, n: u32| -> Option<u32> {
            let gaps = spacing.checked_mul(n.checked_sub(1)?)?;
            let avail = total.checked_sub(margin.checked_mul(2)?)?.checked_sub(gaps)?;
            let c = avail.checked_div(n)?;
            (c > 0).then_some(c)
        };
        Some(Self { columns, rows, cell_w: inner(width, columns)?, cell_h: inner(height, rows)?, margin, spacing })
    }

    /// The number of cells, `columns × rows` (saturating).
    pub fn cell_count(&self) -> u32 {
        self.columns.saturating_mul(self.rows)
    }

    /// The rectangle of cell `index`, or `None` past the last cell (or if it lies beyond `i32`).
    pub fn cell(&self, index: u32) -> Option<Rect> {
        if index >= self.cell_count() {
            return None;
        }
        let col = index.checked_rem(self.columns)?;
        let row = index.checked_div(self.columns)?;
        let pos = |i: u32, size: u32| -> Option<i32> {
            let step = size.checked_add(self.spacing)?;
            i32::try_from(self.margin.checked_add(i.checked_mul(step)?)?).ok()
        };
        Some(Rect { x: pos(col, self.cell_w)?, y: pos(row, self.cell_h)?, w: self.cell_w, h: self.cell_h })
    }

    /// Cell `index` as an untrimmed [`FrameRect`].
    pub fn frame(&self, index: u32) -> Option<FrameRect> {
        self.cell(index).map(FrameRect::untrimmed)
    }
}

/// A frame of an atlas: where its (possibly trimmed) pixels are on the sheet, and where they sit in
/// the untrimmed source frame, so that drawing every frame of an animation at the same position
/// keeps still pixels still.
///
/// ```
/// use ossicle::sprite::{FrameRect, Rect};
/// // A 32 × 32 source frame trimmed to 10 × 12 pixels that began at (5, 20) in it.
/// let f = FrameRect { x: 64, y: 0, w: 10, h: 12, offset_x: 5, offset_y: 20, source_w: 32, source_h: 32 };
/// assert_eq!(f.dest(100, 50), Rect { x: 105, y: 70, w: 10, h: 12 });
/// // Mirrored horizontally, the trimmed part sits at 32 − 5 − 10 = 17 from the left.
/// assert_eq!(f.dest_flipped(100, 50, true, false), Rect { x: 117, y: 70, w: 10, h: 12 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FrameRect {
    /// Left edge of the stored pixels on the sheet.
    pub x: u32,
    /// Top edge of the stored pixels on the sheet.
    pub y: u32,
    /// Width of the stored (trimmed) pixels.
    pub w: u32,
    /// Height of the stored (trimmed) pixels.
    pub h: u32,
    /// Where the stored pixels begin inside the untrimmed frame, from its left.
    pub offset_x: u32,
    /// Where the stored pixels begin inside the untrimmed frame, from its top.
    pub offset_y: u32,
    /// Width of the untrimmed frame.
    pub source_w: u32,
    /// Height of the untrimmed frame.
    pub source_h: u32,
}

impl FrameRect {
    /// An untrimmed frame covering `r` (a negative corner counts as 0).
    pub fn untrimmed(r: Rect) -> Self {
        let x = u32::try_from(r.x).unwrap_or(0);
        let y = u32::try_from(r.y).unwrap_or(0);
        Self { x, y, w: r.w, h: r.h, offset_x: 0, offset_y: 0, source_w: r.w, source_h: r.h }
    }

    /// Where the stored pixels are on the sheet.
    pub fn sheet_rect(&self) -> Rect {
        Rect { x: clamp_i32(u64::from(self.x)), y: clamp_i32(u64::from(self.y)), w: self.w, h: self.h }
    }

    /// Where to draw the stored pixels when the untrimmed frame's top-left corner is at `(x, y)`
    /// (saturating at the `i32` range).
    pub fn dest(&self, x: i32, y: i32) -> Rect {
        self.dest_flipped(x, y, false, false)
    }

    /// As [`dest`](Self::dest) for a frame drawn mirrored: horizontally the stored pixels begin
    /// `source_w − offset_x − w` from the left (0 if the frame data is inconsistent), likewise
    /// vertically.
    pub fn dest_flipped(&self, x: i32, y: i32, flip_x: bool, flip_y: bool) -> Rect {
        let mirrored = |source: u32, offset: u32, size: u32| source.saturating_sub(offset).saturating_sub(size);
        let ox = if flip_x { mirrored(self.source_w, self.offset_x, self.w) } else { self.offset_x };
        let oy = if flip_y { mirrored(self.source_h, self.offset_y, self.h) } else { self.offset_y };
        Rect { x: add_offset(x, ox), y: add_offset(y, oy), w: self.w, h: self.h }
    }
}

fn clamp_i32(v: u64) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

fn add_offset(p: i32, o: u32) -> i32 {
    let v = i64::from(p).saturating_add(i64::from(o));
    i32::try_from(v).unwrap_or(i32::MAX)
}
