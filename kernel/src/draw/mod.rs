//! Drawing sprite frames into embedded-graphics `DrawTarget`s (feature `graphics`).
