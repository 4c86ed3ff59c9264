//! The command line, parsed by clap. Option names follow hyperfine's where the meaning is the
//! same (`--warmup`, `--prepare`, `--runs`, `--shell`, `--show-output`, `--ignore-failure`).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use rtcompare::support::bench::{parse_budget, parse_duration, parse_fraction};

/// Default `--warmup`: none, as hyperfine's. BACKGROUND.md holds no measurement of whole
/// programs that asks for another (its warm-up section is about batches within one process),
/// and the ABBA order spreads a cold first run over both commands' first round.
pub const DEFAULT_WARMUP: usize = 0;
/// Default `--max-runs`: at most 10,000 timed runs of each command, whatever the time budget.
pub const DEFAULT_MAX_PAIRS: usize = 10_000;

/// Fewest runs of each command under `--runs` that also measure the A/A floor: 22, half of them
/// compared (the 11 pairs the bootstrap interval needs) and half the A/A partner runs.
pub const RUNS_WITH_FLOOR: usize = 2 * rtcompare::support::stats::MINIMUM_DATA_POINTS;

/// `rtcompare`: is one whole program really faster than another?
#[derive(Debug, Parser)]
#[command(name = "rtcompare", version, about, long_about = None)]
pub struct Cli {
    /// What to compare.
    #[command(subcommand)]
    pub command: Commands,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Commands {
    /// Compare two commands: interleaved ABBA runs after warm-ups, an A/A noise floor, a paired
    /// bootstrap interval of B's time over A's, and a verdict (or "cannot tell").
    Cmd(CmdArgs),
    /// Compare the working tree against a pristine baseline: check REF out into a temporary
    /// worktree, run the build command in both trees, then compare the run command in each.
    /// The worktree is removed afterwards, also on error and on Ctrl-C.
    Git(GitArgs),
    /// Compare one bench target at two revisions, benchmark by benchmark: the baseline is built
    /// in a temporary worktree and the head in the working tree (or at --head), both into the
    /// working tree's target directory, so the dependencies build once; worker pairs (two
    /// workers of each build on one CPU) serve every benchmark's timed batches in rounds of
    /// four. The same engine as the bench target's own
    /// `cargo bench --bench NAME -- --baseline REV`, which needs no install.
    /// Exits 1 with --fail-on-regression when a benchmark is proven slower with an estimated
    /// slowdown above the budget, 2 on a usage, build or run error, 3 when a benchmark failed.
    Bench(BenchArgs),
    /// Calibration before trust: A/A comparisons of the command against itself must give no
    /// verdict, and a real 5 % extra cost (a busy-wait in the timed window) must be detected in
    /// at least 95 % of comparisons. Exits 1 when a bar fails. `--json FILE` writes the result
    /// (both bars, their counts and whether each passed); `--html`, the `--export-*` flags and
    /// `--fail-on-regression` describe one comparison and are refused.
    Selftest(SelftestArgs),
    /// Pool one comparison across machines: each FILE is one machine's JSON (a pooled
    /// `compare` example run, `rtcompare cmd --json` or `rtcompare bench --json`), and every
    /// comparison they share is pooled with the machine as the unit (a t interval over
    /// machines, random effects and I² beside it, outlier machines named). At least 3 files.
    Combine(CombineArgs),
}

/// Arguments of `rtcompare combine`.
#[derive(Debug, Clone, Args)]
pub struct CombineArgs {
    /// The machines' JSON files, one per machine.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Write every pooled comparison as JSON to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write one self-contained HTML page to FILE: per comparison a forest plot of the
    /// machines' intervals above the pooled one, and its numbers.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the Markdown summary to FILE (`-`: standard output).
    #[arg(long = "export-markdown", alias = "markdown", value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Exit 1 when some comparison is proven slower over the machines (the pooled interval
    /// above zero) with an estimated slowdown above BUDGET, whatever the kind of input; without
    /// BUDGET, any proven slowdown. BUDGET follows as
    /// `--fail-on-regression=5%` or as the next word when it is a budget (`5%`, `0.05`), in
    /// every subcommand alike.
    #[arg(long, value_name = "BUDGET", num_args = 0..=1, require_equals = true, default_missing_value = "0%", value_parser = parse_fraction)]
    pub fail_on_regression: Option<f64>,
}

/// Arguments of `rtcompare bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// The baseline revision (any commit-ish).
    #[arg(long, value_name = "REV")]
    pub baseline: String,
    /// The head revision; without it, the working tree as it is.
    #[arg(long, value_name = "REV")]
    pub head: Option<String>,
    /// The bench target (a `[[bench]]` with `harness = false` built on rtcompare::bench, or a
    /// criterion bench file on rtcompare-criterion); without it, the package's only bench
    /// target.
    #[arg(long, value_name = "NAME")]
    pub bench: Option<String>,
    /// The package whose bench target is compared, as `cargo bench -p`; without it, the
    /// package of the current directory, or at a virtual workspace's root the one package
    /// with the bench target.
    #[arg(short = 'p', long, value_name = "NAME")]
    pub package: Option<String>,
    /// The manifest to start from instead of the current directory's, as cargo's own flag.
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Do not append the Markdown summary to $GITHUB_STEP_SUMMARY (for runners whose JSON a
    /// later `combine` step pools into the one summary).
    #[arg(long)]
    pub no_step_summary: bool,
    /// Worker pairs in each benchmark's first stage (at least 3). By default each benchmark is
    /// then decided as its pairs come in: after the first stage, a look at each further stage
    /// (within --max-pairs and the suite's --budget) until its interval says faster, slower or
    /// equivalent within --margin. With --precision, Stein's rule instead adds pairs until the
    /// interval is within ±1 % (or a quarter of |δ|).
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub pairs: usize,
    /// Most worker pairs per benchmark, first stage included.
    #[arg(long, alias = "max-runs", value_name = "K", default_value_t = 30)]
    pub max_pairs: usize,
    /// Judge every benchmark on its own at 95 % instead of holding the verdicts together
    /// (Holm's procedure over the benchmarks keeps the chance of any false verdict at 5 %).
    #[arg(long)]
    pub per_benchmark: bool,
    /// Code layouts of each build: every worker pair runs the two builds linked with its own
    /// code order (the linker's section shuffle, a relink of the bench target per layout, made
    /// when a pair first needs it), at most K pairs per benchmark. 1 compares the plain builds
    /// (a control: code placement then stays fixed and can pass for a change).
    #[arg(long, value_name = "K", default_value_t = rtcompare::support::bench::DEFAULT_LAYOUTS)]
    pub layouts: usize,
    /// The smallest difference that matters: each benchmark is decided faster, slower or
    /// equivalent within ±this, and one whose code layout alone moves it by more is named
    /// under the table (a fraction or a percentage). A wider --fail-on-regression budget is
    /// the margin instead, so that each benchmark is decided for the check.
    #[arg(long, alias = "threshold", value_name = "PCT", default_value = "1%", value_parser = parse_fraction)]
    pub margin: f64,
    /// Measure each benchmark to a ±1 point interval (Stein's plan, Holm over the family)
    /// instead of deciding it at the first look that says faster, slower or equivalent.
    #[arg(long)]
    pub precision: bool,
    /// Time budget of the whole suite's worker pairs (`5m`, `90s`; `0`: none): every
    /// benchmark gets its first stage, then the time left goes to the undecided benchmark
    /// closest to deciding, a stage at a time; when it runs out the undecided say "cannot
    /// tell below ±X %". Builds and relinks are not counted.
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_budget, conflicts_with = "precision")]
    pub budget: Duration,
    /// Let the system place each worker pair's four workers instead of putting them on one
    /// CPU (a control: on a virtual machine two vCPUs' speeds then decide pairs).
    #[arg(long)]
    pub no_cpu_per_pair: bool,
    /// Only benchmarks whose name contains FILTER (as `cargo bench -- FILTER`).
    #[arg(last = true, value_name = "FILTER")]
    pub filter: Option<String>,
    /// FILTER must equal a benchmark's whole name, as with `cargo bench -- FILTER --exact`.
    #[arg(long)]
    pub exact: bool,
    /// Leave out the benchmarks whose name contains PATTERN (repeatable), as libtest's
    /// `--skip`.
    #[arg(long, value_name = "PATTERN")]
    pub skip: Vec<String>,
    /// Seed of the workers' perturbations and the comparisons; 0 draws one.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Write every benchmark's result as JSON to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the Markdown summary to FILE (`-`: standard output; it is also appended to
    /// $GITHUB_STEP_SUMMARY when that is set).
    #[arg(long = "export-markdown", alias = "markdown", value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write an HTML index to FILE, one row per benchmark, each linking its own page (the
    /// forest plot of its worker pairs and the median pair's panels) written beside it.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Exit 1 when some benchmark is proven slower than the baseline (its interval above
    /// zero) with an estimated slowdown above BUDGET (a fraction or a percentage); without
    /// BUDGET, any proven slowdown. BUDGET follows as `--fail-on-regression=5%` or as the
    /// next word when it is a budget (`5%`, `0.05`), in every subcommand alike.
    #[arg(long, value_name = "BUDGET", num_args = 0..=1, require_equals = true, default_missing_value = "0%", value_parser = parse_fraction)]
    pub fail_on_regression: Option<f64>,
}

