//! The cross-target conformance workload: the same computation on the host and on every Cortex-M.
//!
//! This one file is compiled twice: into the QEMU firmware (`boards/qemu`, as a module of its library)
//! and into the host test `tests/tests/qemu.rs` (through `#[path]`). It depends only on `ossicle`
//! and `core`, is generic over the [`Scalar`], and folds the bit pattern of every result into an
//! FNV-1a checksum per operation, so the firmware's printed checksums can be compared with the host's
//! operation by operation.
//!
//! The inputs are the values of every test section of a blob built by the host CLI from
//! `samples/foundation.json`, followed by a few edge values (0, ±1, ε, MIN, MAX, π).
//!
//! The last five operations are the animation scenarios of [`animation`] (`ease`, `tween`,
//! `motion`, `sequence`, `dynamics`): fixed scripts of kernel calls whose every written value,
//! event and read-back result is folded.

#[path = "animation.rs"]
pub mod animation;

use ossicle::asset::{Asset, LoadError};
use ossicle::event::{Event, EventQueue};
use ossicle::pool::{Handle, Pool, PoolError};
use ossicle::Scalar;

/// How many input values the workload keeps (the rest of a blob's values are only checksummed).
pub const MAX_INPUTS: usize = 160;

/// Offsets of the second (and third) operand of binary (and ternary) operations from the first.
const PARTNERS: [usize; 8] = [0, 1, 2, 3, 5, 8, 13, 21];

/// The quiet NaN every NaN is folded as (NaN payloads and signs differ between FPUs and soft float).
const CANONICAL_NAN: u32 = 0x7FC0_0000;

/// The operations the workload checksums, in the order of [`Report::ops`].
pub const OPS: [&str; 45] = [
    "blob",
    "add",
    "sub",
    "mul",
    "div",
    "div_zero",
    "neg",
    "abs",
    "recip",
    "mul_add",
    "min",
    "max",
    "clamp",
    "floor",
    "ceil",
    "round",
    "trunc",
    "fract",
    "rem_euclid",
    "lerp",
    "signum",
    "convert",
    "sqrt",
    "hypot",
    "hypot3",
    "hypot4",
    "sin",
    "cos",
    "sin_cos",
    "atan2",
    "acos",
    "asin",
    "exp2",
    "approx_eq",
    "pool",
    "events",
    "strings",
    "ease",
    "tween",
    "motion",
    "sequence",
    "dynamics",
    "sprite",
    "animator",
    "statemachine",
];

/// Index of each operation in [`OPS`].
#[allow(missing_docs)]
mod op {
    pub const BLOB: usize = 0;
    pub const ADD: usize = 1;
    pub const SUB: usize = 2;
    pub const MUL: usize = 3;
    pub const DIV: usize = 4;
    pub const DIV_ZERO: usize = 5;
    pub const NEG: usize = 6;
    pub const ABS: usize = 7;
    pub const RECIP: usize = 8;
    pub const MUL_ADD: usize = 9;
    pub const MIN: usize = 10;
    pub const MAX: usize = 11;
    pub const CLAMP: usize = 12;
    pub const FLOOR: usize = 13;
    pub const CEIL: usize = 14;
    pub const ROUND: usize = 15;
    pub const TRUNC: usize = 16;
    pub const FRACT: usize = 17;
    pub const REM_EUCLID: usize = 18;
    pub const LERP: usize = 19;
    pub const SIGNUM: usize = 20;
    pub const CONVERT: usize = 21;
    pub const SQRT: usize = 22;
    pub const HYPOT: usize = 23;
    pub const HYPOT3: usize = 24;
    pub const HYPOT4: usize = 25;
    pub const SIN: usize = 26;
    pub const COS: usize = 27;
    pub const SIN_COS: usize = 28;
    pub const ATAN2: usize = 29;
    pub const ACOS: usize = 30;
    pub const ASIN: usize = 31;
    pub const EXP2: usize = 32;
    pub const APPROX_EQ: usize = 33;
    pub const POOL: usize = 34;
    pub const EVENTS: usize = 35;
    pub const STRINGS: usize = 36;
    pub const EASE: usize = 37;
    pub const TWEEN: usize = 38;
    pub const MOTION: usize = 39;
    pub const SEQUENCE: usize = 40;
    pub const DYNAMICS: usize = 41;
    pub const SPRITE: usize = 42;
    pub const ANIMATOR: usize = 43;
    pub const STATEMACHINE: usize = 44;
}

/// An FNV-1a (32-bit) checksum over little-endian words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checksum(u32);

