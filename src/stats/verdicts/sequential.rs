//! A sequential three-way decision over process-level (or pair-level) deltas: look after each
//! stage, stop as soon as the interval decides, keep the error rates under that stopping.
//!
//! The rule is a group-sequential design with an alpha-spending function (Lan and DeMets) over
//! a planned maximum of `max_n` deltas, made valid by the union bound rather than by the
//! joint distribution of the looks: look j, at n_j deltas, builds a Student-t interval at level
//! 1 − α_j, where α_j = f(n_j/max_n) − f(n_{j−1}/max_n) is the share of α the spending
//! function f releases between the two looks. The α_j sum to at most α whatever the looks'
//! timing, so the chance that *any* look's interval misses the true mean delta is at most α:
//! every interval of the sequence holds at once, and any decision read from any of them —
//! stopping at the first that decides — keeps its error rate at most α. That needs neither a
//! known variance (each look's t interval is exact for normal deltas at its own level) nor
//! looks fixed in advance; it costs some width against an exact boundary computation, which
//! the simulations in docs/background.md ("Sequential decisions") measure.
//!
//! Every look applies the one rule of [`decide`](super::decision::decide) through the judge,
//! against the bar max(m, floor) for a margin m and an A/A floor the caller names:
//! - **faster / slower**: the interval lies wholly beyond the bar on one side, and a sign
//!   test at the look's share of α agrees: enough deltas lie beyond the margin on that side
//!   (with deltas that fall into modes, as code layouts make them, the t interval alone
//!   overclaims at five deltas; no claim is made before ten at the default level);
//! - **equivalent within ±m**: the interval lies inside (−m, m) and the floor is below m;
//! - **undecided**: neither (an interval that excludes zero but reaches across the bar is a
//!   real difference not yet sized); at the last look that is "cannot tell", with the largest
//!   difference the interval still allows, so a user knows what "cannot tell" ruled out.
//!
//! A false verdict (an interval that excludes zero when nothing changed) and a false
//! equivalence (an interval inside ±m when the change is beyond m) each need an interval that
//! misses the true mean, so both rates are at most α.

use serde::{Deserialize, Serialize};

use super::check;
use super::dist::{sign_test_tail, student_t_quantile};
use super::judge::{Bar, Bounds, Claim, Judgement, Scale, judge};
use crate::display::{Pct, SignedPct};
use crate::error::{Error, Result};

/// The shape of the alpha-spending function: how much of α the early looks may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Spending {
    /// Lan–DeMets' Pocock-like function, f(t) = α·ln(1 + (e − 1)t): α spread evenly over
    /// the looks, so early looks decide more often and the last one is wider. The default:
    /// in the simulations of docs/background.md ("Sequential decisions") it took about half the
    /// deltas for the same error rates, and decided a 10 % change at the first look.
    #[default]
    Pocock,
    /// Lan–DeMets' O'Brien–Fleming-like function, f(t) = 2 − 2Φ(z₁₋α/₂ / √t): almost nothing
    /// early, nearly all of α at the last look, so the final interval is hardly wider than a
    /// fixed-size one. Early looks decide only large effects.
    OBrienFleming,
}

/// The cumulative share of `alpha` that `spending` has released at information fraction `t`
/// (the deltas so far over the planned maximum, clamped to [0, 1]): 0 at t = 0, `alpha` at
/// t = 1, increasing in between.
///
/// Returns [`Error::OutOfRange`] for an `alpha` outside (0, 1) or a NaN `t`.
pub fn spent(spending: Spending, alpha: f64, t: f64) -> Result<f64> {
    check::open_unit("alpha", alpha)?;
    if t.is_nan() {
        return Err(Error::out_of_range(
            "information fraction",
            t,
            "0 <= t <= 1",
        ));
    }
    let t = t.clamp(0.0, 1.0);
    if t == 0.0 {
        return Ok(0.0);
    }
    if t == 1.0 {
        // Exactly α, whatever the rounding of the quantile and the distribution function.
        return Ok(alpha);
    }
    Ok(match spending {
        Spending::OBrienFleming => {
            let z = super::dist::normal_quantile(1.0 - alpha / 2.0)?;
            (2.0 - 2.0 * super::dist::normal_cdf(z / t.sqrt())?).min(alpha)
        }
        Spending::Pocock => alpha * (1.0 + (std::f64::consts::E - 1.0) * t).ln(),
    })
}

