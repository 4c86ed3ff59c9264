//! What people look at while and after a comparison runs: the terminal progress
//! ([`progress`], feature `progress`).

#[cfg(feature = "progress")]
pub mod progress;
