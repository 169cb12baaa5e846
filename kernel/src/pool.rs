//! Fixed-capacity object pools with generational handles.
//!
//! A [`Pool<T, N>`] stores up to `N` values inline (no allocation) and hands out [`Handle<T>`]s.
//! A handle names a slot *and* the generation of the value that was in it, so after the value is
//! removed the handle is stale: every access with it is an [`PoolError::Stale`] error, never
//! another value that later took the slot. Handles are typed (a `Handle<Tween>` cannot be used with
//! a pool of sprites) and carry the pool's tag, so a handle from another pool of the same type is a
//! [`PoolError::Foreign`] error when the pools have different tags ([`Pool::with_tag`]).
//!
//! ```
//! use ossicle::pool::{Pool, PoolError};
//! let mut pool: Pool<&str, 2> = Pool::new();
//! let a = pool.insert("a")?;
//! let b = pool.insert("b")?;
//! assert!(matches!(pool.insert("c"), Err(PoolError::Full { capacity: 2 })));
//! assert_eq!(pool.remove(a)?, "a");
//! let c = pool.insert("c")?; // reuses a's slot with a new generation
//! assert!(matches!(pool.get(a), Err(PoolError::Stale { .. })));
//! assert_eq!(*pool.get(c)?, "c");
//! assert_eq!(*pool.get(b)?, "b");
//! # Ok::<(), PoolError>(())
//! ```

use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

/// A reference to a value in a [`Pool`]: slot index, generation and pool tag.
pub struct Handle<T> {
    index: u16,
    tag: u16,
    generation: u32,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    const fn new(index: u16, tag: u16, generation: u32) -> Self {
        Self { index, tag, generation, _marker: PhantomData }
    }

    /// The slot index.
    pub const fn index(&self) -> u16 {
        self.index
    }

    /// The generation of the value this handle refers to.
    pub const fn generation(&self) -> u32 {
        self.generation
    }

    /// The tag of the pool that issued this handle.
    pub const fn tag(&self) -> u16 {
        self.tag
    }

    /// The handle packed into 64 bits (for storing as a plain id, e.g. in an event).
    pub const fn to_bits(&self) -> u64 {
        ((self.generation as u64) << 32) | ((self.tag as u64) << 16) | self.index as u64
    }

    /// Unpacks a handle made by [`Handle::to_bits`]. A value that did not come from a handle is safe
    /// to unpack: the pool refuses it as stale, foreign or out of range.
    pub const fn from_bits(bits: u64) -> Self {
        Self::new(bits as u16, (bits >> 16) as u16, (bits >> 32) as u32)
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}
impl<T> Eq for Handle<T> {}
impl<T> Hash for Handle<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_bits().hash(state);
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Handle({}v{}@{})", self.index, self.generation, self.tag)
    }
}
#[cfg(feature = "defmt")]
impl<T> defmt::Format for Handle<T> {
    fn format(&self, f: defmt::Formatter) {
        defmt::write!(f, "Handle({=u16}v{=u32}@{=u16})", self.index, self.generation, self.tag)
    }
}

/// Why a pool operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PoolError {
    /// Every slot is in use.
    Full {
        /// The pool's capacity.
        capacity: usize,
    },
    /// The value the handle referred to was removed (the slot may hold a newer value).
    Stale {
        /// The slot index.
        index: u16,
        /// The handle's generation.
        generation: u32,
    },
    /// The handle was issued by a pool with another tag.
    Foreign {
        /// This pool's tag.
        expected: u16,
        /// The handle's tag.
        found: u16,
    },
    /// The handle's index is beyond this pool's capacity (it cannot have come from this pool).
    OutOfRange {
        /// The slot index.
        index: u16,
        /// The pool's capacity.
        capacity: usize,
    },
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Full { capacity } => write!(f, "pool is full ({capacity} slots in use)"),
            Self::Stale { index, generation } => {
                write!(f, "handle to slot {index} generation {generation} is stale (its value was removed)")
            }
            Self::Foreign { expected, found } => {
                write!(f, "handle from pool tagged {found} used with pool tagged {expected}")
            }
            Self::OutOfRange { index, capacity } => {
                write!(f, "handle index {index} is beyond the pool's {capacity} slots")
            }
        }
    }
}

