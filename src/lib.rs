//! rtcompare tells whether one code path is really faster than another, by how much, and how
//! sure anyone can be, and says "cannot tell" when the machine cannot support an answer.
#![deny(missing_docs)]
#![warn(rustdoc::broken_intra_doc_links)]

pub mod calibrate;
pub mod candidate;
pub mod clock;
pub mod collect;
pub mod compare;
pub mod env;
mod error;
pub mod report;
pub mod rng;
pub mod stats;
pub mod validate;

pub use calibrate::{Calibration, CalibrationOptions, calibrate};
pub use candidate::Candidate;
pub use clock::Instrument;
pub use collect::{
    CancelToken, CollectOptions, Order, PairedSamples, Progress, Side, Stage, collect,
};
pub use compare::{CompareOptions, compare, decide};
pub use env::Environment;
pub use error::{Error, Result};
pub use report::{Report, Series, Unresolved, Verdict, Warning};
pub use stats::{Estimate, EstimateOptions};
pub use validate::{HarnessValidation, ValidationOptions, validate_harness, validate_pair};
