//! A fixed-capacity event queue that counts what it had to drop.
//!
//! Players push events (frame changed, loop, clip event, tween call...) into an [`EventQueue`] the
//! caller owns and drains after `update`. When the queue is full, a new event is dropped — never
//! an old one, so events stay in the order they happened — and [`EventQueue::dropped`] counts it,
//! so a firmware can size the queue from a measured worst case.
//!
//! ```
//! use ossicle::event::{Event, EventQueue};
//! let mut q: EventQueue<2> = EventQueue::new();
//! for id in 0..3 {
//!     q.push(Event::Custom { source: 0, id });
//! }
//! assert_eq!(q.dropped(), 1);
//! assert_eq!(q.pop(), Some(Event::Custom { source: 0, id: 0 }));
//! assert_eq!(q.pop(), Some(Event::Custom { source: 0, id: 1 }));
//! assert_eq!(q.pop(), None);
//! ```

use heapless::Deque;

/// Events the kernel's players emit. Later players add variants; match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Event {
    /// An application-defined event: `source` says who emitted it, `id` what it is (for example a
    /// string id from the blob's string table).
    Custom {
        /// Who emitted it.
        source: u32,
        /// What it is.
        id: u32,
    },
    /// A tween's `call(id)` step was reached (once per play, and again on each loop).
    TweenCall {
        /// The tween's handle, as `to_bits()`.
        tween: u64,
        /// The id given to `call`.
        id: u32,
    },
    /// A tween finished a pass and starts the next loop.
    TweenLooped {
        /// The tween's handle, as `to_bits()`.
        tween: u64,
        /// How many passes have finished (1 after the first).
        count: u32,
    },
    /// A tween played to its end (a killed tween emits nothing).
    TweenCompleted {
        /// The tween's handle, as `to_bits()`.
        tween: u64,
    },
    /// A motion or sequence finished a pass and starts the next loop.
    MotionLooped {
        /// The motion's (or sequence's) handle, as `to_bits()`.
        motion: u64,
        /// How many passes have finished (1 after the first).
        count: u32,
    },
    /// A motion or sequence played to its end, or was completed with `complete()`.
    MotionCompleted {
        /// The motion's (or sequence's) handle, as `to_bits()`.
        motion: u64,
    },
    /// A motion or sequence was cancelled with `cancel()`.
    MotionCancelled {
        /// The motion's (or sequence's) handle, as `to_bits()`.
        motion: u64,
    },
    /// A sprite player switched to another animation (`player` is the id the caller gave it).
    SpriteAnimationChanged {
        /// The player's id.
        player: u32,
        /// The new animation's index.
        animation: u32,
    },
    /// A sprite player started (or restarted) an animation.
    SpriteStarted {
        /// The player's id.
        player: u32,
        /// The animation's index.
        animation: u32,
    },
    /// A sprite player shows another frame (also sent for the first frame of a play).
    SpriteFrameChanged {
        /// The player's id.
        player: u32,
        /// The animation's index.
        animation: u32,
        /// The frame, relative to the animation (0 is its first frame).
        frame: u32,
    },
    /// A frame carrying an event name shows (one event per name, in the frame's order).
    SpriteFrameEvent {
        /// The player's id.
        player: u32,
        /// The animation's index.
        animation: u32,
        /// The frame, relative to the animation.
        frame: u32,
        /// The event name's string id.
        name: u32,
    },
    /// A sprite animation finished a pass and begins the next one.
    SpriteLooped {
        /// The player's id.
        player: u32,
        /// The animation's index.
        animation: u32,
        /// Pass boundaries crossed since the animation started (1 after the first).
        count: u32,
    },
    /// A non-looping sprite animation played to its end.
    SpriteEnded {
        /// The player's id.
        player: u32,
        /// The animation's index.
        animation: u32,
    },
    /// A sprite player was stopped with `stop()`.
    SpriteStopped {
        /// The player's id.
        player: u32,
        /// The animation's index.
        animation: u32,
    },
    /// An Animator's event track passed a key: `name` is the key's value (a string id).
    AnimatorEvent {
        /// The Animator's id.
        animator: u32,
        /// The clip's index.
        clip: u32,
        /// The event name's string id.
        name: u32,
    },
    /// A non-looping Animator clip reached its end.
    ClipFinished {
        /// The Animator's id.
        animator: u32,
        /// The clip's index.
        clip: u32,
    },
    /// A state machine entered a state (also the start state, on its first update).
    StateEntered {
        /// The state machine's id.
        machine: u32,
        /// The state's index.
        state: u32,
    },
    /// A state machine left a state.
    StateExited {
        /// The state machine's id.
        machine: u32,
        /// The state's index.
        state: u32,
    },
}