/// The plan of a sequential decision: its level, its margin, the most deltas it may take and
/// how it spends α over them. A builder whose methods consume and return `Self`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SequentialOptions {
    /// Confidence that every look's interval holds at once (default 0.95): false verdicts and
    /// false equivalences each at most 1 − level.
    pub level: f64,
    /// The margin m, a relative difference (fraction, default 0.02): within ±m is
    /// "equivalent", beyond it "faster" or "slower".
    pub margin: f64,
    /// What identical code differs by on this setup, the A/A noise floor (fraction, default
    /// 0): a claim must clear it too, and no equivalence is shown while it is at least the
    /// margin. Callers that measure a floor as they go set it before each look.
    pub floor: f64,
    /// The most deltas (processes, pairs) the decision may take (default 30); the last look is
    /// the one at this many. Looks beyond it spend nothing more.
    pub max_n: usize,
    /// How α is spent over the looks (default [`Spending::Pocock`]).
    pub spending: Spending,
}

impl Default for SequentialOptions {
    fn default() -> Self {
        SequentialOptions {
            level: 0.95,
            margin: 0.02,
            floor: 0.0,
            max_n: 30,
            spending: Spending::default(),
        }
    }
}

impl SequentialOptions {
    /// Sets [`level`](Self::level).
    pub fn level(mut self, level: f64) -> Self {
        self.level = level;
        self
    }
    /// Sets [`margin`](Self::margin).
    pub fn margin(mut self, margin: f64) -> Self {
        self.margin = margin;
        self
    }
    /// Sets [`floor`](Self::floor).
    pub fn floor(mut self, floor: f64) -> Self {
        self.floor = floor;
        self
    }
    /// Sets [`max_n`](Self::max_n).
    pub fn max_n(mut self, n: usize) -> Self {
        self.max_n = n;
        self
    }
    /// Sets [`spending`](Self::spending).
    pub fn spending(mut self, s: Spending) -> Self {
        self.spending = s;
        self
    }

    fn check(&self) -> Result<()> {
        check::open_unit("level", self.level)?;
        if !(self.margin.is_finite() && self.margin >= 0.0) {
            return Err(Error::out_of_range(
                "margin",
                self.margin,
                "a finite margin >= 0",
            ));
        }
        if self.floor.is_nan() || self.floor < 0.0 {
            return Err(Error::out_of_range(
                "floor",
                self.floor,
                "a noise floor >= 0 (infinite: no claim can clear it)",
            ));
        }
        if self.max_n < 2 {
            return Err(Error::invalid_option(
                "max_n",
                format!("a t interval needs at least 2 deltas; got {}", self.max_n),
            ));
        }
        Ok(())
    }
}

/// What one look decided.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[non_exhaustive]
pub enum SequentialOutcome {
    /// The interval lies above the bar: the first side (δ > 0) needs less time, by more than
    /// the margin and the floor.
    Faster,
    /// The interval lies below minus the bar: the first side needs more time.
    Slower,
    /// The interval lies inside (−m, m), with the floor below m: no change beyond the margin.
    Equivalent,
    /// Neither: look again, or, at the last look, cannot tell.
    Undecided,
}

impl SequentialOutcome {
    /// Whether the look decided (anything but [`Undecided`](Self::Undecided)).
    pub fn decided(&self) -> bool {
        !matches!(self, SequentialOutcome::Undecided)
    }
}

/// One look of a sequential decision.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SequentialLook {
    /// Deltas the look saw.
    pub n: usize,
    /// The share of α this look spent (α_j).
    pub alpha: f64,
    /// Mean delta (fraction).
    pub mean: f64,
    /// The interval at level 1 − α_j: lower end (fraction).
    pub low: f64,
    /// Upper end (fraction).
    pub high: f64,
    /// What it decided.
    pub outcome: SequentialOutcome,
    /// The largest difference the interval still allows (fraction, max(|low|, |high|)): a
    /// "cannot tell" rules out any change beyond it.
    pub rules_out_beyond: f64,
    /// Whether this is the last look the plan allows (n ≥ `max_n`): undecided here is final.
    pub last: bool,
    /// Deltas beyond the margin on the side the interval leans to: a claim also needs the
    /// sign test on them to pass at the look's share of α (0 in decisions recorded before the
    /// sign test, and in looks at an interval of the caller's, which run no sign test).
    #[serde(default)]
    pub agreeing: usize,
}

