//! Math types generic over [`Scalar`](crate::Scalar).