impl Checksum {
    /// The FNV-1a offset basis.
    pub const fn new() -> Self {
        Checksum(0x811C_9DC5)
    }

    /// Folds one word.
    pub fn word(&mut self, w: u32) {
        for b in w.to_le_bytes() {
            self.0 ^= u32::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0193);
        }
    }

    /// Folds the bits of a scalar as a blob stores them (every NaN as [`CANONICAL_NAN`]).
    pub fn scalar<S: Scalar>(&mut self, v: S) {
        if v.partial_cmp(&v).is_none() {
            self.word(CANONICAL_NAN);
        } else {
            self.word(v.to_blob_bits());
        }
    }

    /// Folds a flag.
    pub fn flag(&mut self, b: bool) {
        self.word(u32::from(b));
    }

    /// The checksum so far.
    pub const fn value(&self) -> u32 {
        self.0
    }
}

impl Default for Checksum {
    fn default() -> Self {
        Self::new()
    }
}

/// What went wrong before the workload could run.
#[derive(Debug)]
pub enum WorkloadError {
    /// The blob did not load.
    Load(LoadError),
    /// The blob's scalar encoding is not the one of the type the workload runs in.
    WrongEncoding,
    /// The blob has no test section values.
    NoValues,
}

impl WorkloadError {
    /// A small number that names the error, for an exit code.
    pub fn code(&self) -> u8 {
        match self {
            WorkloadError::Load(_) => 1,
            WorkloadError::WrongEncoding => 2,
            WorkloadError::NoValues => 3,
        }
    }
}

/// The checksums of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// One checksum per operation of [`OPS`].
    pub ops: [u32; OPS.len()],
    /// How many values the blob's test sections hold.
    pub values: u32,
}

impl Report {
    /// The checksum of all the operations' checksums.
    pub fn total(&self) -> u32 {
        let mut c = Checksum::new();
        c.word(self.values);
        for w in self.ops {
            c.word(w);
        }
        c.value()
    }
}

/// Loads `blob` and runs the workload in `S`.
pub fn run<S: Scalar>(blob: &[u8]) -> Result<Report, WorkloadError> {
    let asset = Asset::load(blob).map_err(WorkloadError::Load)?;
    if asset.encoding() != S::ENCODING {
        return Err(WorkloadError::WrongEncoding);
    }
    let mut ck = [Checksum::new(); OPS.len()];

    // The inputs: every value of every test section, then the edge values.
    let mut xs = [S::ZERO; MAX_INPUTS];
    let mut n = 0usize;
    let mut values = 0u32;
    for section in asset.test_sections() {
        let name = section.name_id();
        ck[op::BLOB].word(name);
        fold_str(&mut ck[op::STRINGS], section.name());
        ck[op::STRINGS].flag(asset.string(name) == Some(section.name()));
        let view = section.values::<S>().map_err(|_| WorkloadError::WrongEncoding)?;
        ck[op::BLOB].word(view.len() as u32);
        for v in view.iter() {
            ck[op::BLOB].scalar(v);
            values = values.wrapping_add(1);
            if let Some(slot) = xs.get_mut(n) {
                *slot = v;
                n += 1;
            }
        }
    }
    if n == 0 {
        return Err(WorkloadError::NoValues);
    }
    // A string id that is out of range must give None.
    ck[op::STRINGS].flag(asset.string(u32::MAX).is_none());
    let edges = [S::ZERO, S::ONE, S::NEG_ONE, S::HALF, S::EPSILON, S::MIN, S::MAX, S::PI];
    for e in edges {
        if let Some(slot) = xs.get_mut(n) {
            *slot = e;
            n += 1;
        }
    }
    let xs = xs.get(..n).unwrap_or(&[]);

    scalar_ops(xs, &mut ck);
    pool_ops(xs, &mut ck[op::POOL]);
    event_ops(xs, &mut ck[op::EVENTS]);
    animation::ease_ops(xs, &mut ck[op::EASE]);
    animation::tween_ops::<S>(&mut ck[op::TWEEN]);
    animation::motion_ops::<S>(&mut ck[op::MOTION]);
    animation::sequence_ops::<S>(&mut ck[op::SEQUENCE]);
    animation::dynamics_ops::<S>(&mut ck[op::DYNAMICS]);
    animation::sprite_ops::<S>(&mut ck[op::SPRITE]);
    animation::animator_ops::<S>(&mut ck[op::ANIMATOR]);
    animation::statemachine_ops::<S>(&mut ck[op::STATEMACHINE]);

    let mut ops = [0u32; OPS.len()];
    for (o, c) in ops.iter_mut().zip(ck.iter()) {
        *o = c.value();
    }
    Ok(Report { ops, values })
}

