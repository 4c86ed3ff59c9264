//! [`Spec`]: what a workload stream looks like, as one builder.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// Default steady-state size of [`Spec::default`]: 10,000 keys.
pub const DEFAULT_STEADY_SIZE: u64 = 10_000;
/// Key space of a spec that leaves [`Spec::key_space`] at 0: this many times the steady size
/// (at least [`MIN_KEY_SPACE`]), so that three keys in four are absent at steady state and
/// inserts and misses find absent keys without searching.
pub const KEY_SPACE_FACTOR: u64 = 4;
/// Smallest key space a spec resolves to when [`Spec::key_space`] is 0 (64 keys).
pub const MIN_KEY_SPACE: u64 = 64;
/// Default half-width of the size band, as a fraction of the steady size (5 %).
pub const DEFAULT_BAND: f64 = 0.05;
/// Smallest half-width of the size band, in keys (8), so that small structures still churn.
pub const MIN_BAND_KEYS: u64 = 8;
/// Tolerance on the sum of the mix's fractions: they must sum to 1 within 1e-9.
pub const MIX_TOLERANCE: f64 = 1e-9;
/// Fewest bytes a string key may have (11): the key's 64 bits take 11 base-64 characters,
/// so shorter strings could not keep distinct keys distinct.
pub const MIN_STRING_KEY_LEN: usize = 11;

/// Which keys the operations name.
///
/// Keys are ids in `0..key_space` (see [`Spec::resolved_key_space`]) that the stream hands
/// out mixed through a fixed bijection of `u64` (so that popular ids are not neighbours in an
/// ordered structure), except for [`Sequential`](Self::Sequential), whose keys are the ids
/// themselves, in increasing order.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum KeyDistribution {
    /// Every key of the key space equally likely.
    Uniform,
    /// The key of popularity rank r (from 1) has probability ∝ r^(−exponent); exponent > 0
    /// (1.1 is typical of caches and web keys).
    Zipf {
        /// The exponent s; must be finite and > 0.
        exponent: f64,
    },
    /// Inserts take new keys in increasing order (0, 1, 2, …: a log, a time index, an
    /// auto-increment id); lookups draw uniformly among present keys (hits) or above the
    /// largest key so far (misses). The key space is unbounded.
    Sequential,
    /// A moving hot set: `hot_share` of the operations draw from a window of
    /// `hot_fraction × key_space` consecutive ids, the rest from the whole key space; the
    /// window slides continuously and moves its own width every `period` operations. An
    /// insert or a miss draws its absent key, and a hit its present key, exactly from this
    /// distribution restricted to the keys that qualify (random removals stay uniform over
    /// the present keys). Moving the window costs O(1) per key it moves past, so at most
    /// O(width) per operation for `period` 1.
    HotSet {
        /// Size of the hot window as a fraction of the key space, in (0, 1].
        hot_fraction: f64,
        /// Fraction of the operations drawn from the window, in [0, 1].
        hot_share: f64,
        /// Operations per window width moved; at least 1.
        period: u64,
    },
}

/// Which present key a removal takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Removal {
    /// A uniformly random present key.
    Random,
    /// The oldest present key, as a queue or an LRU-like cache evicts.
    Oldest,
    /// The newest present key, as a stack pops.
    Newest,
}

/// The key type the structures receive.
///
/// The stream names keys as `u64` ([`Op`](crate::Op)); a structure keyed by
/// strings gets [`key_string`](crate::key_string) of that `u64`, built outside the
/// measured region.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum KeyType {
    /// The `u64` key itself.
    U64,
    /// A string of `len` ASCII bytes derived from the key (at least
    /// [`MIN_STRING_KEY_LEN`]).
    String {
        /// Length in bytes.
        len: usize,
    },
}

/// The operation mix of the churn phase: fractions of inserts, removals, lookups that hit a
/// present key and lookups that miss. Each is in [0, 1] and they sum to 1 (within
/// [`MIX_TOLERANCE`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mix {
    /// Fraction of inserts (of an absent key).
    pub insert: f64,
    /// Fraction of removals (of a present key, chosen by the [`Removal`] policy).
    pub remove: f64,
    /// Fraction of lookups of a present key.
    pub hit: f64,
    /// Fraction of lookups of an absent key.
    pub miss: f64,
}

