//! Input checks shared by the public statistics functions.

use crate::error::{Error, Result};

/// `Err(NonFinite)` naming the first NaN or infinite value of `xs`.
pub(crate) fn finite(what: &'static str, xs: &[f64]) -> Result<()> {
    match xs.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(Error::NonFinite {
            what,
            index,
            value: xs[index],
        }),
        None => Ok(()),
    }
}

/// `Err(TooFewSamples)` if `xs` holds fewer than `needed` values, then [`finite`].
pub(crate) fn sample(what: &'static str, xs: &[f64], needed: usize) -> Result<()> {
    if xs.len() < needed {
        return Err(Error::TooFewSamples {
            what,
            needed,
            got: xs.len(),
        });
    }
    finite(what, xs)
}

/// `Err(OutOfRange)` unless `0 < value < 1`.
pub(crate) fn open_unit(name: &'static str, value: f64) -> Result<()> {
    if value > 0.0 && value < 1.0 {
        Ok(())
    } else {
        Err(Error::out_of_range(name, value, "0 < value < 1"))
    }
}
