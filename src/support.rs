//! For the workspace's own crates (the command-line tool, rtcompare-service,
//! rtcompare-workload): items they need that the core keeps out of its API.
//!
//! Not part of the API: hidden from the documentation, and any item here may change or go in
//! any release. Everything a user needs has its one path in the documented modules.

/// The most bootstrap replicates one call accepts (the statistics' own limit, 10,000,000):
/// the service mode checks its `resamples` against it before measuring.
pub const MAX_RESAMPLES: usize = crate::stats::MAX_RESAMPLES;