fn fold_str(ck: &mut Checksum, s: &str) {
    ck.word(s.len() as u32);
    for b in s.bytes() {
        ck.word(u32::from(b));
    }
}

/// `xs[i % xs.len()]` (ZERO for an empty slice).
fn at<S: Scalar>(xs: &[S], i: usize) -> S {
    i.checked_rem(xs.len()).and_then(|i| xs.get(i)).copied().unwrap_or(S::ZERO)
}

fn scalar_ops<S: Scalar>(xs: &[S], ck: &mut [Checksum; OPS.len()]) {
    for (i, &a) in xs.iter().enumerate() {
        // Unary operations.
        ck[op::NEG].scalar(a.neg());
        ck[op::ABS].scalar(a.abs());
        ck[op::RECIP].scalar(a.recip());
        ck[op::DIV_ZERO].scalar(a.div(S::ZERO));
        ck[op::FLOOR].scalar(a.floor());
        ck[op::CEIL].scalar(a.ceil());
        ck[op::ROUND].scalar(a.round());
        ck[op::TRUNC].scalar(a.trunc());
        ck[op::FRACT].scalar(a.fract());
        ck[op::SIGNUM].scalar(a.signum());
        ck[op::SQRT].scalar(a.sqrt());
        ck[op::SIN].scalar(a.sin());
        ck[op::COS].scalar(a.cos());
        let (s, c) = a.sin_cos();
        ck[op::SIN_COS].scalar(s);
        ck[op::SIN_COS].scalar(c);
        ck[op::ACOS].scalar(a.acos());
        ck[op::ASIN].scalar(a.asin());
        ck[op::EXP2].scalar(a.exp2());
        // Conversions.
        let cv = &mut ck[op::CONVERT];
        cv.word(a.floor_to_i32() as u32);
        cv.word(a.to_q16_bits() as u32);
        cv.word(a.to_f32().to_bits());
        let wide = a.to_f64().to_bits();
        cv.word(wide as u32);
        cv.word((wide >> 32) as u32);
        cv.scalar(S::from_f32(a.to_f32()));
        cv.scalar(S::from_f64(a.to_f64()));
        cv.scalar(S::from_q16_bits(a.to_q16_bits()));
        cv.scalar(S::from_i32(a.floor_to_i32()));
        cv.scalar(S::from_blob_bits(a.to_blob_bits()));
        cv.scalar(S::from_ratio(a.to_q16_bits(), (i as i32).wrapping_sub(3)));

        // Binary and ternary operations, with a few partners each.
        for (k, off) in PARTNERS.iter().enumerate() {
            let b = at(xs, i + off);
            let c = at(xs, i + off + PARTNERS[(k + 3) % PARTNERS.len()] + 1);
            let d = at(xs, i + 2 * off + 7);
            ck[op::ADD].scalar(a.add(b));
            ck[op::SUB].scalar(a.sub(b));
            ck[op::MUL].scalar(a.mul(b));
            ck[op::DIV].scalar(a.div(b));
            ck[op::MUL_ADD].scalar(a.mul_add(b, c));
            ck[op::MIN].scalar(a.min(b));
            ck[op::MAX].scalar(a.max(b));
            ck[op::CLAMP].scalar(a.clamp(b, c));
            ck[op::CLAMP].scalar(a.clamp01());
            ck[op::REM_EUCLID].scalar(a.rem_euclid(b));
            ck[op::REM_EUCLID].scalar(a.rem_euclid(b.abs()));
            ck[op::LERP].scalar(a.lerp(b, c));
            ck[op::HYPOT].scalar(a.hypot(b));
            ck[op::HYPOT3].scalar(a.hypot3(b, c));
            ck[op::HYPOT4].scalar(a.hypot4(b, c, d));
            ck[op::ATAN2].scalar(a.atan2(b));
            ck[op::APPROX_EQ].flag(a.approx_eq(b, c.abs()));
        }
    }
}

/// A code per pool error kind.
fn pool_error_code(e: &PoolError) -> u32 {
    match e {
        PoolError::Full { .. } => 0xE1,
        PoolError::Stale { .. } => 0xE2,
        PoolError::Foreign { .. } => 0xE3,
        PoolError::OutOfRange { .. } => 0xE4,
    }
}