impl Mix {
    /// A mix from its four fractions (checked by [`Spec::validate`], not here).
    pub const fn new(insert: f64, remove: f64, hit: f64, miss: f64) -> Mix {
        Mix {
            insert,
            remove,
            hit,
            miss,
        }
    }

    /// Churn 40/40/20: 40 % inserts, 40 % removals, 20 % lookups (15 % hits, 5 % misses).
    pub const fn churn() -> Mix {
        Mix::new(0.40, 0.40, 0.15, 0.05)
    }

    /// Read-heavy 90/5/5: 90 % lookups (80 % hits, 10 % misses), 5 % inserts, 5 % removals.
    pub const fn read_heavy() -> Mix {
        Mix::new(0.05, 0.05, 0.80, 0.10)
    }

    fn validate(&self) -> Result<()> {
        let parts = [
            ("mix.insert", self.insert),
            ("mix.remove", self.remove),
            ("mix.hit", self.hit),
            ("mix.miss", self.miss),
        ];
        for (name, v) in parts {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                return Err(Error::out_of_range(name, v, "a fraction in [0, 1]"));
            }
        }
        let sum = self.insert + self.remove + self.hit + self.miss;
        if (sum - 1.0).abs() > MIX_TOLERANCE {
            return Err(Error::out_of_range(
                "mix (insert + remove + hit + miss)",
                sum,
                "fractions that sum to 1 within 1e-9",
            ));
        }
        Ok(())
    }
}

/// A workload: the steady-state size, the key distribution, the operation mix, the removal
/// policy, the phases, the key type and the seed. A builder whose methods consume and return
/// `Self`; [`Spec::stream`](crate::Spec::stream) turns it into operations.
///
/// Every stream has three phases: **fill** (inserts from empty to the steady size), **churn**
/// (the mix, with the size kept within [`band`](Self::band) around the steady size), and an
/// optional **drain** (removals by the policy until empty).
///
/// ```
/// use rtcompare_workload::{KeyDistribution, Mix, Removal, Spec};
/// let spec = Spec::default()
///     .steady_size(1_000)
///     .distribution(KeyDistribution::Zipf { exponent: 1.1 })
///     .mix(Mix::read_heavy())
///     .removal(Removal::Oldest)
///     .seed(7);
/// assert_eq!(spec.resolved_key_space(), 4_000);
/// assert_eq!(spec.band(), (950, 1_050));
/// println!("{spec}");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Spec {
    /// Size the fill reaches and the churn keeps, in keys. Default
    /// [`DEFAULT_STEADY_SIZE`] (10,000).
    pub steady_size: u64,
    /// Number of distinct keys the distribution draws from; 0 (the default) means
    /// [`KEY_SPACE_FACTOR`] × the steady size, at least [`MIN_KEY_SPACE`]. It must exceed the
    /// band's upper edge, so an insert always finds an absent key. Ignored by
    /// [`KeyDistribution::Sequential`].
    pub key_space: u64,
    /// Which keys the operations name. Default [`KeyDistribution::Uniform`].
    pub distribution: KeyDistribution,
    /// The churn phase's operation mix. Default [`Mix::churn`] (40/40/15/5).
    pub mix: Mix,
    /// Which present key a removal takes. Default [`Removal::Random`].
    pub removal: Removal,
    /// Whether the stream ends with a drain phase. Default `false`.
    pub drain: bool,
    /// The key type the structures receive. Default [`KeyType::U64`].
    pub key_type: KeyType,
    /// Half-width of the size band as a fraction of the steady size, in [0, 1); at least
    /// [`MIN_BAND_KEYS`] keys. Default [`DEFAULT_BAND`] (5 %).
    pub band: f64,
    /// Seed of the stream; 0 draws one, recorded in
    /// [`Stream::seed`](crate::Stream::seed). Default 1.
    pub seed: u64,
}

impl Default for Spec {
    /// A churn workload: 10,000 keys at steady state over 40,000 uniform keys, 40 % inserts,
    /// 40 % random removals, 15 % hits, 5 % misses, `u64` keys, seed 1.
    fn default() -> Self {
        Spec {
            steady_size: DEFAULT_STEADY_SIZE,
            key_space: 0,
            distribution: KeyDistribution::Uniform,
            mix: Mix::churn(),
            removal: Removal::Random,
            drain: false,
            key_type: KeyType::U64,
            band: DEFAULT_BAND,
            seed: 1,
        }
    }
}

