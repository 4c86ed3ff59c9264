//! The main job: is `sort_unstable` really faster than `sort` on 1,000 random `u32`, by how
//! much, and can this machine tell?
//!
//! Run: `cargo run --release --example compare`
//!
//! Progress goes to stderr, the report to stdout, and the report's JSON to
//! `target/rtcompare/compare.json`.

use std::hint::black_box;
use std::io::{IsTerminal, Write};
use std::time::Instant;

use rtcompare::rng::Rng;
use rtcompare::{Candidate, CompareOptions, Stage, compare};

const LEN: usize = 1_000;

/// A candidate that copies the unsorted input into a buffer and sorts it with `sort`, once per
/// operation. The copy costs the same in both candidates.
fn sorter(name: &str, data: &[u32], sort: fn(&mut [u32])) -> Candidate<'static> {
    let data = data.to_vec();
    let mut buf = data.clone();
    Candidate::new(name, move |n| {
        for _ in 0..n {
            buf.copy_from_slice(black_box(&data));
            sort(&mut buf);
            black_box(&buf);
        }
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = Rng::new(2026);
    let data: Vec<u32> = (0..LEN).map(|_| rng.next_u64() as u32).collect();

    let a = sorter("slice::sort_unstable", &data, |v| v.sort_unstable());
    let b = sorter("slice::sort", &data, |v| v.sort());

    let opts = CompareOptions::default()
        .thresholds([0.05, 0.10, 0.20])
        .progress(|p| {
            let mut err = std::io::stderr().lock();
            // A counter redrawn in place on a terminal; only the stages in a log file.
            let tty = std::io::stderr().is_terminal();
            match p.stage {
                Stage::Validating | Stage::Measuring if p.total > 0 && tty => {
                    let _ = write!(
                        err,
                        "\r{:<11} {:>3}/{:<3}",
                        p.stage.as_str(),
                        p.done,
                        p.total
                    );
                    if p.done == p.total {
                        let _ = writeln!(err);
                    }
                }
                _ if p.done == 0 => {
                    let _ = writeln!(err, "{}…", p.stage.as_str());
                }
                _ => {}
            }
        });

    let started = Instant::now();
    let report = compare(a, b, &opts)?;
    eprintln!("compared in {:.2} s", started.elapsed().as_secs_f64());

    println!("{report}");

    let dir = std::path::Path::new("target").join("rtcompare");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("compare.json");
    std::fs::write(&path, report.to_json()?)?;
    eprintln!("report written to {}", path.display());
    Ok(())
}
