//! Tweens: step lists (to, from_to, delay, call, parallel groups) with loops, run from a fixed-capacity pool. (Being built.)
