//! The statistics the workspace's own crates and the lab programs use and users do not: the
//! internal steps and tuning behind the public `rtcompare::stats` surface.