/// Arguments of `rtcompare selftest`.
#[derive(Debug, Clone, Args)]
pub struct SelftestArgs {
    /// The command to calibrate with.
    #[arg(long, value_name = "CMD")]
    pub cmd: String,
    /// Comparisons for each bar (A/A and the injected cost).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub trials: usize,
    /// The injected extra cost, a share of the command's median run time.
    #[arg(long, value_name = "PCT", default_value = "5%", value_parser = parse_fraction)]
    pub inject: f64,
    /// Write the calibration (date, machine stamp, both results) as JSON into DIR.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// How each comparison measures and decides.
    #[command(flatten)]
    pub options: CompareArgs,
}

/// Arguments of `rtcompare cmd`.
#[derive(Debug, Clone, Args)]
pub struct CmdArgs {
    /// The commands: the first is the reference (A) unless `--reference` gives one, and every
    /// other is compared with it; ratios are each command's time over the reference's. With a
    /// parameter (`-L`, `-P`), `{NAME}` in a command is replaced by each value in turn.
    #[arg(value_name = "COMMAND", required_unless_present = "import_hyperfine")]
    pub commands: Vec<String>,
    /// The reference every command is compared with, run as a command of its own before
    /// the others.
    #[arg(long, value_name = "CMD")]
    pub reference: Option<String>,
    /// A label for each command, in order (the reference first); `{NAME}` is substituted as
    /// in the commands. Defaults: A, B, C, … (or the command itself with parameters).
    #[arg(short = 'n', long = "command-name", value_name = "NAME")]
    pub command_name: Vec<String>,
    /// A parameter with a list of values: `-L n 1,2,4` runs each command once per value with
    /// `{n}` replaced; several `-L` make their product. The first value's command is the
    /// reference.
    #[arg(short = 'L', long, value_names = ["NAME", "VALUES"], num_args = 2)]
    pub parameter_list: Vec<String>,
    /// A numeric parameter scanned from MIN to MAX (inclusive) in steps of
    /// `--parameter-step-size` (default 1): `-P t 1 8`.
    #[arg(short = 'P', long, value_names = ["NAME", "MIN", "MAX"], num_args = 3)]
    pub parameter_scan: Vec<String>,
    /// The step of `--parameter-scan`.
    #[arg(short = 'D', long, value_name = "DELTA", requires = "parameter_scan")]
    pub parameter_step_size: Option<f64>,
    /// Order of the summary table: `command` (as given) or `mean-time` (fastest first).
    #[arg(long, value_name = "ORDER", value_enum, default_value_t = SortOrder::Command)]
    pub sort: SortOrder,
    /// Instead of running commands, analyse the two commands' `times` in a hyperfine JSON
    /// export (unpaired: hyperfine does not interleave; no A/A floor). The export must hold
    /// exactly two results: with more, there is no way to choose two, so it is refused with
    /// their commands listed. Times of 0 (hyperfine clamps its shell-corrected times at 0) are
    /// kept, with a warning.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["commands"])]
    pub import_hyperfine: Option<PathBuf>,
    /// How to measure and decide.
    #[command(flatten)]
    pub options: CompareArgs,
}

