//! The report's `Display`: the plain-language summary, one section per method in the order
//! it prints them.

use std::fmt;

use super::Report;
use crate::display::{Level, Ns, Pct, Sig, SignedPct};
use crate::measure::cache::Cache;

impl fmt::Display for Report {
    /// A plain-language summary: medians, the difference both ways with its interval, the
    /// noise floor, the resampling, the verdict, the warnings and the confidences.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_medians(f)?;
        self.fmt_difference(f)?;
        self.fmt_method(f)?;
        self.fmt_verdict(f)?;
        self.fmt_resources(f)?;
        self.fmt_confidences(f)
    }
}

impl Report {
    /// An emulator's warning first, then each candidate's median.
    fn fmt_medians(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(w) = self.warnings.iter().find(|w| w.code() == "instrumented") {
            writeln!(f, "{w}.")?;
        }
        writeln!(
            f,
            "A ({}): {} per operation (median)",
            self.name_a,
            Ns(self.ns_per_op_a)
        )?;
        writeln!(
            f,
            "B ({}): {} per operation (median)",
            self.name_b,
            Ns(self.ns_per_op_b)
        )?;
        Ok(())
    }

    /// The difference in the one direction (A's time against B's, + = slower) with its
    /// interval, as a change and as a ratio, and what the interval covers.
    fn fmt_difference(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.estimate;
        let change = crate::stats::Change::of_delta(e.delta, e.low, e.high);
        let (ratio, low, high) = e.a_over_b();
        let size = Pct(change.change.abs());
        if change.change > 0.0 {
            write!(f, "A needs {size} more time than B")?;
        } else if change.change < 0.0 {
            write!(f, "A needs {size} less time than B")?;
        } else {
            write!(f, "A and B need the same time")?;
        }
        writeln!(f, ": A takes {} times as long as B.", Sig(ratio))?;
        writeln!(
            f,
            "With {} confidence A's change lies in [{}, {}] (A takes between {} and {} times \
             as long as B).",
            Level(e.level),
            SignedPct(change.low),
            SignedPct(change.high),
            Sig(low),
            Sig(high)
        )?;
        match &self.context.process {
            None => writeln!(
                f,
                "This interval covers the noise within this one process; another process (another \
                 memory layout, another placement of code) can land further away: pool several \
                 with rtcompare::pool before trusting the direction."
            )?,
            Some(p) => writeln!(f, "{p}.")?,
        }
        Ok(())
    }

    /// How the answer was reached: the noise floor, the resampling, the batches, the cache mode and the width target.
    fn fmt_method(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_noise_floor(f)?;
        self.fmt_resampling(f)?;
        self.fmt_cache_and_width(f)
    }

    /// The noise floor, and the worker pair's floor when one was measured.
    fn fmt_noise_floor(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.validated {
            writeln!(
                f,
                "Noise floor: {}. Identical code measured against itself on this setup can look \
                 that different, so smaller differences mean nothing.",
                Pct(self.noise_floor)
            )?;
        } else {
            writeln!(f, "Noise floor: unknown (A/A validation was skipped).")?;
        }
        if let Some(pair) = &self.context.worker_pair {
            let place = match pair.cpu {
                Some(cpu) if pair.cpus_allowed == 1 => {
                    format!("on CPU {cpu}, the only one allowed (beside the parent)")
                }
                Some(cpu) => format!("on CPU {cpu}"),
                None => "where the system placed them".to_string(),
            };
            writeln!(
                f,
                "Worker pair: two workers of each build {place}, {} rounds of four batches in \
                 random order; its floor is the larger of its two A/A differences ({} and {}), \
                 the same batches regrouped so that each side holds one worker of each build.",
                pair.rounds,
                Pct(pair.null_deltas[0]),
                Pct(pair.null_deltas[1])
            )?;
        }
        Ok(())
    }