impl Spec {
    /// Sets [`steady_size`](Self::steady_size).
    pub fn steady_size(mut self, keys: u64) -> Self {
        self.steady_size = keys;
        self
    }
    /// Sets [`key_space`](Self::key_space) (0 = the default multiple of the steady size).
    pub fn key_space(mut self, keys: u64) -> Self {
        self.key_space = keys;
        self
    }
    /// Sets [`distribution`](Self::distribution).
    pub fn distribution(mut self, d: KeyDistribution) -> Self {
        self.distribution = d;
        self
    }
    /// Shorthand for a Zipf distribution with exponent `s`.
    pub fn zipf(self, s: f64) -> Self {
        self.distribution(KeyDistribution::Zipf { exponent: s })
    }
    /// Sets [`mix`](Self::mix).
    pub fn mix(mut self, m: Mix) -> Self {
        self.mix = m;
        self
    }
    /// Sets [`removal`](Self::removal).
    pub fn removal(mut self, r: Removal) -> Self {
        self.removal = r;
        self
    }
    /// Sets [`drain`](Self::drain).
    pub fn drain(mut self, drain: bool) -> Self {
        self.drain = drain;
        self
    }
    /// Sets [`key_type`](Self::key_type).
    pub fn key_type(mut self, k: KeyType) -> Self {
        self.key_type = k;
        self
    }
    /// Sets [`band`](Self::band).
    pub fn band_fraction(mut self, fraction: f64) -> Self {
        self.band = fraction;
        self
    }
    /// Sets [`seed`](Self::seed).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The key space actually used: [`key_space`](Self::key_space), or for 0
    /// [`KEY_SPACE_FACTOR`] × the steady size (at least [`MIN_KEY_SPACE`]); `u64::MAX` for
    /// [`KeyDistribution::Sequential`].
    pub fn resolved_key_space(&self) -> u64 {
        if self.distribution == KeyDistribution::Sequential {
            return u64::MAX;
        }
        if self.key_space > 0 {
            self.key_space
        } else {
            self.steady_size
                .saturating_mul(KEY_SPACE_FACTOR)
                .max(MIN_KEY_SPACE)
        }
    }

    /// The size band of the churn phase as `(lowest, highest)` sizes in keys: the steady size
    /// ± max(band × steady size, [`MIN_BAND_KEYS`]), the lower edge at least 1 when the
    /// steady size is. An insert at the upper edge becomes a removal and a removal at the
    /// lower edge an insert, so the size never leaves the band.
    pub fn band(&self) -> (u64, u64) {
        let half =
            ((self.band.max(0.0) * self.steady_size as f64).ceil() as u64).max(MIN_BAND_KEYS);
        let floor = u64::from(self.steady_size > 0);
        let low = self.steady_size.saturating_sub(half).max(floor);
        (low, self.steady_size.saturating_add(half))
    }

    /// Checks the spec; [`Spec::stream`](crate::Spec::stream) calls it first.
    ///
    /// Errors ([`Error::OutOfRange`] or [`Error::InvalidOption`], naming the field): a mix
    /// fraction outside [0, 1] or fractions that do not sum to 1 within 1e-9; a steady size
    /// of 0 with hits or removals (there is nothing present to name); a Zipf exponent that is
    /// not finite and > 0; hot-set parameters out of range; a key space not above the band's
    /// upper edge; a band outside [0, 1); string keys shorter than [`MIN_STRING_KEY_LEN`];
    /// sizes beyond 2³² − 2 keys.
    pub fn validate(&self) -> Result<()> {
        self.mix.validate()?;
        if self.steady_size == 0 && self.mix.hit > 0.0 {
            return Err(Error::invalid_option(
                "mix.hit",
                "a steady size of 0 leaves no present key for a lookup to hit; \
                 set steady_size above 0 or mix.hit to 0",
            ));
        }
        if self.steady_size == 0 && self.mix.remove > 0.0 {
            return Err(Error::invalid_option(
                "removal",
                "a steady size of 0 leaves the structure empty, so no removal policy can take \
                 a key; set steady_size above 0 or mix.remove to 0",
            ));
        }
        if !(self.band.is_finite() && (0.0..1.0).contains(&self.band)) {
            return Err(Error::out_of_range("band", self.band, "0 <= band < 1"));
        }
        self.validate_distribution()?;
        self.validate_sizes()?;
        if let KeyType::String { len } = self.key_type
            && len < MIN_STRING_KEY_LEN
        {
            return Err(Error::out_of_range(
                "key_type.len",
                len as f64,
                "string keys of at least 11 bytes (64 bits in base 64)",
            ));
        }
        Ok(())
    }