/// Arguments of `rtcompare git`.
#[derive(Debug, Clone, Args)]
pub struct GitArgs {
    /// The build command, run in the baseline tree and then in the head (the working tree, or
    /// the tree checked out at --head). In a checked-out tree it runs with CARGO_TARGET_DIR
    /// set to a directory of its own, `<target>/rtcompare/git-base` or `.../git-head` under the
    /// working tree's target directory (`$CARGO_TARGET_DIR`, else `target` at the repository's
    /// top), kept between runs so that rebuilds are incremental; when the tree has a
    /// Cargo.toml at its top, its `./target` is a link to that directory, so the run command
    /// finds the build's output where it would in the working tree. The working tree builds
    /// with your environment unchanged.
    #[arg(long, value_name = "CMD")]
    pub build: String,
    /// The command to compare, run in each tree (A: the baseline, B: the head).
    #[arg(long, value_name = "CMD")]
    pub run: String,
    /// The baseline: any commit-ish, checked out pristine into a temporary worktree.
    #[arg(long, value_name = "REF", default_value = "HEAD")]
    pub base: String,
    /// The head: any commit-ish, checked out into a temporary worktree of its own like the
    /// baseline; without it, the working tree as it is, uncommitted changes included.
    #[arg(long, value_name = "REF")]
    pub head: Option<String>,
    /// How to measure and decide.
    #[command(flatten)]
    pub options: CompareArgs,
}

