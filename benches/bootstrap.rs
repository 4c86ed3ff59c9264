//! Placeholder; filled by the bootstrap work.
fn main() {}