    /// How the pairs were resampled (single pairs or blocks), and the batches they came from.
    fn fmt_resampling(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.diagnostics.block_length > 1 {
            writeln!(
                f,
                "Neighbouring pairs are correlated (lag-1 autocorrelation of their time ratios \
                 {:+.2}), so they were resampled in blocks of {}.",
                self.diagnostics.autocorrelation_ratio, self.diagnostics.block_length
            )?;
        } else {
            writeln!(
                f,
                "Neighbouring pairs are nearly independent (lag-1 autocorrelation of their \
                 time ratios {:+.2}), so single pairs were resampled.",
                self.diagnostics.autocorrelation_ratio
            )?;
        }
        writeln!(
            f,
            "{} paired samples of {} operation{} per batch; one clock step is {} of the faster \
             batch.",
            self.samples_a.len(),
            self.timing.inner_loops,
            if self.timing.inner_loops == 1 {
                ""
            } else {
                "s"
            },
            Pct(self.timing.quantization)
        )?;
        Ok(())
    }

    /// The cache mode, and whether the interval met its width target.
    fn fmt_cache_and_width(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.cache, &self.run.cache_info) {
            (Cache::Cold, Some(info)) => writeln!(
                f,
                "Cache: cold (caches evicted before every batch, outside the timing: {info}; {} \
                 evictions). This measures code whose data are in memory but in no cache, not \
                 code running in a loop.",
                info.evictions
            )?,
            (Cache::Cold, None) => writeln!(f, "Cache: cold (caches evicted before every batch).")?,
            (Cache::Warm, _) => writeln!(
                f,
                "Cache: warm (no eviction: each batch found the caches as the previous one left \
                 them). This measures code running in a loop, not its first run."
            )?,
        }
        match (self.run.width_target_met, &self.run.options.width_target) {
            (Some(true), Some(t)) => writeln!(
                f,
                "The interval met its width target (±{}) after {} pairs.",
                Pct(t.max_half_width),
                self.samples_a.len()
            )?,
            (Some(false), Some(t)) => writeln!(
                f,
                "The interval did NOT meet its width target (±{}) within {} pairs.",
                Pct(t.max_half_width),
                self.samples_a.len()
            )?,
            _ => {}
        }
        Ok(())
    }

    /// The verdict and the warnings.
    fn fmt_verdict(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        // The short answer in the words every front end prints: A's change in time against
        // B, + = slower.
        let e = &self.estimate;
        let change = crate::stats::Change::of_delta(e.delta, e.low, e.high);
        writeln!(f, "A against B: {}.", self.verdict.in_words_with(change))?;
        writeln!(f, "Verdict: {}.", self.verdict)?;
        if !self.warnings.is_empty() {
            writeln!(f)?;
            writeln!(f, "Warnings:")?;
            for w in &self.warnings {
                writeln!(f, "  - {w} [{}]", w.code())?;
            }
        }
        Ok(())
    }

    /// Hardware counters, allocations and the live heap, when they were measured.
    fn fmt_resources(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = &self.resources.counters {
            writeln!(f)?;
            writeln!(f, "{c}")?;
        }
        if self.resources.allocations.is_some() || self.resources.live_heap.is_some() {
            writeln!(f)?;
        }
        if let Some(a) = &self.resources.allocations {
            writeln!(f, "{a}")?;
        }
        if let Some(h) = &self.resources.live_heap {
            writeln!(f, "{h}")?;
        }
        Ok(())
    }

    /// The confidence that A clears each threshold, when thresholds were asked for.
    fn fmt_confidences(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(cs) = &self.confidences {
            writeln!(f)?;
            for c in cs.iter() {
                if c.threshold >= 0.0 {
                    writeln!(
                        f,
                        "Confidence that A needs at least {} less time than B: {:.1} %",
                        Pct(c.threshold),
                        100.0 * c.confidence
                    )?;
                } else {
                    writeln!(
                        f,
                        "Confidence that A needs at most {} more time than B: {:.1} %",
                        Pct(-c.threshold),
                        100.0 * c.confidence
                    )?;
                }
            }
        }
        Ok(())
    }
}