/// The measuring and deciding options shared by `cmd` and `git`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Discarded runs of each command before anything is timed (default 0, as hyperfine's).
    #[arg(short, long, value_name = "N", default_value_t = DEFAULT_WARMUP)]
    pub warmup: usize,
    /// A command run before every run (warm-up, validation and timed), not timed. Given
    /// once, it serves every command; given once per command, each is matched to its command
    /// in order (the reference first).
    #[arg(short, long, value_name = "CMD")]
    pub prepare: Vec<String>,
    /// A command run once before each command's first run (after the start floor), not timed.
    #[arg(short = 's', long, value_name = "CMD")]
    pub setup: Option<String>,
    /// A command run after every run of each command, not timed.
    #[arg(short = 'C', long, value_name = "CMD")]
    pub conclude: Option<String>,
    /// A command run once after each command's last run, also when the session stops early.
    #[arg(short = 'c', long, value_name = "CMD")]
    pub cleanup: Option<String>,
    /// The shell that runs each command (the command is appended as one argument), or `none`
    /// to split the command into words and execute it directly. Default: `sh -c`
    /// (`cmd.exe /C` on Windows).
    #[arg(short = 'S', long, value_name = "SHELL", default_value = crate::process::DEFAULT_SHELL)]
    pub shell: String,
    /// Short for `--shell none`: split each command into words and execute it directly.
    #[arg(short = 'N', conflicts_with = "shell")]
    pub no_shell: bool,
    /// Let the commands write to this terminal (by default stdout and stderr go to
    /// /dev/null); the same as `--output inherit`.
    #[arg(long)]
    pub show_output: bool,
    /// Feed every run's stdin from FILE (opened afresh for each run) instead of /dev/null.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Where each run's stdout goes: `null` (default), `pipe` (read and discarded by
    /// rtcompare: a program may write differently to a pipe), `inherit` (this terminal, as
    /// --show-output) or a file name (truncated before every run).
    #[arg(long, value_name = "WHERE", value_parser = crate::process::Output::parse, conflicts_with = "show_output")]
    pub output: Option<crate::process::Output>,
    /// Time runs that exit non-zero instead of stopping: all of them, or with
    /// `--ignore-failure=1,3` only those exit codes. A run killed by a signal always stops.
    #[arg(
        short,
        long,
        value_name = "CODES",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all",
        value_parser = parse_codes
    )]
    pub ignore_failure: Option<AcceptedCodes>,
    /// Skip the A/A runs (A against A′, B against B′, one pair each per timed pair, which
    /// doubles the runs) that measure the noise floor.
    #[arg(long)]
    pub no_validation: bool,
    /// Run each command exactly N times (timed), as hyperfine does. From 22 on, the A/A noise
    /// floor is taken within them: half are compared pairwise and half are the A/A partner
    /// runs beside them. Below 22, or with --no-validation, all N are compared and no floor is
    /// measured; the output says which. Fewer than 11 compared pairs are judged by the
    /// few-runs rule, which gives no interval.
    #[arg(short, long, value_name = "N")]
    pub runs: Option<usize>,
    /// Run each command at least N times (timed, A/A partner runs included), as hyperfine's
    /// `--min-runs`: no decision, precision target or --max-time stops measuring before.
    #[arg(short = 'm', long, value_name = "N", conflicts_with = "runs")]
    pub min_runs: Option<usize>,
    /// With `--precision`: stop once the interval's half-width is at most this (a percentage
    /// such as `1%`, or a fraction such as 0.01), after at least 11 pairs.
    #[arg(long, value_name = "PCT", default_value = "1%", value_parser = parse_fraction, requires = "precision")]
    pub width: f64,
    /// Measure until every interval is within `--width` instead of deciding: by default
    /// measuring stops at the first planned look whose interval settles every comparison
    /// against the threshold (faster, slower, or equivalent within ±threshold).
    #[arg(long, conflicts_with = "runs")]
    pub precision: bool,
    /// Smallest difference worth claiming, and the margin of the decision: a verdict's
    /// interval must lie beyond it (and the A/A floor), "equivalent" inside ±it. A wider
    /// --fail-on-regression budget is the margin instead, so that the run is decided for the
    /// check.
    #[arg(long, visible_alias = "margin", value_name = "PCT", default_value = "2%", value_parser = parse_fraction)]
    pub threshold: f64,
    /// Time budget of the comparison stage, and the longest one run may take (`60`, `90s`,
    /// `500ms`, `2m`).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    pub max_time: Duration,
    /// Run each command at most N times (timed, A/A partner runs included), as hyperfine's
    /// `--max-runs`, whatever the time budget.
    #[arg(short = 'M', long, alias = "max-pairs", value_name = "N", default_value_t = DEFAULT_MAX_PAIRS)]
    pub max_runs: usize,
    /// What the terminal shows, as hyperfine's `--style`: `auto` (the progress line when
    /// standard error is a terminal), `basic` (no progress line), `full` (as auto), `nocolor`
    /// (as auto: rtcompare prints no colours), `color` (as basic), `none` (no summary and no
    /// progress; the outputs asked for are still written).
    #[arg(long, value_name = "TYPE", value_enum, default_value_t = Style::Auto)]
    pub style: Style,
    /// The unit of the times in the summary and the tables (`--export-markdown`, AsciiDoc,
    /// Org), as hyperfine's `--time-unit`; without it, one chosen for each time.
    #[arg(short = 'u', long, value_name = "UNIT", value_enum)]
    pub time_unit: Option<crate::units::TimeUnit>,
    /// Write the full result (every run, the environment, the verdict) as JSON to FILE (`-`:
    /// standard output). Whenever an output goes to standard output, the summary goes to
    /// standard error, and at most one output may. Every output file is opened before the
    /// first run, so a path that cannot be written fails at once.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the comparison as one self-contained HTML page to FILE (inline SVG, no script):
    /// the answer, the runs in order, the distributions, the bootstrap beside the A/A floor,
    /// the commands and the machine. `-`: standard output.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the timed runs in hyperfine's JSON export layout to FILE (`-`: standard output),
    /// as `hyperfine --export-json` does: `results[]` with `command`, `mean`, `stddev`,
    /// `median`, `user`, `system`, `min`, `max`, `times` and `exit_codes` (seconds), so that
    /// scripts written for hyperfine read it unchanged; rtcompare's verdict, ratio and
    /// interval are added under the key `rtcompare` of each result and of the document.
    /// rtcompare's own, complete layout is `--json`.
    #[arg(long, alias = "export-hyperfine", value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// Seed of the bootstrap (0 or absent: draw one; the result records it).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Exit with status 1 when a command is proven slower than the reference (its interval
    /// above zero and the A/A floor) with an estimated slowdown above BUDGET (without BUDGET,
    /// any proven slowdown; under the few-runs rule, which has no interval, any loss). BUDGET follows as
    /// `--fail-on-regression=5%` or as the next word when it is a budget
    /// (`--fail-on-regression 5% ./old ./new`), in every subcommand alike; a next word that
    /// is a command stays a command.
    #[arg(long, value_name = "BUDGET", num_args = 0..=1, require_equals = true, default_missing_value = "0%", value_parser = parse_fraction)]
    pub fail_on_regression: Option<f64>,
    /// Read hardware counters (cycles, instructions, cache misses, branch misses; user space)
    /// for every run's process and its descendants, and summarise them per command.
    /// Diagnostics only: the verdict never uses them. Where the kernel or the virtual machine
    /// refuses, the output says "unavailable" and why; that is never an error.
    #[arg(long)]
    pub counters: bool,
    /// Also write the table people paste into pull requests to FILE (`-`: standard output), as
    /// hyperfine's `--export-markdown` (mean ± σ, min, max in one unit, relative to the
    /// fastest), with rtcompare's ratio to A, its interval and the verdict, and the verdict's
    /// sentence under the table.
    #[arg(long, alias = "markdown", value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// Also write one row per command to FILE (`-`: standard output) with hyperfine's
    /// `--export-csv` columns (command, mean, stddev, median, user, system, min, max; seconds),
    /// then `ratio`, `low`, `high` (B's time over A's and its interval) and `verdict`, empty
    /// on A's row.
    #[arg(long, value_name = "FILE")]
    pub export_csv: Option<PathBuf>,
    /// Also write the `--export-markdown` table as AsciiDoc to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub export_asciidoc: Option<PathBuf>,
    /// Also write the `--export-markdown` table as an Emacs Org-mode table to FILE (`-`:
    /// standard output).
    #[arg(long, value_name = "FILE")]
    pub export_orgmode: Option<PathBuf>,
}