/// A FIFO of at most `N` events of type `E` (by default [`Event`]), stored inline.
///
/// `N` must be at least 1 (a zero capacity is refused at compile time).
pub struct EventQueue<const N: usize, E = Event> {
    events: Deque<E, N>,
    dropped: u32,
}

impl<const N: usize, E> Default for EventQueue<N, E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, E> EventQueue<N, E> {
    /// An empty queue.
    pub const fn new() -> Self {
        Self { events: Deque::new(), dropped: 0 }
    }

    /// Appends `event`; when the queue is full the event is dropped, counted, and `false` returned.
    pub fn push(&mut self, event: E) -> bool {
        match self.events.push_back(event) {
            Ok(()) => true,
            Err(_) => {
                self.dropped = self.dropped.saturating_add(1);
                false
            }
        }
    }

    /// Removes and returns the oldest event.
    pub fn pop(&mut self) -> Option<E> {
        self.events.pop_front()
    }

    /// The oldest event, without removing it.
    pub fn peek(&self) -> Option<&E> {
        self.events.front()
    }

    /// The number of queued events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether no events are queued.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Whether the next push would be dropped.
    pub fn is_full(&self) -> bool {
        self.events.is_full()
    }

    /// The capacity, `N`.
    pub const fn capacity(&self) -> usize {
        N
    }

    /// How many events were dropped because the queue was full (saturating), since creation or the
    /// last [`take_dropped`](Self::take_dropped).
    pub fn dropped(&self) -> u32 {
        self.dropped
    }

    /// Returns the dropped count and resets it to 0.
    pub fn take_dropped(&mut self) -> u32 {
        core::mem::take(&mut self.dropped)
    }

    /// Removes every queued event, oldest first.
    pub fn drain(&mut self) -> impl Iterator<Item = E> + '_ {
        core::iter::from_fn(move || self.events.pop_front())
    }

    /// The queued events, oldest first, without removing them.
    pub fn iter(&self) -> impl Iterator<Item = &E> + '_ {
        self.events.iter()
    }

    /// Removes every queued event (the dropped count stays).
    pub fn clear(&mut self) {
        self.events.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_counts_drops() {
        let mut q: EventQueue<3, u8> = EventQueue::new();
        assert!(q.push(1) && q.push(2) && q.push(3));
        assert!(q.is_full());
        assert!(!q.push(4));
        assert!(!q.push(5));
        assert_eq!(q.dropped(), 2);
        assert_eq!(q.pop(), Some(1));
        assert!(q.push(6));
        let got: heapless::Vec<u8, 4> = q.drain().collect();
        assert_eq!(&got[..], &[2, 3, 6]);
        assert_eq!(q.take_dropped(), 2);
        assert_eq!(q.dropped(), 0);
        assert!(q.is_empty());
    }

    #[test]
    fn capacity_one_holds_one() {
        let mut q: EventQueue<1> = EventQueue::new();
        assert!(q.push(Event::Custom { source: 1, id: 2 }));
        assert!(!q.push(Event::Custom { source: 1, id: 3 }));
        assert_eq!(q.dropped(), 1);
        assert_eq!(q.pop(), Some(Event::Custom { source: 1, id: 2 }));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn dropped_count_saturates() {
        let mut q: EventQueue<1, ()> = EventQueue::new();
        q.push(());
        q.dropped = u32::MAX - 1;
        q.push(());
        q.push(());
        assert_eq!(q.dropped(), u32::MAX);
    }
}