fn fold_pool_result<S: Scalar>(ck: &mut Checksum, r: Result<S, PoolError>) {
    match r {
        Ok(v) => {
            ck.word(0x0C);
            ck.scalar(v);
        }
        Err(e) => ck.word(pool_error_code(&e)),
    }
}

/// Fills a pool past its capacity, removes, reuses slots, and uses stale and foreign handles.
fn pool_ops<S: Scalar>(xs: &[S], ck: &mut Checksum) {
    const N: usize = 8;
    let mut pool: Pool<S, N> = Pool::with_tag(1);
    let mut other: Pool<S, N> = Pool::with_tag(2);
    let mut handles: [Option<Handle<S>>; N] = [None; N];

    // Insert until full, and past it: every insert after the 8th is an error.
    for k in 0..N + 3 {
        match pool.insert(at(xs, k)) {
            Ok(h) => {
                ck.word(0x1A);
                if let Some(slot) = handles.get_mut(k) {
                    *slot = Some(h);
                }
            }
            Err(e) => ck.word(pool_error_code(&e)),
        }
    }
    ck.word(pool.len() as u32);
    for h in handles.iter().flatten() {
        fold_pool_result(ck, pool.get(*h).copied());
    }

    // Remove two, then every use of their handles is stale.
    for k in [2usize, 5] {
        if let Some(Some(h)) = handles.get(k) {
            fold_pool_result(ck, pool.remove(*h));
            ck.flag(pool.contains(*h));
            fold_pool_result(ck, pool.get(*h).copied());
            fold_pool_result(ck, pool.remove(*h));
        }
    }
    ck.word(pool.len() as u32);

    // Reuse the freed slots: the old handles stay stale, the new ones work.
    for k in [2usize, 5] {
        let v = at(xs, k + 11);
        match pool.insert(v) {
            Ok(h) => {
                fold_pool_result(ck, pool.get(h).copied());
                if let Some(Some(old)) = handles.get(k) {
                    ck.flag(pool.contains(*old));
                    fold_pool_result(ck, pool.get(*old).copied());
                }
                if let Ok(slot) = pool.get_mut(h) {
                    *slot = slot.add(S::ONE);
                }
                fold_pool_result(ck, pool.get(h).copied());
            }
            Err(e) => ck.word(pool_error_code(&e)),
        }
    }

    // A handle from another pool is foreign, even when its slot is in use here.
    match other.insert(at(xs, 3)) {
        Ok(h) => {
            ck.flag(pool.contains(h));
            fold_pool_result(ck, pool.get(h).copied());
            fold_pool_result(ck, pool.remove(h));
            fold_pool_result(ck, other.get(h).copied());
        }
        Err(e) => ck.word(pool_error_code(&e)),
    }

    // A handle whose index is beyond the capacity cannot come from this pool.
    let bogus: Handle<S> = Handle::from_bits(0x0000_0001_0001_0063);
    ck.flag(pool.contains(bogus));
    fold_pool_result(ck, pool.get(bogus).copied());
    fold_pool_result(ck, pool.remove(bogus));

    // Iteration visits every live value once.
    let mut sum = S::ZERO;
    let mut count = 0u32;
    for (h, v) in pool.iter() {
        ck.word(u32::from(h.index()));
        ck.word(h.generation());
        sum = sum.add(*v);
        count += 1;
    }
    ck.word(count);
    ck.scalar(sum);
    ck.word(pool.len() as u32);
}

fn fold_event(ck: &mut Checksum, e: Option<Event>) {
    match e {
        Some(Event::Custom { source, id }) => {
            ck.word(0xC0);
            ck.word(source);
            ck.word(id);
        }
        Some(_) => ck.word(0xC1),
        None => ck.word(0xC2),
    }
}

/// Overflows a small event queue and drains it.
fn event_ops<S: Scalar>(xs: &[S], ck: &mut Checksum) {
    let mut q: EventQueue<4> = EventQueue::new();
    for k in 0..7u32 {
        let x = at(xs, k as usize);
        let accepted = q.push(Event::Custom { source: k, id: x.to_blob_bits() });
        ck.flag(accepted);
        ck.word(q.len() as u32);
    }
    ck.word(q.dropped());
    for _ in 0..3 {
        fold_event(ck, q.pop());
    }
    // Room again: these fit.
    for k in 0..2u32 {
        ck.flag(q.push(Event::Custom { source: 100 + k, id: k }));
    }
    ck.word(q.len() as u32);
    for _ in 0..5 {
        fold_event(ck, q.pop());
    }
    ck.word(q.dropped());
    ck.word(q.len() as u32);
}
