//! `Criterion`: the configuration a bench file builds and the entry to its benchmarks.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;

use crate::bencher::Bencher;
use crate::group::{BenchmarkGroup, BenchmarkId};
use crate::measurement::{Measurement, WallTime};
use crate::session::{self, Note};
use crate::settings::PlottingBackend;

/// The settings that mean something here, as a benchmark runs with them.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// Part of the benchmark's time bound (the warm-up itself is found in the readings).
    pub(crate) warm_up_time: Duration,
    /// With the warm-up time, the most a benchmark may take.
    pub(crate) measurement_time: Duration,
    /// The level of each benchmark's interval.
    pub(crate) confidence_level: f64,
    /// Where the JSON and the page go; `None`: `target/rtcompare/bench`.
    pub(crate) output_directory: Option<PathBuf>,
    /// A filter set in the bench file ([`Criterion::with_filter`]), beside the command line's.
    pub(crate) filter: Option<Regex>,
}

impl Default for Config {
    /// criterion's defaults: 3 s of warm-up, 5 s of measurement, 95 %.
    fn default() -> Self {
        Config {
            warm_up_time: Duration::from_secs(3),
            measurement_time: Duration::from_secs(5),
            confidence_level: 0.95,
            output_directory: None,
            filter: None,
        }
    }
}

/// The benchmark manager, as criterion names it: a configuration built with its builder
/// methods (each consumes and returns `Self`), then [`bench_function`](Self::bench_function)
/// and [`benchmark_group`](Self::benchmark_group) to run benchmarks with it.
///
/// Each benchmark is measured by rtcompare's harness until its mean's interval is ±5 % (at
/// the [`confidence_level`](Self::confidence_level)), within
/// [`warm_up_time`](Self::warm_up_time) plus [`measurement_time`](Self::measurement_time)
/// (8 s by default). Settings that have no effect here are accepted and named once on stderr.
pub struct Criterion<M: Measurement = WallTime> {
    config: Config,
    _measurement: PhantomData<M>,
}

impl Default for Criterion {
    /// criterion's defaults (see [`Criterion`]).
    fn default() -> Self {
        Criterion {
            config: Config::default(),
            _measurement: PhantomData,
        }
    }
}

impl<M: Measurement> Criterion<M> {
    /// Changes the measurement; [`WallTime`] is the only one (see
    /// [`measurement`](crate::measurement)).
    #[must_use]
    pub fn with_measurement<M2: Measurement>(self, _m: M2) -> Criterion<M2> {
        Criterion {
            config: self.config,
            _measurement: PhantomData,
        }
    }

    /// Accepted; no effect, named once: profiling runs (`--profile-time`) are not supported.
    #[must_use]
    pub fn with_profiler<P>(self, _p: P) -> Criterion<M> {
        session::note(Note::Profiler);
        self
    }

    /// Accepted; no effect, named once (the harness draws its own page).
    #[must_use]
    pub fn plotting_backend(self, _backend: PlottingBackend) -> Criterion<M> {
        session::note(Note::Plots);
        self
    }

    /// Accepted; no effect, named once: a benchmark takes readings until its mean is precise,
    /// however many that takes. criterion's rule that `n` be at least 10 is not enforced.
    #[must_use]
    pub fn sample_size(self, _n: usize) -> Criterion<M> {
        session::note(Note::SampleSize);
        self
    }

    /// The warm-up time, part of a benchmark's time bound (with the measurement time). The
    /// warm-up itself is found in the readings (a level shift at the start is dropped) rather
    /// than run for a fixed time.
    #[must_use]
    pub fn warm_up_time(mut self, dur: Duration) -> Criterion<M> {
        self.config.warm_up_time = dur;
        self
    }

    /// The measurement time: with the warm-up time, the most a benchmark may take. A
    /// benchmark whose mean is ±5 % precise sooner stops sooner; one that is not by then
    /// stops there and its row says the target was not met.
    #[must_use]
    pub fn measurement_time(mut self, dur: Duration) -> Criterion<M> {
        self.config.measurement_time = dur;
        self
    }

    /// Accepted; no effect, named once: intervals come from batch means, not a bootstrap.
    #[must_use]
    pub fn nresamples(self, _n: usize) -> Criterion<M> {
        session::note(Note::Resamples);
        self
    }

    /// Accepted; no effect, named once: it judges changes against a saved baseline, which
    /// this harness does not keep.
    #[must_use]
    pub fn noise_threshold(self, _threshold: f64) -> Criterion<M> {
        session::note(Note::BaselineJudgement);
        self
    }