/// What the terminal shows (`--style`), hyperfine's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Style {
    /// The progress line when standard error is a terminal.
    Auto,
    /// No progress line.
    Basic,
    /// As `auto`.
    Full,
    /// As `auto` (rtcompare prints no colours).
    Nocolor,
    /// As `basic` (rtcompare prints no colours).
    Color,
    /// No summary and no progress line.
    None,
}

impl Style {
    /// Whether the progress line may be drawn.
    pub fn progress(self) -> bool {
        matches!(self, Style::Auto | Style::Full | Style::Nocolor)
    }

    /// Whether the summary is printed.
    pub fn summary(self) -> bool {
        self != Style::None
    }
}

/// The order of the summary's rows with more than two commands (`--sort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortOrder {
    /// As the commands were given, the reference first.
    Command,
    /// Fastest mean time first.
    MeanTime,
}

/// Which non-zero exit codes `--ignore-failure` accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AcceptedCodes {
    /// Every exit code.
    All,
    /// Only these.
    Codes(Vec<i32>),
}

/// Parses `all` or a comma-separated list of exit codes (`1,3`).
pub fn parse_codes(s: &str) -> Result<AcceptedCodes, String> {
    if s.trim() == "all" {
        return Ok(AcceptedCodes::All);
    }
    s.split(',')
        .map(|c| {
            c.trim()
                .parse::<i32>()
                .map_err(|_| format!("`{c}` is not an exit code; write --ignore-failure=1,3"))
        })
        .collect::<Result<Vec<i32>, String>>()
        .map(AcceptedCodes::Codes)
}