enum Slot<T> {
    /// Never used, or free: `generation` is the generation the next value will get; `next` links
    /// the free list.
    Free { generation: u32, next: Option<u16> },
    /// Holds a value of the given generation.
    Occupied { generation: u32, value: T },
    /// Its generation counter is exhausted; never reused, so no old handle can ever match again.
    Retired,
}

/// A fixed-capacity pool of `N` values of type `T` (N at most 65,535), stored inline.
///
/// Insertion and removal are O(1) (a free list). Memory: `N` slots of `size_of::<T>()` plus the
/// generation and slot state (4 to 8 bytes, depending on `T`'s alignment and spare bits), and 12 to
/// 16 bytes of bookkeeping; `size_of::<Pool<T, N>>()` is exact.
pub struct Pool<T, const N: usize> {
    slots: [Slot<T>; N],
    /// First never-used slot.
    unused: u16,
    /// Head of the free list of previously used slots.
    free: Option<u16>,
    len: u16,
    tag: u16,
}

impl<T, const N: usize> Default for Pool<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> Pool<T, N> {
    const CAPACITY_FITS: () = assert!(N <= u16::MAX as usize, "a Pool holds at most 65535 values");

    /// An empty pool with tag 0.
    pub const fn new() -> Self {
        Self::with_tag(0)
    }