/// Looks at `deltas` (every delta so far, in the order measured) after a previous look at
/// `previous_n` of them (0 for the first look), under `o`. Returns the interval at this look's
/// share of α and the outcome it supports. [`Sequential::look_at_deltas`] is the same look
/// kept in a running decision.
///
/// Returns [`Error::OutOfRange`] for a level outside (0, 1), a negative or non-finite margin,
/// or a NaN or infinite delta; [`Error::InvalidOption`] for a `max_n` below 2, fewer than two
/// deltas, or a `previous_n` not below the deltas' count.
pub fn sequential_look(
    deltas: &[f64],
    previous_n: usize,
    o: &SequentialOptions,
) -> Result<SequentialLook> {
    o.check()?;
    let n = deltas.len();
    if n < 2 || previous_n >= n {
        return Err(Error::invalid_option(
            "deltas",
            format!(
                "a look needs at least 2 deltas and more than the last look's {previous_n}; got {n}"
            ),
        ));
    }
    check::finite("delta", deltas)?;
    let share = share_of(o, previous_n, n)?;
    let mean = deltas.iter().sum::<f64>() / n as f64;
    let var = deltas.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    let (low, high) = if share <= 0.0 {
        // Nothing to spend (a look after the plan's end): an interval that decides nothing.
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let t = student_t_quantile(1.0 - share / 2.0, (n - 1) as f64)?;
        (mean - t * se, mean + t * se)
    };
    // The deltas beyond the margin on the side the interval leans to.
    let bounds = Bounds::of_interval(low, high, Scale::Speedup)?;
    let m = o.margin;
    let agreeing = match bounds.faster_by > bounds.slower_by {
        true => deltas.iter().filter(|&&d| d > m).count(),
        false => deltas.iter().filter(|&&d| d < -m).count(),
    };
    // A claim also needs the sign test at the look's share of α: so many deltas beyond the
    // margin on its side that a median within it would put them there with probability at
    // most share/2. Code layouts make pair differences two-moded; five pairs drawn from
    // modes at ±1 % all land in one mode one time in sixteen, and the t interval of five
    // such pairs then excludes zero: 8 % false claims where 5 % was promised (the seeded
    // simulation in the tests). The sign test holds its level whatever the pairs' shape.
    let signs_agree = sign_test_tail(n, agreeing) <= share / 2.0;
    let interval = LookInterval {
        n,
        share,
        mean,
        low,
        high,
    };
    let mut look = judge_look(o, interval, signs_agree)?;
    look.agreeing = agreeing;
    Ok(look)
}

/// The share of α a look at `n` deltas spends after one at `previous_n` under `o`: what the
/// spending function releases between the two, and at the last look (n ≥ `max_n`) all that is
/// left.
fn share_of(o: &SequentialOptions, previous_n: usize, n: usize) -> Result<f64> {
    let alpha = 1.0 - o.level;
    let frac = |k: usize| (k as f64 / o.max_n as f64).min(1.0);
    Ok(if n >= o.max_n {
        alpha - spent(o.spending, alpha, frac(previous_n))?
    } else {
        spent(o.spending, alpha, frac(n))? - spent(o.spending, alpha, frac(previous_n))?
    })
}

/// One look's interval on δ (δ > 0: the candidate needs less time), at level 1 − `share`.
#[derive(Debug, Clone, Copy)]
struct LookInterval {
    n: usize,
    share: f64,
    mean: f64,
    low: f64,
    high: f64,
}

/// The one rule on a look's interval: the judge against max(margin, floor), with equivalence
/// asked about; a claim stands only where `claims_allowed` (the sign test, for the looks that
/// run it).
fn judge_look(
    o: &SequentialOptions,
    i: LookInterval,
    claims_allowed: bool,
) -> Result<SequentialLook> {
    let bounds = Bounds::of_interval(i.low, i.high, Scale::Speedup)?;
    let bar = Bar::threshold(o.margin).with_floor(o.floor);
    let outcome = match judge(bounds, bar, true) {
        Judgement::Clears {
            claim: Claim::Faster,
            ..
        } if claims_allowed => SequentialOutcome::Faster,
        Judgement::Clears {
            claim: Claim::Slower,
            ..
        } if claims_allowed => SequentialOutcome::Slower,
        Judgement::Equivalent => SequentialOutcome::Equivalent,
        _ => SequentialOutcome::Undecided,
    };
    Ok(SequentialLook {
        n: i.n,
        alpha: i.share.max(0.0),
        mean: i.mean,
        low: i.low,
        high: i.high,
        outcome,
        rules_out_beyond: i.low.abs().max(i.high.abs()),
        last: i.n >= o.max_n,
        agreeing: 0,
    })
}

