//! Procedural dynamics: second-order systems, damped springs and PD controllers on scalar channels. (Being built.)