    /// Checks the distribution's parameters: a Zipf exponent finite and > 0, a hot set's
    /// fraction, share and period in range.
    fn validate_distribution(&self) -> Result<()> {
        match self.distribution {
            KeyDistribution::Zipf { exponent } => {
                if !(exponent.is_finite() && exponent > 0.0) {
                    return Err(Error::out_of_range(
                        "distribution.exponent",
                        exponent,
                        "a finite Zipf exponent > 0",
                    ));
                }
            }
            KeyDistribution::HotSet {
                hot_fraction,
                hot_share,
                period,
            } => {
                if !(hot_fraction > 0.0 && hot_fraction <= 1.0) {
                    return Err(Error::out_of_range(
                        "distribution.hot_fraction",
                        hot_fraction,
                        "0 < hot_fraction <= 1",
                    ));
                }
                if !(0.0..=1.0).contains(&hot_share) {
                    return Err(Error::out_of_range(
                        "distribution.hot_share",
                        hot_share,
                        "0 <= hot_share <= 1",
                    ));
                }
                if period == 0 {
                    return Err(Error::out_of_range(
                        "distribution.period",
                        0.0,
                        "at least 1 operation",
                    ));
                }
            }
            KeyDistribution::Uniform | KeyDistribution::Sequential => {}
        }
        Ok(())
    }

    /// Checks the sizes: the band's upper edge below 2³² − 1 keys and, unless keys are
    /// sequential, a key space above it and of at most 2³² − 1 keys.
    fn validate_sizes(&self) -> Result<()> {
        let (_, high) = self.band();
        if high > u64::from(u32::MAX) - 1 {
            return Err(Error::out_of_range(
                "steady_size",
                self.steady_size as f64,
                "a steady size whose band stays below 2^32 - 1 keys",
            ));
        }
        if self.distribution != KeyDistribution::Sequential {
            let space = self.resolved_key_space();
            if space <= high {
                return Err(Error::invalid_option(
                    "key_space",
                    format!(
                        "a key space of {space} keys cannot hold a steady size of {} with its \
                         band up to {high} and still leave an absent key to insert; use a key \
                         space above {high} (or 0 for {}x the steady size)",
                        self.steady_size, KEY_SPACE_FACTOR
                    ),
                ));
            }
            if space > u64::from(u32::MAX) {
                return Err(Error::out_of_range(
                    "key_space",
                    space as f64,
                    "at most 2^32 - 1 keys",
                ));
            }
        }
        Ok(())
    }

    /// A short label of the spec for tables: `"10^3 uniform 40/40/20"`-like, built from the
    /// steady size, the distribution and the mix.
    pub fn label(&self) -> String {
        let size = power_of_ten(self.steady_size);
        let dist = match self.distribution {
            KeyDistribution::Uniform => "uniform".to_string(),
            KeyDistribution::Zipf { exponent } => format!("zipf {exponent}"),
            KeyDistribution::Sequential => "sequential".to_string(),
            KeyDistribution::HotSet { hot_share, .. } => format!("hot set {hot_share}"),
        };
        let m = &self.mix;
        format!(
            "{size} {dist} {:.0}/{:.0}/{:.0}",
            100.0 * (m.hit + m.miss),
            100.0 * m.insert,
            100.0 * m.remove
        )
    }
}

fn power_of_ten(n: u64) -> String {
    let mut k = 0;
    let mut m = n;
    while m >= 10 && m.is_multiple_of(10) {
        m /= 10;
        k += 1;
    }
    if m == 1 && k >= 3 {
        format!("10^{k}")
    } else {
        n.to_string()
    }
}