/// A sequential decision as it runs: the plan, the looks so far and, once it has stopped, why.
/// The one driver of every front end that decides as it measures (`pool::run` in decide mode,
/// the bench engine's benchmarks, `rtcompare cmd`'s comparisons): the caller measures, says
/// when to look, and hands over either its deltas ([`look_at_deltas`](Self::look_at_deltas),
/// a Student t interval with the sign test) or an interval of its own at the look's level
/// ([`share`](Self::share), then [`look_at_interval`](Self::look_at_interval)); the driver
/// spends α, applies the one rule, and records where the decision ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequential {
    plan: SequentialOptions,
    looks: Vec<SequentialLook>,
    end: Option<DecisionEnd>,
}

impl Sequential {
    /// A decision under `plan`, before any look.
    ///
    /// Returns the errors of a bad plan: [`Error::OutOfRange`] for a level outside (0, 1), a
    /// negative or non-finite margin or a negative or NaN floor; [`Error::InvalidOption`] for
    /// a `max_n` below 2.
    pub fn new(plan: SequentialOptions) -> Result<Sequential> {
        plan.check()?;
        Ok(Sequential {
            plan,
            looks: Vec::new(),
            end: None,
        })
    }

    /// The plan (its floor as the last look set it).
    pub fn plan(&self) -> &SequentialOptions {
        &self.plan
    }

    /// The looks so far, in order.
    pub fn looks(&self) -> &[SequentialLook] {
        &self.looks
    }

    /// Deltas (pairs, processes, rounds) the last look saw; 0 before the first.
    pub fn seen(&self) -> usize {
        self.looks.last().map_or(0, |l| l.n)
    }

    /// Why the decision stopped, once it has: a look decided, the last planned look did not,
    /// or the caller stopped it ([`stop`](Self::stop)).
    pub fn end(&self) -> Option<DecisionEnd> {
        self.end
    }

    /// Whether it may look again.
    pub fn is_open(&self) -> bool {
        self.end.is_none()
    }

    /// Where the next look comes when looks come every `step` deltas: `step` past the last
    /// look, and never past the plan's `max_n`.
    pub fn next_look(&self, step: usize) -> usize {
        (self.seen() + step).min(self.plan.max_n)
    }

    /// The share of α a look at `n` deltas spends now: its interval's level is 1 − share.
    /// At or past `max_n` it is everything left; 0 when nothing is left.
    ///
    /// Returns [`Error::InvalidOption`] for an `n` not above the last look's.
    pub fn share(&self, n: usize) -> Result<f64> {
        self.check_n(n)?;
        share_of(&self.plan, self.seen(), n)
    }

    /// Looks at `deltas` (every delta so far, in the order measured) with the A/A `floor` the
    /// claims must also clear: a Student t interval at the look's share of α, and a claim
    /// only where the sign test agrees ([`sequential_look`]). The decision ends when the look
    /// decides or is the last one.
    ///
    /// Returns the errors of [`sequential_look`] and [`Error::InvalidOption`] for a stopped
    /// decision or a bad floor; a failed look leaves the decision as it was.
    pub fn look_at_deltas(&mut self, deltas: &[f64], floor: f64) -> Result<&SequentialLook> {
        self.check_open()?;
        let plan = self.plan.floor(floor);
        plan.check()?;
        let look = sequential_look(deltas, self.seen(), &plan)?;
        self.plan = plan;
        Ok(self.record(look))
    }

    /// Looks at the caller's own interval `[low, high]` around `mean` on δ (fractions; δ > 0:
    /// the candidate needs less time) after `n` deltas, at level 1 − [`share(n)`](Self::share),
    /// with the A/A `floor` the claims must also clear. No sign test: it guards a t interval
    /// over a few deltas against the modes code layouts make, which an interval over many
    /// rounds (a bootstrap's) does not need. The decision ends when the look decides or is
    /// the last one.
    ///
    /// Returns [`Error::InvalidOption`] for a stopped decision or an `n` not above the last
    /// look's, [`Error::OutOfRange`] for a NaN bound, bounds out of order or a bad floor.
    pub fn look_at_interval(
        &mut self,
        n: usize,
        floor: f64,
        (mean, low, high): (f64, f64, f64),
    ) -> Result<&SequentialLook> {
        self.check_open()?;
        let share = self.share(n)?;
        let plan = self.plan.floor(floor);
        plan.check()?;
        let interval = LookInterval {
            n,
            share,
            mean,
            low,
            high,
        };
        let look = judge_look(&plan, interval, true)?;
        self.plan = plan;
        Ok(self.record(look))
    }

    /// Stops an open decision for `end` (the time budget, failures, an interruption); a
    /// stopped one keeps its end.
    pub fn stop(&mut self, end: DecisionEnd) {
        self.end.get_or_insert(end);
    }

