//! What the workspace's crates, the lab programs and the tests use from the core's `measure`
//! layer and users do not.

pub use crate::measure::pin::{PinGuard, current_affinity, pin_current_thread};

pub use crate::measure::counters::{
    Counter, CounterDelta, CounterFailure, CounterReading, CounterSet, CounterStatus,
    CounterSummary, SideCounters, Unavailable, perf_event_paranoid,
};

pub use crate::measure::clock::{Clock, Instrument, MonotonicClock, SimulatedClock, read_cost_ns};

pub use crate::measure::cache::{CacheInfo, Evictor, last_level_cache_bytes};

pub use crate::measure::calibrate::{
    Calibration, CalibrationOptions, calibrate, calibrate_with_clock,
};

pub use crate::measure::collect::{
    CollectOptions, DEFAULT_WARMUP, Order, PairedSamples, Side, collect, collect_with_clock,
};

pub use crate::precision::session::measure_with_clock;
