//! The one place that words an outcome: for every [`CommandOutcome`] its JSON key, its word
//! in tables, its alarmed word (bad news in capitals), its capitalised verdict and the phrases
//! built from them. The terminal summary, the exports, the HTML page, `bench`'s table and
//! `combine`'s all take their words from here, so one outcome never reads two ways.

use rtcompare::Verdict;
use rtcompare::stats::Unresolved;
use rtcompare::support::display::Pct;

use crate::analysis::{CommandOutcome, VerdictSummary};

/// How an outcome's capitalised verdict names the command it is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `B is FASTER`.
    Is,
    /// `WIN for B`.
    For,
}

/// The words of one outcome.
#[derive(Debug, Clone, Copy)]
struct Words {
    outcome: CommandOutcome,
    /// As the JSON writes it (serde's name).
    key: &'static str,
    /// In tables and sentences.
    word: &'static str,
    /// In capitals, for the verdict line.
    loud: &'static str,
    form: Form,
    /// Said without naming a command when only two were compared: it favours neither.
    neutral: bool,
    /// Bad news for the candidate: said in capitals wherever it appears.
    alarm: bool,
    /// How it relates the command to the reference (`faster than A`); `None`: it does not.
    relation: Option<&'static str>,
}

/// Every outcome's words.
const TABLE: [Words; 7] = [
    Words {
        outcome: CommandOutcome::Faster,
        key: "faster",
        word: "faster",
        loud: "FASTER",
        form: Form::Is,
        neutral: false,
        alarm: false,
        relation: Some("than"),
    },
    Words {
        outcome: CommandOutcome::Slower,
        key: "slower",
        word: "slower",
        loud: "SLOWER",
        form: Form::Is,
        neutral: false,
        alarm: true,
        relation: Some("than"),
    },
    Words {
        outcome: CommandOutcome::CannotTell,
        key: "cannot_tell",
        word: "cannot tell",
        loud: "CANNOT TELL",
        form: Form::For,
        neutral: true,
        alarm: false,
        relation: None,
    },
    Words {
        outcome: CommandOutcome::Equivalent,
        key: "equivalent",
        word: "equivalent",
        loud: "EQUIVALENT",
        form: Form::Is,
        neutral: true,
        alarm: false,
        relation: Some("to"),
    },
    Words {
        outcome: CommandOutcome::Win,
        key: "win",
        word: "win",
        loud: "WIN",
        form: Form::For,
        neutral: false,
        alarm: false,
        relation: Some("over"),
    },
    Words {
        outcome: CommandOutcome::Parity,
        key: "parity",
        word: "parity",
        loud: "PARITY",
        form: Form::For,
        neutral: true,
        alarm: false,
        relation: None,
    },
    Words {
        outcome: CommandOutcome::Loss,
        key: "loss",
        word: "loss",
        loud: "LOSS",
        form: Form::For,
        neutral: false,
        alarm: true,
        relation: Some("to"),
    },
];

fn words(outcome: CommandOutcome) -> &'static Words {
    // Every outcome has its row (the tests check it); the first row is never reached.
    TABLE
        .iter()
        .find(|w| w.outcome == outcome)
        .unwrap_or(&TABLE[0])
}

impl CommandOutcome {
    /// As the JSON writes it: `cannot_tell`.
    pub fn key(self) -> &'static str {
        words(self).key
    }

    /// In tables and sentences: `cannot tell`.
    pub fn word(self) -> &'static str {
        words(self).word
    }

    /// [`word`](Self::word), in capitals when it is bad news for the candidate: `SLOWER`,
    /// `faster`.
    pub fn alarmed(self) -> &'static str {
        let w = words(self);
        if w.alarm { w.loud } else { w.word }
    }

    /// The verdict in capitals for the command labelled `name`: `C is FASTER`, `WIN for C`,
    /// `CANNOT TELL for C`; with `None` (two commands, B the candidate) an outcome that
    /// favours neither is said alone: `B is FASTER`, `CANNOT TELL`.
    pub fn verdict(self, name: Option<&str>) -> String {
        let w = words(self);
        match (name, w.neutral) {
            (None, true) => w.loud.to_string(),
            (name, _) => {
                let name = name.unwrap_or("B");
                match w.form {
                    Form::Is => format!("{name} is {}", w.loud),
                    Form::For => format!("{} for {name}", w.loud),
                }
            }
        }
    }

    /// The outcome relating a command to the `reference`: `faster than A`, `SLOWER than A`,
    /// `LOSS to A`, `cannot tell`.
    pub fn against(self, reference: &str) -> String {
        match words(self).relation {
            Some(relation) => format!("{} {relation} {reference}", self.alarmed()),
            None => self.alarmed().to_string(),
        }
    }
}

