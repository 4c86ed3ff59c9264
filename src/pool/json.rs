//! A pooled run as one machine's JSON artifact: the [`Pooled`] result's fields as they always
//! were, plus the machine it ran on and a layout version, so that `rtcompare combine` can tell
//! machines apart and refuse files of a layout it does not know.

use serde::Serialize;

use super::PoolRun;
use crate::env::Environment;
use crate::error::{Error, Result};
use crate::stats::Pooled;

/// Version of the layout [`PoolRun::to_json`] writes (`schema_version`): 1, the [`Pooled`]
/// fields with `schema_version` and `environment` beside them. Files written before it (a bare
/// `Pooled`) have no `schema_version`.
pub const POOL_SCHEMA_VERSION: u32 = 1;

/// What [`PoolRun::to_json`] writes: the pooled fields at the top level, where readers of a
/// bare [`Pooled`] find them.
#[derive(Serialize)]
struct PoolJson<'a> {
    schema_version: u32,
    #[serde(flatten)]
    pooled: &'a Pooled,
    environment: Option<&'a Environment>,
}

impl PoolRun {
    /// The pooled result as pretty JSON: every field of [`Pooled`] at the top level (so the
    /// text still reads as a `Pooled` with `serde_json`), with `schema_version`
    /// (1, raised when a field changes meaning) and `environment`: the stamp of the first process that
    /// reported, whose CPU model, kernel and core count every process shares (its load and
    /// memory figures are that process's own); `null` when no process reported.
    ///
    /// Errors: [`Error::Json`] if serialisation fails (it does not for values `pool::run`
    /// produces; non-finite numbers are written as `null`).
    pub fn to_json(&self) -> Result<String> {
        let doc = PoolJson {
            schema_version: POOL_SCHEMA_VERSION,
            pooled: &self.pooled,
            environment: self.reports.first().map(|r| &r.run.environment),
        };
        serde_json::to_string_pretty(&doc).map_err(Error::json)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::Value;

    use super::*;
    use crate::pool::combine_reports;

    /// A report on a simulated clock: A at 100 ns, B at `ns_b` per operation.
    fn report(ns_b: u64) -> crate::compare::report::Report {
        crate::compare::simulated_report(100, ns_b)
    }

    #[test]
    fn the_json_is_the_pooled_fields_with_the_machine_and_a_version() {
        let reports: Vec<crate::compare::report::Report> =
            [110, 120, 130].into_iter().map(report).collect();
        let run = PoolRun {
            pooled: combine_reports(&reports, 0.95).unwrap(),
            reports,
            timings: Vec::new(),
            seed: 1,
            elapsed: Duration::from_secs(1),
        };
        let text = run.to_json().unwrap();
        let mut v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["schema_version"], POOL_SCHEMA_VERSION);
        let env = &v["environment"];
        assert_eq!(
            env["kernel"],
            serde_json::json!(run.reports[0].run.environment.kernel)
        );
        assert!(env.get("cpu_model").is_some() && env.get("logical_cores").is_some());
        // What read the bare `Pooled` before still reads it.
        let back: Pooled = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (back.processes, &back.verdict),
            (run.pooled.processes, &run.pooled.verdict)
        );
        // And nothing else changed: without the two new keys it is the bare `Pooled`.
        let obj = v.as_object_mut().unwrap();
        obj.remove("schema_version");
        obj.remove("environment");
        let bare: Value =
            serde_json::from_str(&serde_json::to_string_pretty(&run.pooled).unwrap()).unwrap();
        assert_eq!(v, bare);
    }
}