impl fmt::Display for Spec {
    /// One line: size, key space, distribution, mix (lookups/inserts/removals with the hits'
    /// and misses' shares), removal policy, phases, key type and seed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (low, high) = self.band();
        write!(
            f,
            "{} keys steady (band {low}..={high}), ",
            self.steady_size
        )?;
        match self.distribution {
            KeyDistribution::Uniform => {
                write!(f, "uniform over {} keys", self.resolved_key_space())?
            }
            KeyDistribution::Zipf { exponent } => write!(
                f,
                "Zipf s = {exponent} over {} keys",
                self.resolved_key_space()
            )?,
            KeyDistribution::Sequential => f.write_str("sequential keys")?,
            KeyDistribution::HotSet {
                hot_fraction,
                hot_share,
                period,
            } => write!(
                f,
                "hot set ({:.0} % of ops on {:.1} % of {} keys, moving every {period} ops)",
                100.0 * hot_share,
                100.0 * hot_fraction,
                self.resolved_key_space()
            )?,
        }
        let m = &self.mix;
        write!(
            f,
            "; {:.1} % insert, {:.1} % remove ({}), {:.1} % hit, {:.1} % miss; fill, churn{}; ",
            100.0 * m.insert,
            100.0 * m.remove,
            match self.removal {
                Removal::Random => "random",
                Removal::Oldest => "oldest first",
                Removal::Newest => "newest first",
            },
            100.0 * m.hit,
            100.0 * m.miss,
            if self.drain { ", drain" } else { "" }
        )?;
        match self.key_type {
            KeyType::U64 => f.write_str("u64 keys")?,
            KeyType::String { len } => write!(f, "{len}-byte string keys")?,
        }
        write!(f, "; seed {}", self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_a_valid_churn_workload() {
        let s = Spec::default();
        s.validate().unwrap();
        assert_eq!(s.mix, Mix::churn());
        assert_eq!(s.resolved_key_space(), 40_000);
        assert_eq!(s.band(), (9_500, 10_500));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Spec>(&json).unwrap(), s);
        assert!(s.to_string().contains("40.0 % insert"), "{s}");
        assert_eq!(s.label(), "10^4 uniform 20/40/40");
    }

    #[test]
    fn small_bands_keep_a_floor() {
        assert_eq!(Spec::default().steady_size(10).band(), (2, 18));
        assert_eq!(Spec::default().steady_size(3).band(), (1, 11));
        assert_eq!(Spec::default().steady_size(0).band(), (0, 8));
    }

    #[test]
    fn bad_specs_are_typed_errors() {
        let bad = [
            Spec::default().mix(Mix::new(0.5, 0.5, 0.5, 0.0)),
            Spec::default().mix(Mix::new(-0.1, 0.6, 0.5, 0.0)),
            Spec::default().mix(Mix::new(f64::NAN, 0.5, 0.5, 0.0)),
            Spec::default().steady_size(0),
            Spec::default()
                .steady_size(0)
                .mix(Mix::new(0.5, 0.5, 0.0, 0.0)),
            Spec::default().zipf(0.0),
            Spec::default().zipf(-1.0),
            Spec::default().zipf(f64::INFINITY),
            Spec::default().key_space(5_000),
            Spec::default().key_space(10_500),
            Spec::default().key_type(KeyType::String { len: 8 }),
            Spec::default().band_fraction(1.5),
            Spec::default().distribution(KeyDistribution::HotSet {
                hot_fraction: 0.0,
                hot_share: 0.5,
                period: 10,
            }),
        ];
        for s in bad {
            let e = s.validate().unwrap_err();
            assert!(
                matches!(e, Error::OutOfRange { .. } | Error::InvalidOption { .. }),
                "{s}: {e:?}"
            );
        }
        // Within the tolerance is fine.
        Spec::default()
            .mix(Mix::new(0.4, 0.4, 0.2 + 5e-10, 0.0))
            .validate()
            .unwrap();
        // Steady size 0 with only inserts and misses is a valid (tiny) workload.
        Spec::default()
            .steady_size(0)
            .mix(Mix::new(0.5, 0.0, 0.0, 0.5))
            .validate()
            .unwrap();
    }
}