    /// The decision as made; one still open ends `otherwise`. `None` without a look.
    pub fn finish(self, otherwise: DecisionEnd) -> Option<SequentialDecision> {
        let end = self.end.unwrap_or(otherwise);
        (!self.looks.is_empty()).then(|| SequentialDecision::new(&self.plan, self.looks, end))
    }

    fn record(&mut self, look: SequentialLook) -> &SequentialLook {
        if look.outcome.decided() {
            self.end = Some(DecisionEnd::Decided);
        } else if look.last {
            self.end = Some(DecisionEnd::LastLook);
        }
        self.looks.push(look);
        self.looks.last().expect("a look was just pushed")
    }

    fn check_open(&self) -> Result<()> {
        match self.end {
            None => Ok(()),
            Some(end) => Err(Error::invalid_option(
                "look",
                format!("the decision has stopped ({end:?}); it takes no more looks"),
            )),
        }
    }

    fn check_n(&self, n: usize) -> Result<()> {
        if n <= self.seen() || n < 2 {
            return Err(Error::invalid_option(
                "n",
                format!(
                    "a look needs at least 2 deltas and more than the last look's {}; got {n}",
                    self.seen()
                ),
            ));
        }
        Ok(())
    }
}

/// Why a sequential decision stopped looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DecisionEnd {
    /// A look decided (faster, slower or equivalent).
    Decided,
    /// The last planned look (`max_n` deltas) did not decide: cannot tell.
    LastLook,
    /// The time budget ran out before the last planned look.
    TimeBudget,
    /// Failed processes used up the cap on processes started before the last planned look.
    Failures,
    /// The run was stopped (cancelled, or another benchmark's layout could not be made)
    /// before this decision's next look.
    Interrupted,
    /// A look decided, but the pooled verdict on the same interval refused it: a veto that
    /// looks at more than the interval (processes resolving in opposite directions, a drift
    /// over the process index, failed processes, a floor measured across them).
    Refused,
}

/// A sequential decision as a run made it: every look, why it stopped, and the outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SequentialDecision {
    /// The margin it judged against (fraction).
    pub margin: f64,
    /// The spending function.
    pub spending: Spending,
    /// The most deltas it planned for.
    pub max_n: usize,
    /// Every look, in order; the last one is the deciding (or final) one.
    pub looks: Vec<SequentialLook>,
    /// Why it stopped.
    pub end: DecisionEnd,
}

impl SequentialDecision {
    /// A decision over `looks` (at least one) under `o`.
    pub fn new(o: &SequentialOptions, looks: Vec<SequentialLook>, end: DecisionEnd) -> Self {
        SequentialDecision {
            margin: o.margin,
            spending: o.spending,
            max_n: o.max_n,
            looks,
            end,
        }
    }

    /// This decision, its end made to agree with the final `verdict`: a look that decided
    /// ([`DecisionEnd::Decided`]) under a verdict that did not settle the question, or that
    /// settled it another way, ends [`DecisionEnd::Refused`], so that no decision says
    /// "decided" beside a "cannot tell".
    pub fn ending_in(mut self, verdict: &crate::stats::Verdict) -> Self {
        use crate::stats::Verdict;
        let agrees = matches!(
            (self.outcome(), verdict),
            (SequentialOutcome::Faster, Verdict::AFaster)
                | (SequentialOutcome::Slower, Verdict::BFaster)
                | (SequentialOutcome::Equivalent, Verdict::Equivalent { .. })
        );
        if self.end == DecisionEnd::Decided && !agrees {
            self.end = DecisionEnd::Refused;
        }
        self
    }

    /// The last look's outcome ([`SequentialOutcome::Undecided`] without looks).
    pub fn outcome(&self) -> SequentialOutcome {
        self.looks
            .last()
            .map_or(SequentialOutcome::Undecided, |l| l.outcome)
    }
}

