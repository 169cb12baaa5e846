//! Property clips: the Animator (the Odin engine's Animator node) and the ready-made `NodeTable` sink.