    /// An empty pool whose handles carry `tag`, so handles of other pools (with other tags) are
    /// refused as [`PoolError::Foreign`].
    pub const fn with_tag(tag: u16) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::CAPACITY_FITS;
        Self { slots: [const { Slot::Free { generation: 0, next: None } }; N], unused: 0, free: None, len: 0, tag }
    }

    /// The pool's tag.
    pub const fn tag(&self) -> u16 {
        self.tag
    }

    /// The number of values.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the pool holds no values.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The maximum number of values, `N`.
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Stores `value` and returns its handle, or [`PoolError::Full`].
    pub fn insert(&mut self, value: T) -> Result<Handle<T>, PoolError> {
        let full = PoolError::Full { capacity: N };
        let index = match self.free {
            Some(i) => i,
            None if usize::from(self.unused) < N => self.unused,
            None => return Err(full),
        };
        let slot = self.slots.get_mut(usize::from(index)).ok_or(full)?;
        let (generation, next) = match *slot {
            Slot::Free { generation, next } => (generation, next),
            _ => return Err(full), // unreachable by construction: the free list only holds free slots
        };
        *slot = Slot::Occupied { generation, value };
        if self.free == Some(index) {
            self.free = next;
        } else {
            self.unused += 1; // < N <= u16::MAX, cannot overflow
        }
        self.len += 1;
        Ok(Handle::new(index, self.tag, generation))
    }

    fn check(&self, handle: Handle<T>) -> Result<usize, PoolError> {
        if handle.tag != self.tag {
            return Err(PoolError::Foreign { expected: self.tag, found: handle.tag });
        }
        let i = usize::from(handle.index);
        match self.slots.get(i) {
            None => Err(PoolError::OutOfRange { index: handle.index, capacity: N }),
            Some(Slot::Occupied { generation, .. }) if *generation == handle.generation => Ok(i),
            Some(_) => Err(PoolError::Stale { index: handle.index, generation: handle.generation }),
        }
    }

    /// Whether `handle` refers to a value in this pool.
    pub fn contains(&self, handle: Handle<T>) -> bool {
        self.check(handle).is_ok()
    }

    /// The value `handle` refers to.
    pub fn get(&self, handle: Handle<T>) -> Result<&T, PoolError> {
        let i = self.check(handle)?;
        match self.slots.get(i) {
            Some(Slot::Occupied { value, .. }) => Ok(value),
            _ => Err(PoolError::Stale { index: handle.index, generation: handle.generation }),
        }
    }

    /// The value `handle` refers to, mutably.
    pub fn get_mut(&mut self, handle: Handle<T>) -> Result<&mut T, PoolError> {
        let i = self.check(handle)?;
        match self.slots.get_mut(i) {
            Some(Slot::Occupied { value, .. }) => Ok(value),
            _ => Err(PoolError::Stale { index: handle.index, generation: handle.generation }),
        }
    }

    /// Removes and returns the value `handle` refers to; the handle (and every copy) becomes stale.
    pub fn remove(&mut self, handle: Handle<T>) -> Result<T, PoolError> {
        let i = self.check(handle)?;
        self.vacate(i).ok_or(PoolError::Stale { index: handle.index, generation: handle.generation })
    }

    /// Empties slot `i` if occupied, bumping its generation, and returns its value.
    fn vacate(&mut self, i: usize) -> Option<T> {
        let slot = self.slots.get_mut(i)?;
        vacate_slot(slot, i, &mut self.free, &mut self.len)
    }
    /// Removes every value; all handles become stale.
    pub fn clear(&mut self) {
        for i in 0..N {
            self.vacate(i);
        }
    }

    /// Keeps only the values for which `keep` returns true.
    pub fn retain(&mut self, mut keep: impl FnMut(Handle<T>, &mut T) -> bool) {
        let Self { slots, free, len, tag, .. } = self;
        for (i, slot) in slots.iter_mut().enumerate() {
            let drop = match slot {
                Slot::Occupied { generation, value } => !keep(Handle::new(i as u16, *tag, *generation), value),
                _ => false,
            };
            if drop {
                vacate_slot(slot, i, free, len);
            }
        }
    }
    /// The values with their handles, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> + '_ {
        let tag = self.tag;
        self.slots.iter().enumerate().filter_map(move |(i, s)| match s {
            Slot::Occupied { generation, value } => Some((Handle::new(i as u16, tag, *generation), value)),
            _ => None,
        })
    }

    /// The values with their handles, mutably, in slot order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Handle<T>, &mut T)> + '_ {
        let tag = self.tag;
        self.slots.iter_mut().enumerate().filter_map(move |(i, s)| match s {
            Slot::Occupied { generation, value } => Some((Handle::new(i as u16, tag, *generation), value)),
            _ => None,
        })
    }
}

