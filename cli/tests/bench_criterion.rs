//! `rtcompare bench` on a bench file written against criterion's API, built on the workspace's
//! `rtcompare-criterion` renamed `criterion`, as a criterion user switches: the worker protocol
//! serves it as it serves a native target. At the baseline `work` runs 2,000 steps of a
//! dependent chain, in the working tree 4,000; nothing else changes. The bench file's own
//! `cargo bench -- --baseline REV` gives the same table for the same seed.

mod common;
use common::{git, rtcompare_bench};
use std::path::{Path, PathBuf};

/// The library the bench file calls: `work`'s step count is the one thing the commit changes.
fn lib_source(work_steps: u64) -> String {
    format!(
        "pub fn chain(steps: u64) -> u64 {{\n\
             let mut x = 1u64;\n\
             for _ in 0..std::hint::black_box(steps) {{\n\
                 x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);\n\
             }}\n\
             x\n\
         }}\n\
         pub fn work() -> u64 {{ chain({work_steps}) }}\n\
         pub fn same() -> u64 {{ chain(2_000) }}\n"
    )
}

/// Written as criterion's users write bench files: a plain function, a group with inputs and
/// a throughput, and `iter_batched`.
const BENCH: &str = r#"
use criterion::{black_box, criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use demo::{chain, same, work};

fn plain(c: &mut Criterion) {
    c.bench_function("work", |b| b.iter(work));
    c.bench_function("same", |b| b.iter(same));
}

fn grouped(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain");
    for n in [500u64, 1_000] {
        g.throughput(Throughput::Elements(n));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| b.iter(|| chain(black_box(n))));
    }
    g.bench_function("batched", |b| {
        b.iter_batched(|| vec![700u64; 4], |v| v.into_iter().map(chain).sum::<u64>(), BatchSize::SmallInput)
    });
    g.finish();
}

criterion_group!(benches, plain, grouped);
criterion_main!(benches);
"#;

/// The repository, removed on drop.
struct Repo(PathBuf);

impl Repo {
    fn new() -> Repo {
        let dir =
            std::env::temp_dir().join(format!("rtcompare-criterion-repo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("benches")).unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [dev-dependencies]\ncriterion = {{ package = \"rtcompare-criterion\", path = {:?}, \
                 features = [\"html_reports\"] }}\n\n\
                 [[bench]]\nname = \"b\"\nharness = false\n\n[workspace]\n",
                root.join("criterion").display().to_string()
            ),
        )
        .unwrap();
        // The workspace's lock file: the same versions, and no registry index to refresh.
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        std::fs::write(dir.join("src/lib.rs"), lib_source(2_000)).unwrap();
        std::fs::write(dir.join(".gitignore"), "tgt\n").unwrap();
        std::fs::write(dir.join("benches/b.rs"), BENCH).unwrap();
        git(&dir, &["init", "--quiet"]);
        git(&dir, &["add", "."]);
        git(&dir, &["commit", "--quiet", "-m", "baseline"]);
        std::fs::write(dir.join("src/lib.rs"), lib_source(4_000)).unwrap();
        Repo(dir)
    }
}

impl Drop for Repo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_criterion_bench_file_is_compared_across_revisions() {
    let repo = Repo::new();
    let out = rtcompare_bench(
        &repo.0,
        &[
            "--baseline",
            "HEAD",
            "--pairs",
            "3",
            "--seed",
            "5",
            "--json",
            "out.json",
            "--fail-on-regression",
            "10%",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo.0.join("out.json")).unwrap()).unwrap();
    let rows = json["benchmarks"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    // criterion's names, listed by the workers of both builds.
    assert_eq!(
        names,
        ["work", "same", "chain/500", "chain/1000", "chain/batched"],
        "{stdout}"
    );
    for r in rows {
        assert_eq!(r["status"], "compared", "{r}");
        // Twice the steps is a regression beyond 10 %; an unchanged benchmark whose whole
        // interval lay above 10 % would be a false one.
        let slowed = r["name"] == "work";
        assert_eq!(r["regression"], slowed, "{stdout}");
    }
    let work = &rows[0];
    assert!(work["delta"].as_f64().unwrap() < -0.5, "{stdout}");

    // The bench file itself runs the same comparison, with the same flags and seed, through
    // criterion's command line: the same rows, verdicts and layouts.
    let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "bench",
            "--bench",
            "b",
            "--",
            "--baseline",
            "HEAD",
            "--pairs",
            "3",
            "--seed",
            "5",
        ])
        .args(["--json", "harness.json", "--fail-on-regression", "10%"])
        .current_dir(&repo.0)
        .env("CARGO_TARGET_DIR", "tgt")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let harness: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo.0.join("harness.json")).unwrap())
            .unwrap();
    let verdicts = |j: &serde_json::Value| -> Vec<(String, bool)> {
        j["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["name"].to_string(), r["regression"].as_bool().unwrap()))
            .collect()
    };
    assert_eq!(verdicts(&harness), verdicts(&json), "{stderr}");
    // The same seed gives the same layouts in the same order; how many each run made
    // depends on how many pairs its decisions took, which the measurements decide (one run
    // here made 21 where the other made 15).
    let seeds = |j: &serde_json::Value| j["layouts"]["seeds"].as_array().unwrap().clone();
    let (a, b) = (seeds(&harness), seeds(&json));
    let common = a.len().min(b.len());
    assert!(common > 0, "{a:?} {b:?}");
    assert_eq!(a[..common], b[..common]);
}