/// The comparison's verdict in the library's words ([`Verdict::in_words_with`]), the command
/// as the candidate against the reference: `0.90 % slower [−0.87 %, +1.90 %]`, `equivalent
/// within ±2.0 %: …`, `cannot tell (within ±3.1 %): …`: the same sentence `pool::run`, the
/// gates and `bench` print. Under the few-runs rule, which has no interval, the outcome's word
/// and the change by the ratio of medians: `loss: 8.9 % slower by the ratio of medians (too
/// few runs for an interval)`. `None` for a verdict without an interval that is not the
/// few-runs rule's. `margin` is the margin it was judged against (a sequential decision's; the
/// bootstrap rule's tolerance otherwise); `floor` the A/A floor (fraction, 0 when not
/// measured), named as the change the run cannot rule out where the floor, not the interval,
/// kept it from a verdict, as the library words it.
pub fn change_words(v: &VerdictSummary, margin: f64, floor: f64) -> Option<String> {
    if matches!(
        v.outcome,
        CommandOutcome::Win | CommandOutcome::Parity | CommandOutcome::Loss
    ) {
        let change = v.ratio - 1.0;
        let size = if change > 0.0 {
            format!("{} slower", Pct(change))
        } else if change < 0.0 {
            format!("{} faster", Pct(-change))
        } else {
            "no change".to_string()
        };
        return Some(format!(
            "{}: {size} by the ratio of medians (too few runs for an interval)",
            words(v.outcome).word
        ));
    }
    let (low, high) = (v.low?, v.high?);
    let change = rtcompare::support::stats::change_of_ratio(v.ratio, low, high);
    let verdict = match v.outcome {
        // The command is side A of the library's verdict: its candidate.
        CommandOutcome::Faster => Verdict::AFaster,
        CommandOutcome::Slower => Verdict::BFaster,
        CommandOutcome::Equivalent => Verdict::Equivalent { margin },
        CommandOutcome::CannotTell if low <= 1.0 && 1.0 <= high => {
            Verdict::CannotTell(Unresolved::IntervalContainsZero {
                low: change.low,
                high: change.high,
            })
        }
        CommandOutcome::CannotTell => {
            let near = change.low.abs().min(change.high.abs());
            let far = change.low.abs().max(change.high.abs());
            if far < margin && floor >= margin {
                // Inside the margin, but identical commands differ by more.
                Verdict::CannotTell(Unresolved::FloorAboveMargin {
                    noise_floor: floor,
                    margin,
                })
            } else if near > margin && near <= floor {
                // Beyond the margin, but not beyond what identical commands differ by.
                Verdict::CannotTell(Unresolved::WithinNoiseFloor {
                    delta: -change.change,
                    noise_floor: floor,
                })
            } else {
                Verdict::CannotTell(Unresolved::StraddlesMargin {
                    margin,
                    low: change.low,
                    high: change.high,
                })
            }
        }
        // Worded above.
        CommandOutcome::Win | CommandOutcome::Parity | CommandOutcome::Loss => return None,
    };
    Some(verdict.in_words_with(change))
}