impl std::fmt::Display for SequentialDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some(last) = self.looks.last() else {
            return f.write_str("no look was made");
        };
        write!(
            f,
            "Sequential decision against a margin of ±{}: {} look{} (at most {} processes), ",
            Pct(self.margin),
            self.looks.len(),
            if self.looks.len() == 1 { "" } else { "s" },
            self.max_n
        )?;
        let why = match self.end {
            DecisionEnd::Decided => "stopped because it decided",
            DecisionEnd::LastLook => "stopped at the last planned look",
            DecisionEnd::TimeBudget => "stopped when the time budget ran out",
            DecisionEnd::Failures => "stopped when failed processes used up the cap",
            DecisionEnd::Interrupted => "stopped when the run was interrupted",
            DecisionEnd::Refused => {
                "stopped at a look that decided, which the pooled verdict refused"
            }
        };
        write!(
            f,
            "{why}; the last, at {} processes, spent α = {:.4}: A's change [{}, {}], ",
            last.n,
            last.alpha,
            SignedPct(-last.high),
            SignedPct(-last.low)
        )?;
        match last.outcome {
            SequentialOutcome::Faster => f.write_str("A faster by more than the margin"),
            SequentialOutcome::Slower => f.write_str("A slower by more than the margin"),
            SequentialOutcome::Equivalent => f.write_str("equivalent within the margin"),
            SequentialOutcome::Undecided => write!(
                f,
                "cannot tell: it rules out changes beyond {}",
                Pct(last.rules_out_beyond)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn spending_releases_alpha_from_zero_to_all() {
        for s in [Spending::OBrienFleming, Spending::Pocock] {
            assert_eq!(spent(s, 0.05, 0.0).unwrap(), 0.0);
            assert!((spent(s, 0.05, 1.0).unwrap() - 0.05).abs() < 1e-12, "{s:?}");
            let mut last = 0.0;
            for k in 1..=10 {
                let a = spent(s, 0.05, k as f64 / 10.0).unwrap();
                assert!(a > last, "{s:?} at {k}");
                last = a;
            }
        }
        // O'Brien–Fleming-like keeps early looks strict: at a fifth of the information it
        // has spent about 0.00001 of 0.05 (2 − 2Φ(1.959964/√0.2) = 2 − 2Φ(4.3826) = 1.17e-5);
        // scipy: 2 - 2*scipy.stats.norm.cdf(scipy.stats.norm.ppf(0.975)/0.2**0.5)
        let early = spent(Spending::OBrienFleming, 0.05, 0.2).unwrap();
        assert!((early - 1.1727e-5).abs() < 1e-8, "{early}");
        // Pocock-like: 0.05·ln(1 + (e − 1)·0.2) = 0.015665.
        let early = spent(Spending::Pocock, 0.05, 0.2).unwrap();
        assert!((early - 0.05 * (1.0 + (std::f64::consts::E - 1.0) * 0.2).ln()).abs() < 1e-15);
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let o = SequentialOptions::default();
        assert!(sequential_look(&[0.1], 0, &o).is_err());
        assert!(sequential_look(&[0.1, 0.2], 2, &o).is_err());
        assert!(sequential_look(&[0.1, f64::NAN], 0, &o).is_err());
        assert!(sequential_look(&[0.1, 0.2], 0, &o.margin(-0.1)).is_err());
        assert!(sequential_look(&[0.1, 0.2], 0, &o.level(1.0)).is_err());
        assert!(sequential_look(&[0.1, 0.2], 0, &o.max_n(1)).is_err());
        assert!(sequential_look(&[0.1, 0.2], 0, &o.floor(f64::NAN)).is_err());
    }

    #[test]
    fn the_driver_looks_as_the_function_does_and_ends_where_it_should() {
        let o = SequentialOptions::default().max_n(10);
        let mut rng = Rng::new(11);
        let deltas: Vec<f64> = (0..10).map(|_| 0.03 + 0.02 * rng.next_normal()).collect();
        let mut d = Sequential::new(o).unwrap();
        assert_eq!(d.next_look(5), 5);
        let first = *d.look_at_deltas(&deltas[..5], 0.0).unwrap();
        assert_eq!(first, sequential_look(&deltas[..5], 0, &o).unwrap());
        assert_eq!(d.seen(), 5);
        if d.is_open() {
            let second = *d.look_at_deltas(&deltas, 0.0).unwrap();
            assert_eq!(second, sequential_look(&deltas, 5, &o).unwrap());
            assert!(second.last);
        }
        // Decided or at the last look: either way it has stopped, and takes no more looks.
        assert!(!d.is_open());
        assert!(d.look_at_deltas(&deltas, 0.0).is_err());
        let decision = d.clone().finish(DecisionEnd::TimeBudget).unwrap();
        assert_ne!(decision.end, DecisionEnd::TimeBudget);

        // An interval of the caller's: judged by the same rule at the share the plan releases.
        let mut d = Sequential::new(o).unwrap();
        let share = d.share(5).unwrap();
        assert!((share - (spent(o.spending, 0.05, 0.5).unwrap())).abs() < 1e-15);
        let look = *d.look_at_interval(5, 0.0, (0.01, 0.005, 0.015)).unwrap();
        assert_eq!(look.outcome, SequentialOutcome::Equivalent);
        assert_eq!(d.end(), Some(DecisionEnd::Decided));
        let mut d = Sequential::new(o).unwrap();
        let look = *d.look_at_interval(5, 0.0, (-0.05, -0.06, -0.04)).unwrap();
        assert_eq!(look.outcome, SequentialOutcome::Slower);
        // Straddling the margin: undecided, and the caller may stop it.
        let mut d = Sequential::new(o).unwrap();
        d.look_at_interval(5, 0.0, (0.02, 0.01, 0.03)).unwrap();
        assert!(d.is_open());
        d.stop(DecisionEnd::TimeBudget);
        d.stop(DecisionEnd::Interrupted);
        assert_eq!(d.end(), Some(DecisionEnd::TimeBudget));
        // Bad input: a look not past the last one, bounds out of order, a NaN floor.
        let mut d = Sequential::new(o).unwrap();
        assert!(d.share(0).is_err());
        assert!(d.look_at_interval(5, 0.0, (0.0, 0.01, -0.01)).is_err());
        assert!(d.look_at_interval(5, f64::NAN, (0.0, -0.01, 0.01)).is_err());
        assert!(d.looks().is_empty());
        assert!(d.finish(DecisionEnd::Interrupted).is_none());
        assert!(Sequential::new(o.max_n(1)).is_err());
    }

    #[test]
    fn the_three_outcomes() {
        let o = SequentialOptions::default().max_n(10);
        let around =
            |c: f64| -> Vec<f64> { (0..10).map(|i| c + 0.001 * (i as f64 - 4.5)).collect() };
        let look = |c: f64| sequential_look(&around(c), 5, &o).unwrap();
        assert_eq!(look(0.10).outcome, SequentialOutcome::Faster);
        // A real 1 % change against the 2 % margin: equivalent, never a claim.
        assert_eq!(look(0.01).outcome, SequentialOutcome::Equivalent);
        // Reaching across the margin: undecided.
        assert_eq!(look(0.02).outcome, SequentialOutcome::Undecided);
        assert_eq!(look(-0.10).outcome, SequentialOutcome::Slower);
        // A floor above the claim's nearer end holds the claim back; one at the margin
        // holds back equivalence.
        let floored = |c: f64, floor: f64| {
            sequential_look(&around(c), 5, &o.floor(floor))
                .unwrap()
                .outcome
        };
        assert_eq!(floored(0.10, 0.2), SequentialOutcome::Undecided);
        assert_eq!(floored(0.0, 0.02), SequentialOutcome::Undecided);
        assert_eq!(look(0.0).outcome, SequentialOutcome::Equivalent);
        let wide: Vec<f64> = (0..10).map(|i| 0.05 * (i as f64 - 4.5)).collect();
        let l = sequential_look(&wide, 5, &o).unwrap();
        assert_eq!(l.outcome, SequentialOutcome::Undecided);
        assert!(l.last);
        assert!((l.rules_out_beyond - l.low.abs().max(l.high.abs())).abs() < 1e-15);
    }

    /// Runs the rule on normal deltas of mean `mu` and spread `sd`, looking every `step`
    /// deltas up to `max_n`; returns the final outcome and the deltas used.
    fn run(
        rng: &mut Rng,
        mu: f64,
        sd: f64,
        o: &SequentialOptions,
        step: usize,
    ) -> (SequentialOutcome, usize) {
        let mut deltas = Vec::new();
        let mut previous = 0;
        loop {
            while deltas.len() < (previous + step).min(o.max_n).max(3) {
                deltas.push(mu + sd * rng.next_normal());
            }
            let l = sequential_look(&deltas, previous, o).unwrap();
            if l.outcome.decided() || l.last {
                return (l.outcome, deltas.len());
            }
            previous = deltas.len();
        }
    }

    #[test]
    fn false_verdicts_and_false_equivalences_stay_under_the_level_when_stopping_early() {
        // Seeded Monte Carlo: 2,000 runs each, looks every 5 of at most 30 deltas.
        let mut rng = Rng::new(0x5e9);
        for spending in [Spending::OBrienFleming, Spending::Pocock] {
            let o = SequentialOptions::default().spending(spending);
            let runs = 2_000;
            // Nothing changed, scatter 1 %: any verdict is false.
            let false_verdicts = (0..runs)
                .filter(|_| {
                    matches!(
                        run(&mut rng, 0.0, 0.01, &o, 5).0,
                        SequentialOutcome::Faster | SequentialOutcome::Slower
                    )
                })
                .count();
            // A 3 % change against a 2 % margin: "equivalent" is false.
            let false_equivalences = (0..runs)
                .filter(|_| run(&mut rng, 0.03, 0.01, &o, 5).0 == SequentialOutcome::Equivalent)
                .count();
            // Binomial(2000, 0.05) rarely exceeds 125 (the 99.99th percentile is near 140);
            // the union bound makes the true rates lower still.
            assert!(false_verdicts <= 125, "{spending:?}: {false_verdicts}");
            assert!(
                false_equivalences <= 125,
                "{spending:?}: {false_equivalences}"
            );
        }
    }

    /// Runs the rule on deltas `mu + draw(rng)`, looking every 5 of at most 30 deltas (the
    /// first look at five, as `rtcompare bench` looks at its first five pairs).
    fn run_with(
        rng: &mut Rng,
        mu: f64,
        draw: &dyn Fn(&mut Rng) -> f64,
        o: &SequentialOptions,
    ) -> SequentialOutcome {
        let mut deltas = Vec::new();
        let mut previous = 0;
        loop {
            while deltas.len() < (previous + 5).min(o.max_n) {
                deltas.push(mu + draw(rng));
            }
            let l = sequential_look(&deltas, previous, o).unwrap();
            if l.outcome.decided() || l.last {
                return l.outcome;
            }
            previous = deltas.len();
        }
    }

    #[test]
    fn looks_keep_their_level_on_two_moded_and_heavy_tailed_pair_effects() {
        // Seeded Monte Carlo, 2,000 runs per shape. Code layouts make pair differences fall
        // into two modes (a layout that favours one side, another the other side) or throw
        // the odd pair far out; the t interval at a first look of five pairs must still keep
        // its level. Two modes: ±1 % with equal chance, plus 0.1 % scatter. Heavy tails: a
        // Student t with 2 degrees of freedom (infinite variance) scaled to 0.5 %.
        let two_moded = |rng: &mut Rng| {
            let side = if rng.next_f64() < 0.5 { -0.01 } else { 0.01 };
            side + 0.001 * rng.next_normal()
        };
        let heavy = |rng: &mut Rng| {
            // t₂ = Z / sqrt(χ²₂ / 2), with χ²₂ = Z₁² + Z₂².
            let z = rng.next_normal();
            let chi2 = rng.next_normal().powi(2) + rng.next_normal().powi(2);
            0.005 * z / (chi2 / 2.0).sqrt()
        };
        type Draw<'a> = &'a dyn Fn(&mut Rng) -> f64;
        let shapes: [(&str, Draw<'_>); 2] = [("two modes", &two_moded), ("heavy tails", &heavy)];
        let mut rng = Rng::new(0x1a70);
        let runs = 2_000;
        for (name, draw) in shapes {
            // Nothing changed and no margin: any claim is false (the strictest reading).
            let o = SequentialOptions::default().margin(0.0);
            let false_claims = (0..runs)
                .filter(|_| {
                    matches!(
                        run_with(&mut rng, 0.0, draw, &o),
                        SequentialOutcome::Faster | SequentialOutcome::Slower
                    )
                })
                .count();
            // A 3 % change against the 2 % margin: "equivalent" is false.
            let o = SequentialOptions::default();
            let false_equivalences = (0..runs)
                .filter(|_| run_with(&mut rng, 0.03, draw, &o) == SequentialOutcome::Equivalent)
                .count();
            eprintln!(
                "{name}: {false_claims}/{runs} false claims, {false_equivalences}/{runs} false equivalences"
            );
            // At most 5 % each; Binomial(2000, 0.05) rarely exceeds 125.
            assert!(false_claims <= 125, "{name}: {false_claims} false claims");
            assert!(
                false_equivalences <= 125,
                "{name}: {false_equivalences} false equivalences"
            );
        }
    }

    #[test]
    fn an_unchanged_benchmark_is_called_equivalent_and_a_large_change_decided_early() {
        let mut rng = Rng::new(77);
        let o = SequentialOptions::default();
        let equivalent = (0..200)
            .filter(|_| run(&mut rng, 0.0, 0.01, &o, 5).0 == SequentialOutcome::Equivalent)
            .count();
        assert!(equivalent >= 190, "{equivalent}");
        // A 10 % change with 1 % scatter: decided at the second look, at 10 deltas (five all
        // on one side are what a median of zero gives one time in 32, more than the first
        // look's share of α allows).
        let (outcome, n) = run(&mut rng, -0.10, 0.01, &o, 5);
        assert_eq!(outcome, SequentialOutcome::Slower);
        assert_eq!(n, 10);
    }
}
