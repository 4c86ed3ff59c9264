//! Parameters as hyperfine spells them: `-L NAME a,b,c` (several make their product) and
//! `-P NAME MIN MAX` with `-D STEP`, expanded into one command per combination with `{NAME}`
//! replaced in the command, its label and its hooks. Pure: strings in, strings out.

use crate::error::{CliError, Result};

/// Most commands a parameter expansion may produce: more would run for hours.
pub const MAX_EXPANDED: usize = 1_000;

/// One parameter and its values, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// The name, as written between braces.
    pub name: String,
    /// Its values as they are substituted.
    pub values: Vec<String>,
}

/// The parameters of `-L NAME VALUES` (flattened pairs, as clap collects them) and
/// `-P NAME MIN MAX` with `-D STEP`, in that order.
///
/// Errors ([`CliError::Usage`]): an empty name or value list, a name given twice, a scan whose
/// bounds or step are not numbers, a step that is not positive, or MIN above MAX.
pub fn parameters(lists: &[String], scans: &[String], step: Option<f64>) -> Result<Vec<Parameter>> {
    let mut out: Vec<Parameter> = Vec::new();
    for pair in lists.chunks(2) {
        let [name, values] = pair else {
            return Err(CliError::Usage(
                "-L/--parameter-list takes a name and a list: -L n 1,2,4".into(),
            ));
        };
        let values: Vec<String> = values.split(',').map(str::to_string).collect();
        if values.iter().any(String::is_empty) {
            return Err(CliError::Usage(format!(
                "-L {name}: a value in the list is empty; write -L {name} 1,2,4"
            )));
        }
        out.push(Parameter {
            name: name.clone(),
            values,
        });
    }
    for triple in scans.chunks(3) {
        let [name, min, max] = triple else {
            return Err(CliError::Usage(
                "-P/--parameter-scan takes a name, a minimum and a maximum: -P t 1 8".into(),
            ));
        };
        out.push(Parameter {
            name: name.clone(),
            values: scan_values(name, min, max, step.unwrap_or(1.0))?,
        });
    }
    for (i, p) in out.iter().enumerate() {
        if p.name.is_empty() || p.name.contains(['{', '}']) {
            return Err(CliError::Usage(format!(
                "{:?} cannot name a parameter: use letters, digits or _",
                p.name
            )));
        }
        if out[..i].iter().any(|q| q.name == p.name) {
            return Err(CliError::Usage(format!(
                "the parameter {{{}}} is given twice",
                p.name
            )));
        }
    }
    Ok(out)
}

/// The values of a scan from `min` to `max` in steps of `step`, inclusive (within a
/// millionth of a step, so that 0.1 steps reach their end), written without a fraction when
/// they are whole.
fn scan_values(name: &str, min: &str, max: &str, step: f64) -> Result<Vec<String>> {
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| CliError::Usage(format!("-P {name}: `{s}` is not a number")))
    };
    let (lo, hi) = (number(min)?, number(max)?);
    if !(step.is_finite() && step > 0.0) {
        return Err(CliError::Usage(format!(
            "-D/--parameter-step-size must be a positive number; got {step}"
        )));
    }
    if lo > hi {
        return Err(CliError::Usage(format!(
            "-P {name}: the minimum {lo} is above the maximum {hi}"
        )));
    }
    let count = ((hi - lo) / step + 1e-6).floor() as usize + 1;
    if count > MAX_EXPANDED {
        return Err(CliError::Usage(format!(
            "-P {name} {lo} {hi} with step {step} makes {count} values; at most {MAX_EXPANDED}"
        )));
    }
    let whole = [lo, step].iter().all(|v| v.fract() == 0.0);
    Ok((0..count)
        .map(|i| {
            let v = lo + step * i as f64;
            if whole {
                format!("{}", v as i64)
            } else {
                // Enough digits for the step, no binary noise (0.30000000000000004).
                let digits = (-step.log10().floor()).max(0.0) as usize + 1;
                let s = format!("{v:.digits$}");
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            }
        })
        .collect())
}

/// Every combination of the parameters' values (the first parameter varying slowest), as
/// `(name, value)` lists; one empty combination without parameters.
///
/// Errors: more than [`MAX_EXPANDED`] combinations.
pub fn combinations(params: &[Parameter]) -> Result<Vec<Vec<(String, String)>>> {
    let total = params
        .iter()
        .try_fold(1usize, |n, p| n.checked_mul(p.values.len()))
        .unwrap_or(usize::MAX);
    if total > MAX_EXPANDED {
        return Err(CliError::Usage(format!(
            "the parameters make {total} combinations; at most {MAX_EXPANDED}"
        )));
    }
    let mut out: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for p in params {
        out = out
            .into_iter()
            .flat_map(|combo| {
                p.values.iter().map(move |v| {
                    let mut c = combo.clone();
                    c.push((p.name.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    Ok(out)
}

/// `text` with every `{NAME}` of `combo` replaced by its value.
pub fn substitute(text: &str, combo: &[(String, String)]) -> String {
    combo.iter().fold(text.to_string(), |t, (name, value)| {
        t.replace(&format!("{{{name}}}"), value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn lists_make_their_product_first_varying_slowest() {
        let p = parameters(&strings(&["n", "1,2", "m", "a,b,c"]), &[], None).unwrap();
        let c = combinations(&p).unwrap();
        assert_eq!(c.len(), 6);
        assert_eq!(substitute("prog -j {n} {m}", &c[0]), "prog -j 1 a");
        assert_eq!(substitute("prog -j {n} {m}", &c[1]), "prog -j 1 b");
        assert_eq!(substitute("prog -j {n} {m}", &c[5]), "prog -j 2 c");
        // No parameters: one combination, nothing substituted.
        assert_eq!(combinations(&[]).unwrap(), vec![Vec::new()]);
        assert_eq!(substitute("x {n}", &[]), "x {n}");
    }

    #[test]
    fn scans_reach_their_end_and_print_cleanly() {
        let p = parameters(&[], &strings(&["t", "1", "4"]), None).unwrap();
        assert_eq!(p[0].values, strings(&["1", "2", "3", "4"]));
        let p = parameters(&[], &strings(&["x", "0", "0.3"]), Some(0.1)).unwrap();
        assert_eq!(p[0].values, strings(&["0", "0.1", "0.2", "0.3"]));
        let p = parameters(&[], &strings(&["t", "2", "10"]), Some(4.0)).unwrap();
        assert_eq!(p[0].values, strings(&["2", "6", "10"]));
    }

    #[test]
    fn bad_parameters_are_usage_errors() {
        for (lists, scans, step) in [
            (strings(&["n", "1,,2"]), vec![], None),
            (strings(&["n", "1", "n", "2"]), vec![], None),
            (vec![], strings(&["t", "5", "1"]), None),
            (vec![], strings(&["t", "x", "1"]), None),
            (vec![], strings(&["t", "1", "5"]), Some(0.0)),
            (vec![], strings(&["t", "1", "5"]), Some(f64::NAN)),
            (vec![], strings(&["t", "0", "1e9"]), None),
            (strings(&["{n}", "1"]), vec![], None),
        ] {
            let r = parameters(&lists, &scans, step).and_then(|p| combinations(&p));
            assert!(
                matches!(r, Err(CliError::Usage(_))),
                "{lists:?} {scans:?} {step:?}"
            );
        }
        let big = parameters(
            &strings(&["a", &vec!["1"; 40].join(","), "b", &vec!["1"; 40].join(",")]),
            &[],
            None,
        )
        .unwrap();
        assert!(combinations(&big).is_err());
    }
}