/// Empties `slot` (index `i`) if occupied, bumping its generation (or retiring it when the
/// generation is exhausted), links it into the free list, and returns its value.
fn vacate_slot<T>(slot: &mut Slot<T>, i: usize, free: &mut Option<u16>, len: &mut u16) -> Option<T> {
    let generation = match slot {
        Slot::Occupied { generation, .. } => *generation,
        _ => return None,
    };
    let replacement = match generation.checked_add(1) {
        Some(g) => Slot::Free { generation: g, next: *free },
        None => Slot::Retired,
    };
    let old = core::mem::replace(slot, replacement);
    if matches!(slot, Slot::Free { .. }) {
        *free = u16::try_from(i).ok();
    }
    *len = len.saturating_sub(1);
    match old {
        Slot::Occupied { value, .. } => Some(value),
        _ => None,
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for Pool<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_and_refuses_when_full() {
        let mut p: Pool<u32, 3> = Pool::new();
        let hs = [p.insert(10).unwrap(), p.insert(11).unwrap(), p.insert(12).unwrap()];
        assert_eq!(p.insert(13), Err(PoolError::Full { capacity: 3 }));
        assert_eq!(p.len(), 3);
        for (k, h) in hs.iter().enumerate() {
            assert_eq!(*p.get(*h).unwrap(), 10 + k as u32);
        }
    }

    #[test]
    fn stale_handles_never_see_new_values() {
        let mut p: Pool<u32, 2> = Pool::new();
        let a = p.insert(1).unwrap();
        assert_eq!(p.remove(a), Ok(1));
        assert_eq!(p.remove(a), Err(PoolError::Stale { index: 0, generation: 0 }));
        let b = p.insert(2).unwrap();
        assert_eq!(b.index(), a.index());
        assert_eq!(b.generation(), 1);
        assert_eq!(p.get(a), Err(PoolError::Stale { index: 0, generation: 0 }));
        assert_eq!(p.get_mut(a), Err(PoolError::Stale { index: 0, generation: 0 }));
        assert!(!p.contains(a));
        assert_eq!(*p.get(b).unwrap(), 2);
    }

    #[test]
    fn foreign_and_out_of_range_handles_are_refused() {
        let mut p: Pool<u32, 2> = Pool::with_tag(1);
        let mut q: Pool<u32, 8> = Pool::with_tag(2);
        let a = p.insert(1).unwrap();
        for _ in 0..5 {
            q.insert(0).unwrap();
        }
        let far = q.insert(7).unwrap();
        assert_eq!(q.get(a), Err(PoolError::Foreign { expected: 2, found: 1 }));
        assert_eq!(p.get(far), Err(PoolError::Foreign { expected: 1, found: 2 }));
        let crafted = Handle::<u32>::from_bits(far.to_bits() & !0xFFFF_0000 | (1 << 16));
        assert_eq!(p.get(crafted), Err(PoolError::OutOfRange { index: 5, capacity: 2 }));
    }

    #[test]
    fn free_list_reuses_most_recently_freed_slot() {
        let mut p: Pool<u32, 4> = Pool::new();
        let h: [_; 4] = core::array::from_fn(|i| p.insert(i as u32).unwrap());
        p.remove(h[1]).unwrap();
        p.remove(h[3]).unwrap();
        assert_eq!(p.insert(30).unwrap().index(), 3);
        assert_eq!(p.insert(10).unwrap().index(), 1);
        assert!(p.insert(99).is_err());
        let values: heapless::Vec<u32, 4> = p.iter().map(|(_, v)| *v).collect();
        assert_eq!(&values[..], &[0, 10, 2, 30]);
    }

    #[test]
    fn clear_and_retain_invalidate_handles() {
        let mut p: Pool<u32, 4> = Pool::new();
        let h: [_; 4] = core::array::from_fn(|i| p.insert(i as u32).unwrap());
        p.retain(|_, v| *v % 2 == 0);
        assert_eq!(p.len(), 2);
        assert!(p.contains(h[0]) && !p.contains(h[1]) && p.contains(h[2]) && !p.contains(h[3]));
        p.clear();
        assert!(p.is_empty());
        assert!(h.iter().all(|&x| !p.contains(x)));
        for i in 0..4 {
            p.insert(i).unwrap();
        }
        assert!(h.iter().all(|&x| !p.contains(x)));
    }

    #[test]
    fn exhausted_generation_retires_the_slot() {
        let mut p: Pool<u8, 1> = Pool::new();
        p.slots[0] = Slot::Free { generation: u32::MAX, next: None };
        let h = p.insert(5).unwrap();
        assert_eq!(h.generation(), u32::MAX);
        assert_eq!(p.remove(h), Ok(5));
        assert_eq!(p.insert(6), Err(PoolError::Full { capacity: 1 }));
        assert_eq!(p.get(h), Err(PoolError::Stale { index: 0, generation: u32::MAX }));
    }

    #[test]
    fn zero_capacity_pool_is_always_full() {
        let mut p: Pool<u8, 0> = Pool::new();
        assert_eq!(p.insert(1), Err(PoolError::Full { capacity: 0 }));
        assert_eq!(p.get(Handle::from_bits(0)), Err(PoolError::OutOfRange { index: 0, capacity: 0 }));
    }
}
