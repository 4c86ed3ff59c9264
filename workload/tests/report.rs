//! A structure comparison's report: the core's report with the workload's record beside it,
//! in the JSON reports of structure comparisons have always had.

use rtcompare_workload::StructureReport;

/// A structure comparison's report as the core wrote it at schema version 1 (a copy of the
/// core's `tests/data/report.json`, written when the record was a field of the core's
/// report) reads as a [`StructureReport`], and writes back the same JSON: the same keys at
/// the same level with the same values. The core's `Report::from_json` reads the same text
/// as the bare report.
#[test]
fn a_schema_1_structure_report_reads_and_writes_the_same_json()
-> Result<(), Box<dyn std::error::Error>> {
    let written = include_str!("data/report.json");
    let sr = StructureReport::from_json(written)?;
    assert_eq!(sr.report.schema_version, 1);
    assert_eq!(
        (sr.record.spec.steady_size, sr.record.stream_seed),
        (200, 9)
    );
    assert_eq!(sr.report, rtcompare::Report::from_json(written)?);
    let again = sr.to_json()?;
    let value = |s: &str| serde_json::from_str::<serde_json::Value>(s);
    assert_eq!(value(&again)?, value(written)?);
    assert_eq!(StructureReport::from_json(&again)?, sr);
    // The summary line is printed, right below the medians.
    let text = sr.to_string();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == sr.record.summary)
        .unwrap_or_else(|| panic!("no workload line in {text}"));
    assert!(lines[at - 1].starts_with(&format!("B ({}): ", sr.report.name_b)));
    Ok(())
}

/// A report of another comparison has no record, and says so as a JSON error.
#[test]
fn a_report_without_a_record_is_no_structure_report() {
    let written = include_str!("data/report.json");
    let mut value: serde_json::Value = serde_json::from_str(written).unwrap();
    value.as_object_mut().unwrap().remove("workload");
    let e = StructureReport::from_json(&value.to_string()).unwrap_err();
    assert!(
        matches!(
            e,
            rtcompare_workload::Error::Core(rtcompare::Error::Json { .. })
        ),
        "{e}"
    );
    assert!(e.to_string().contains("workload"), "{e}");
}