/// "cannot tell", as every table words it.
pub(crate) const CANNOT_TELL: &str = "cannot tell";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_has_one_row_whose_key_is_the_json_s() {
        for w in &TABLE {
            assert_eq!(TABLE.iter().filter(|x| x.outcome == w.outcome).count(), 1);
            assert_eq!(
                serde_json::to_value(w.outcome).unwrap(),
                serde_json::json!(w.key)
            );
        }
    }

    /// The few-runs rule has no interval, and its change is still said, in the one direction
    /// (there was no "B against A" line at all before).
    #[test]
    fn a_few_runs_verdict_says_its_change_by_the_ratio_of_medians() {
        let v = |outcome, ratio| VerdictSummary {
            outcome,
            ratio,
            best_ratio: ratio,
            tolerance: 0.04,
            noise: 0.01,
            low: None,
            high: None,
            level: None,
            reason: String::new(),
        };
        assert_eq!(
            change_words(&v(CommandOutcome::Loss, 1.089), 0.02, 0.0).as_deref(),
            Some("loss: 8.9 % slower by the ratio of medians (too few runs for an interval)")
        );
        assert_eq!(
            change_words(&v(CommandOutcome::Win, 0.95), 0.02, 0.0).as_deref(),
            Some("win: 5.0 % faster by the ratio of medians (too few runs for an interval)")
        );
        // Any other verdict without an interval has no words.
        assert_eq!(
            change_words(&v(CommandOutcome::CannotTell, 1.0), 0.02, 0.0),
            None
        );
    }

    /// Where the A/A floor kept a comparison from a verdict, the words name the floor as the
    /// change the run cannot rule out, as the library's do; where the interval straddles the
    /// margin, the interval's farther end.
    #[test]
    fn cannot_tell_names_the_floor_where_the_floor_decided() {
        let v = |ratio: f64, low: f64, high: f64| VerdictSummary {
            outcome: CommandOutcome::CannotTell,
            ratio,
            best_ratio: ratio,
            tolerance: 0.02,
            noise: 0.01,
            low: Some(low),
            high: Some(high),
            level: Some(0.99),
            reason: String::new(),
        };
        let words = |s: &VerdictSummary, floor| change_words(s, 0.02, floor).unwrap();
        // Inside ±2 %, identical commands differ by 3 %.
        let inside = v(1.004, 1.002, 1.006);
        assert!(
            words(&inside, 0.03).starts_with("cannot tell (within ±3.0 %)"),
            "{}",
            words(&inside, 0.03)
        );
        // Beyond 2 %, but within a 4 % floor.
        let beyond = v(1.03, 1.025, 1.035);
        assert!(
            words(&beyond, 0.04).starts_with("cannot tell (within ±4.0 %)"),
            "{}",
            words(&beyond, 0.04)
        );
        // Across the margin: the interval's farther end, whatever the floor.
        let across = v(1.02, 1.01, 1.03);
        assert!(
            words(&across, 0.005).starts_with("cannot tell (within ±3.0 %)"),
            "{}",
            words(&across, 0.005)
        );
    }

    #[test]
    fn the_phrases_read_as_they_always_have() {
        use CommandOutcome::*;
        let two: Vec<String> = [Faster, Slower, CannotTell, Equivalent, Win, Parity, Loss]
            .iter()
            .map(|o| o.verdict(None))
            .collect();
        assert_eq!(
            two,
            [
                "B is FASTER",
                "B is SLOWER",
                "CANNOT TELL",
                "EQUIVALENT",
                "WIN for B",
                "PARITY",
                "LOSS for B"
            ]
        );
        assert_eq!(CannotTell.verdict(Some("C")), "CANNOT TELL for C");
        assert_eq!(Equivalent.verdict(Some("C")), "C is EQUIVALENT");
        assert_eq!(Slower.against("A"), "SLOWER than A");
        assert_eq!(Win.against("A"), "win over A");
        assert_eq!(Parity.against("A"), "parity");
        assert_eq!(CannotTell.word(), "cannot tell");
        assert_eq!(CannotTell.key(), "cannot_tell");
    }
}
