//! Groups of benchmarks and their names, formed as criterion forms them:
//! `group/function/parameter`.

use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

use crate::bencher::Bencher;
use crate::criterion::Config;
use crate::measurement::Measurement;
use crate::session::{self, Note};
use crate::settings::{PlotConfiguration, SamplingMode, Throughput};

/// A benchmark's name within its group: a function name, a parameter, or both
/// (`function/parameter`).
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct BenchmarkId {
    function_name: Option<String>,
    parameter: Option<String>,
}

impl BenchmarkId {
    /// `function_name/parameter`.
    pub fn new<S: Into<String>, P: fmt::Display>(function_name: S, parameter: P) -> BenchmarkId {
        BenchmarkId {
            function_name: Some(function_name.into()),
            parameter: Some(parameter.to_string()),
        }
    }

    /// The parameter alone, for a group whose benchmarks differ only by it.
    pub fn from_parameter<P: fmt::Display>(parameter: P) -> BenchmarkId {
        BenchmarkId {
            function_name: None,
            parameter: Some(parameter.to_string()),
        }
    }
}

impl fmt::Display for BenchmarkId {
    /// The parts that are set, joined by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = [&self.function_name, &self.parameter]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        f.write_str(&parts.join("/"))
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::BenchmarkId {}
    impl<S: Into<String>> Sealed for S {}
}

/// What names a benchmark in a group: a [`BenchmarkId`], or a function name (`&str`,
/// `String`).
pub trait IntoBenchmarkId: sealed::Sealed {
    /// The name as a [`BenchmarkId`].
    fn into_benchmark_id(self) -> BenchmarkId;
}

impl IntoBenchmarkId for BenchmarkId {
    fn into_benchmark_id(self) -> BenchmarkId {
        self
    }
}

impl<S: Into<String>> IntoBenchmarkId for S {
    fn into_benchmark_id(self) -> BenchmarkId {
        BenchmarkId {
            function_name: Some(self.into()),
            parameter: None,
        }
    }
}

/// Benchmarks under one name prefix (`group/…`) that share settings and a throughput, from
/// [`Criterion::benchmark_group`](crate::Criterion::benchmark_group). Settings made here hold
/// for the group's later benchmarks and end with it.
pub struct BenchmarkGroup<'a, M: Measurement> {
    config: Config,
    name: String,
    throughput: Option<Throughput>,
    _criterion: PhantomData<&'a mut M>,
}

impl<M: Measurement> BenchmarkGroup<'_, M> {
    pub(crate) fn new(config: Config, name: String) -> Self {
        BenchmarkGroup {
            config,
            name,
            throughput: None,
            _criterion: PhantomData,
        }
    }

    /// Accepted; no effect, named once (see
    /// [`Criterion::sample_size`](crate::Criterion::sample_size)).
    pub fn sample_size(&mut self, _n: usize) -> &mut Self {
        session::note(Note::SampleSize);
        self
    }

    /// The group's warm-up time (see [`Criterion::warm_up_time`](crate::Criterion::warm_up_time)).
    pub fn warm_up_time(&mut self, dur: Duration) -> &mut Self {
        self.config.warm_up_time = dur;
        self
    }

    /// The group's measurement time (see
    /// [`Criterion::measurement_time`](crate::Criterion::measurement_time)).
    pub fn measurement_time(&mut self, dur: Duration) -> &mut Self {
        self.config.measurement_time = dur;
        self
    }

    /// Accepted; no effect, named once.
    pub fn nresamples(&mut self, _n: usize) -> &mut Self {
        session::note(Note::Resamples);
        self
    }

    /// Accepted; no effect, named once.
    pub fn noise_threshold(&mut self, _threshold: f64) -> &mut Self {
        session::note(Note::BaselineJudgement);
        self
    }

    /// The group's confidence level (see
    /// [`Criterion::confidence_level`](crate::Criterion::confidence_level)).
    pub fn confidence_level(&mut self, cl: f64) -> &mut Self {
        self.config.confidence_level = cl;
        self
    }

    /// Accepted; no effect, named once.
    pub fn significance_level(&mut self, _sl: f64) -> &mut Self {
        session::note(Note::BaselineJudgement);
        self
    }

    /// Accepted; no effect, named once.
    pub fn plot_config(&mut self, _new_config: PlotConfiguration) -> &mut Self {
        session::note(Note::Plots);
        self
    }

    /// The work one iteration of the group's later benchmarks does: their rows show a rate.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
        self
    }

    /// Accepted; no effect, named once.
    pub fn sampling_mode(&mut self, _new_mode: SamplingMode) -> &mut Self {
        session::note(Note::SamplingMode);
        self
    }

    /// Runs the benchmark `group/id`.
    pub fn bench_function<ID: IntoBenchmarkId, F>(&mut self, id: ID, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        let name = self.full_name(id.into_benchmark_id());
        session::bench(&name, &self.config, self.throughput.as_ref(), &mut f);
        self
    }

    /// Runs the benchmark `group/id` on `input`.
    pub fn bench_with_input<ID: IntoBenchmarkId, F, I>(
        &mut self,
        id: ID,
        input: &I,
        mut f: F,
    ) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let name = self.full_name(id.into_benchmark_id());
        session::bench(&name, &self.config, self.throughput.as_ref(), &mut |b| {
            f(b, input)
        });
        self
    }

    /// Ends the group (dropping it does the same).
    pub fn finish(self) {}

    /// `group/function/parameter`, the parts that are set.
    fn full_name(&self, id: BenchmarkId) -> String {
        let id = id.to_string();
        match (self.name.is_empty(), id.is_empty()) {
            (true, _) => id,
            (false, true) => self.name.clone(),
            (false, false) => format!("{}/{id}", self.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measurement::WallTime;

    #[test]
    fn names_are_formed_as_criterion_forms_them() {
        let g = BenchmarkGroup::<WallTime>::new(Config::default(), "parse".into());
        assert_eq!(g.full_name("small".into_benchmark_id()), "parse/small");
        assert_eq!(g.full_name(BenchmarkId::new("fx", 64)), "parse/fx/64");
        assert_eq!(
            g.full_name(BenchmarkId::from_parameter("1 KiB")),
            "parse/1 KiB"
        );
        assert_eq!(BenchmarkId::new("f", 1.5).to_string(), "f/1.5");
        assert_eq!(String::from("x").into_benchmark_id().to_string(), "x");
    }
}