impl CompareArgs {
    /// Whether the A/A floor is measured: not with `--no-validation`, nor under `--runs N`
    /// with N below [`RUNS_WITH_FLOOR`].
    pub fn validates(&self) -> bool {
        !self.no_validation && self.runs.is_none_or(|n| n >= RUNS_WITH_FLOOR)
    }

    /// Timed runs of each command in one round: 2 with the A/A partner run, else 1.
    pub fn runs_per_round(&self) -> usize {
        if self.validates() { 2 } else { 1 }
    }

    /// The rounds `--runs N` asks for (N runs of each command: ⌈N/2⌉ rounds with the floor,
    /// the last without its partner run when N is odd), `None` without `--runs`.
    pub fn rounds_for_runs(&self) -> Option<usize> {
        self.runs.map(|n| n.div_ceil(self.runs_per_round()))
    }

    /// Whether round `i` (from 0) has its A/A partner runs: every round when validating,
    /// but the last of an odd `--runs N`, which would run each command N + 1 times.
    pub fn partnered(&self, i: usize) -> bool {
        self.validates() && self.runs.is_none_or(|n| i < n / 2)
    }

    /// The most rounds `--max-runs` allows.
    pub fn max_rounds(&self) -> usize {
        self.max_runs / self.runs_per_round()
    }

    /// The fewest rounds `--min-runs` asks for (0 without it).
    pub fn min_rounds(&self) -> usize {
        self.min_runs
            .map_or(0, |n| n.div_ceil(self.runs_per_round()))
    }

