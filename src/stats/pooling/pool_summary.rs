//! The pooled result's `Display`: the plain-language summary, one section per method in the
//! order it prints them.

use std::fmt;

use super::pool::{HIGH_I2, Pooled};
use super::pool_plan::PlanEnd;
use crate::display::{Level, Pct, Share, SignedPct};
use crate::stats::{Change, Unresolved, Verdict};

/// The first line of a pooled summary, over processes or machines, in the one direction (A's
/// time against B's, + = slower): `Pooled over 5 processes: A's change 16.5 % faster [−16.9 %,
/// −16.1 %] (99 % t interval).`
pub(super) fn pooled_line(
    count: usize,
    what: &str,
    (delta, low, high, level): (f64, f64, f64, f64),
    method: &str,
) -> String {
    format!(
        "Pooled over {count} {what}: A's change {} ({} {method}).",
        Change::of_delta(delta, low, high),
        Level(level)
    )
}

impl fmt::Display for Pooled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_estimate(f)?;
        self.fmt_processes(f)?;
        self.fmt_plan(f)?;
        self.fmt_verdict(f)
    }
}

impl Pooled {
    /// The pooled difference with its interval, or its modes when the processes fall into several.
    fn fmt_estimate(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = if self.first_stage > 0 {
            format!(
                "Stein two-stage interval, first stage {} processes",
                self.first_stage
            )
        } else {
            "t interval".to_string()
        };
        if self.modes.is_empty() {
            let interval = (self.delta, self.low, self.high, self.level);
            writeln!(
                f,
                "{}",
                pooled_line(self.processes, "processes", interval, &rule)
            )?;
        } else {
            writeln!(
                f,
                "Pooled over {} processes, which fall into {} modes; their mean (A's change \
                 {}, {} {rule}) is not a typical difference:",
                self.processes,
                self.modes.len(),
                Change::of_delta(self.delta, self.low, self.high),
                Level(self.level)
            )?;
            for m in &self.modes {
                writeln!(
                    f,
                    "  {:.0} % of the processes: A's change around {} (from {} to {})",
                    100.0 * m.share,
                    SignedPct(-m.centre),
                    SignedPct(-m.high),
                    SignedPct(-m.low)
                )?;
            }
        }
        Ok(())
    }

    /// How the processes scatter, their floor, their deltas, their drift and their failures.
    fn fmt_processes(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Processes scatter {:.1} times as widely as one process's own interval says \
             (between {}, within {}); I² = {}{}.",
            self.inflation,
            Pct(self.spread_between),
            Pct(self.spread_within),
            Share(self.i2),
            if self.i2 > HIGH_I2 {
                " (most of the variation is between processes, which the pooled interval \
                 accounts for)"
            } else {
                ""
            }
        )?;
        if self.validated {
            writeln!(
                f,
                "Noise floor across processes: {} (harness bias {}).",
                Pct(self.noise_floor),
                SignedPct(-self.bias)
            )?;
        } else {
            writeln!(f, "Noise floor: unknown (not every process was validated).")?;
        }
        f.write_str("A's change in each process (+ = slower):")?;
        for d in &self.deltas {
            write!(f, " {}", SignedPct(-d))?;
        }
        writeln!(f)?;
        if let Some(d) = self.drift.as_ref().filter(|d| d.n > 0) {
            // The test ran on δ = 1 − A/B; said here in A's change, so ρ and the halves flip.
            writeln!(
                f,
                "Over the process index: Spearman ρ = {:+.3} for A's change, p = {}; around {} \
                 in the first half, {} in the second.",
                -d.spearman,
                crate::stats::series::drift::format_p(d.p_value),
                SignedPct(-d.first_half),
                SignedPct(-d.second_half)
            )?;
        }
        if self.failed_processes > 0 {
            writeln!(
                f,
                "{} of {} processes started failed ({} by timeout or deadline) and are not \
                 pooled.",
                self.failed_processes,
                self.processes + self.failed_processes,
                self.timed_out_processes
            )?;
        }
        Ok(())
    }

    /// How the plan ended: the target met, out of reach, or the cap.
    fn fmt_plan(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(d) = &self.decision {
            writeln!(f, "{d}.")?;
        }
        match (self.plan_end, self.target_met) {
            (Some(PlanEnd::Met), _) | (None, Some(true)) => writeln!(
                f,
                "The precision target was met with {} processes (the plan asked for {}).",
                self.processes, self.planned_processes
            )?,
            (Some(end), _) => writeln!(
                f,
                "{}{} (the plan asked for {} processes; {} ran).",
                end.to_string()[..1].to_uppercase(),
                &end.to_string()[1..],
                self.planned_processes,
                self.processes
            )?,
            (None, Some(false)) => writeln!(
                f,
                "The precision target was NOT met: the plan asked for {} processes and {} \
                 ran.",
                self.planned_processes, self.processes
            )?,
            (None, None) => {}
        }
        Ok(())
    }

    /// The verdict, in words that say what would narrow an undecided pool, and the warnings.
    fn fmt_verdict(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The short answer in the words every front end prints: A's change in time against
        // B, + = slower.
        let change = Change::of_delta(self.delta, self.low, self.high);
        writeln!(f, "A against B: {}.", self.verdict.in_words_with(change))?;
        match self.verdict {
            // The generic advice (more samples) does not help when the width is the
            // processes' scatter: only more processes narrow it.
            Verdict::CannotTell(Unresolved::IntervalContainsZero { low, high })
                if self.i2 >= HIGH_I2 =>
            {
                writeln!(
                    f,
                    "Verdict: CANNOT TELL. The interval of A's change [{}, {}] contains zero, \
                     so these {} processes do not separate A from B; most of its width is the \
                     processes' scatter (I² = {:.2}), so more processes would narrow it, and \
                     more samples in each would not.",
                    SignedPct(-high),
                    SignedPct(-low),
                    self.processes,
                    self.i2
                )?;
            }
            _ => writeln!(f, "Verdict: {}.", self.verdict)?,
        }
        if !self.warnings.is_empty() {
            writeln!(f, "Warnings:")?;
            for w in &self.warnings {
                writeln!(f, "  - {w} [{}]", w.code())?;
            }
        }
        Ok(())
    }
}
