//! What the workspace's crates, the lab programs and the tests use from the core's `compare`
//! layer and users do not.

pub use crate::compare::validate::{
    DEFAULT_COLD_VALIDATION_RUNS, HarnessValidation, ValidationOptions, ValidationRun,
    validate_pair,
};