    /// Whether a run that exited with `code` (`None`: killed by a signal) is timed anyway.
    pub fn accepts(&self, code: Option<i32>) -> bool {
        match (&self.ignore_failure, code) {
            (None, _) | (_, None) => false,
            (Some(AcceptedCodes::All), Some(_)) => true,
            (Some(AcceptedCodes::Codes(codes)), Some(c)) => codes.contains(&c),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn counters_is_an_opt_in_flag() {
        let parse = |args: &[&str]| match Cli::try_parse_from(args).unwrap().command {
            Commands::Cmd(c) => c.options.counters,
            _ => unreachable!("a cmd line"),
        };
        assert!(parse(&["rtcompare", "cmd", "--counters", "true", "false"]));
        assert!(!parse(&["rtcompare", "cmd", "true", "false"]));
        assert!(Cli::try_parse_from(["rtcompare", "cmd", "--counters=yes", "a", "b"]).is_err());
    }

    #[test]
    fn git_takes_an_optional_head() {
        let parse = |args: &[&str]| match Cli::try_parse_from(args).unwrap().command {
            Commands::Git(g) => (g.base, g.head),
            _ => unreachable!("a git line"),
        };
        let git = ["rtcompare", "git", "--build", "make", "--run", "./app"];
        assert_eq!(parse(&git), ("HEAD".into(), None));
        let both = [&git[..], &["--base", "v1", "--head", "main"]].concat();
        assert_eq!(parse(&both), ("v1".into(), Some("main".into())));
    }

    #[test]
    fn bench_takes_exact_and_repeated_skips() {
        let parse = |args: &[&str]| match Cli::try_parse_from(args).unwrap().command {
            Commands::Bench(b) => (b.filter, b.exact, b.skip),
            other => panic!("{other:?}"),
        };
        let (filter, exact, skip) = parse(&[
            "rtcompare",
            "bench",
            "--baseline",
            "main",
            "--skip",
            "slow/",
            "--skip",
            "huge",
            "--exact",
            "--",
            "parse/small",
        ]);
        assert_eq!(filter.as_deref(), Some("parse/small"));
        assert!(exact);
        assert_eq!(skip, ["slow/", "huge"]);
        let (_, exact, skip) = parse(&["rtcompare", "bench", "--baseline", "main"]);
        assert!(!exact && skip.is_empty());
    }

    #[test]
    fn one_flag_name_across_subcommands_with_the_old_spellings_hidden() {
        let cmd = |args: &[&str]| match Cli::try_parse_from(args).unwrap().command {
            Commands::Cmd(c) => c,
            other => panic!("{other:?}"),
        };
        let bench = |args: &[&str]| match Cli::try_parse_from(args).unwrap().command {
            Commands::Bench(b) => b,
            other => panic!("{other:?}"),
        };
        let c = cmd(&[
            "rtcompare",
            "cmd",
            "--max-pairs",
            "50",
            "--markdown",
            "m",
            "a",
            "b",
        ]);
        assert_eq!(c.options.max_runs, 50);
        assert_eq!(c.options.export_markdown.as_deref(), Some(Path::new("m")));
        let b = bench(&["rtcompare", "bench", "--baseline", "x", "--max-runs", "9"]);
        assert_eq!(b.max_pairs, 9);
        let b = bench(&["rtcompare", "bench", "--baseline", "x", "--markdown", "m"]);
        assert_eq!(b.markdown.as_deref(), Some(Path::new("m")));
        // --fail-on-regression is a budget everywhere; bare, any proven slowdown.
        assert_eq!(
            cmd(&["rtcompare", "cmd", "a", "b"])
                .options
                .fail_on_regression,
            None
        );
        let bare = cmd(&["rtcompare", "cmd", "--fail-on-regression", "a", "b"]);
        assert_eq!(bare.options.fail_on_regression, Some(0.0));
        assert_eq!(bare.commands, ["a", "b"]);
        let budget = cmd(&["rtcompare", "cmd", "--fail-on-regression=5%", "a", "b"]);
        assert_eq!(budget.options.fail_on_regression, Some(0.05));
        let b = bench(&[
            "rtcompare",
            "bench",
            "--baseline",
            "x",
            "--fail-on-regression=5%",
        ]);
        assert_eq!(b.fail_on_regression, Some(0.05));
        // --sort takes its values from the enum.
        let sorted = cmd(&["rtcompare", "cmd", "--sort", "mean-time", "a", "b"]);
        assert_eq!(sorted.sort, SortOrder::MeanTime);
        assert!(Cli::try_parse_from(["rtcompare", "cmd", "--sort", "fast", "a", "b"]).is_err());
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