    /// The level of each benchmark's interval (0.95 by default). A level outside (0, 1) makes
    /// each benchmark's row a failure that names it.
    #[must_use]
    pub fn confidence_level(mut self, cl: f64) -> Criterion<M> {
        self.config.confidence_level = cl;
        self
    }

    /// Accepted; no effect, named once (see [`noise_threshold`](Self::noise_threshold)).
    #[must_use]
    pub fn significance_level(self, _sl: f64) -> Criterion<M> {
        session::note(Note::BaselineJudgement);
        self
    }

    /// Accepted; no effect, named once (the harness draws its own page).
    #[must_use]
    pub fn with_plots(self) -> Criterion<M> {
        session::note(Note::Plots);
        self
    }

    /// Accepted; no effect, named once (the harness draws its own page).
    #[must_use]
    pub fn without_plots(self) -> Criterion<M> {
        session::note(Note::Plots);
        self
    }

    /// Accepted; no effect, named once: this harness keeps no saved baselines.
    #[must_use]
    pub fn save_baseline(self, _baseline: String) -> Criterion<M> {
        session::note(Note::SavedBaselines);
        self
    }

    /// Accepted; no effect, named once: this harness keeps no saved baselines.
    #[must_use]
    pub fn retain_baseline(self, _baseline: String, _strict: bool) -> Criterion<M> {
        session::note(Note::SavedBaselines);
        self
    }

    /// Accepted; no effect, named once (plain rows).
    #[must_use]
    pub fn with_output_color(self, _enabled: bool) -> Criterion<M> {
        session::note(Note::Color);
        self
    }

    /// Runs only the benchmarks whose name matches the regular expression `filter` (as well as
    /// the command line's filter). A filter that is not a regular expression selects nothing
    /// and says why on stderr.
    #[must_use]
    pub fn with_filter<S: Into<String>>(mut self, filter: S) -> Criterion<M> {
        let filter = filter.into();
        self.config.filter = Some(Regex::new(&filter).unwrap_or_else(|e| {
            eprintln!(
                "error: Criterion::with_filter({filter:?}) is not a regular expression ({e}); \
                 no benchmark of this configuration runs"
            );
            Regex::new("[^\\s\\S]").expect("a class that matches nothing")
        }));
        self
    }

    /// Where the JSON and the HTML page go (instead of `target/rtcompare/bench`).
    #[must_use]
    pub fn output_directory(mut self, path: &Path) -> Criterion<M> {
        self.config.output_directory = Some(path.to_path_buf());
        self
    }

    /// Applies the command line's settings (`--measurement-time`, `--warm-up-time`,
    /// `--confidence-level`) over this configuration, and starts the run from the command
    /// line if none is under way (a bad command line ends the process with status 2). What
    /// `criterion_group!` calls.
    #[must_use]
    pub fn configure_from_args(mut self) -> Criterion<M> {
        let o = session::overrides();
        if let Some(d) = o.warm_up_time {
            self.config.warm_up_time = d;
        }
        if let Some(d) = o.measurement_time {
            self.config.measurement_time = d;
        }
        if let Some(cl) = o.confidence_level {
            self.config.confidence_level = cl;
        }
        self
    }

    /// Ends the run, for bench files whose own `main` calls the groups (`criterion_main!`
    /// does it itself): prints the summary and writes the JSON and the page; the process
    /// exits with status 1 when a benchmark failed (2 when the output could not be written).
    pub fn final_summary(&self) {
        let code = session::finish();
        if code != 0 {
            std::process::exit(code);
        }
    }

    /// A group of benchmarks named `group_name/…`, which share settings and a throughput.
    pub fn benchmark_group<S: Into<String>>(&mut self, group_name: S) -> BenchmarkGroup<'_, M> {
        BenchmarkGroup::new(self.config.clone(), group_name.into())
    }

    /// Runs the benchmark `id`: `f` is called with a [`Bencher`] and times its code with
    /// [`Bencher::iter`] (or a relative).
    pub fn bench_function<F>(&mut self, id: &str, mut f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        session::bench(id, &self.config, None, &mut f);
        self
    }

    /// Runs the benchmark `id` (`function/parameter`) on `input`.
    pub fn bench_with_input<F, I>(&mut self, id: BenchmarkId, input: &I, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        session::bench(&id.to_string(), &self.config, None, &mut |b| f(b, input));
        self
    }
}
