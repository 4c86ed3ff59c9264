//! [`Structure`]: what a workload runs against, and its implementations for the standard
//! collections.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};

use crate::spec::KeyType;

/// A key type a structure can be keyed by: built from a stream's `u64` key, outside the
/// measured region.
pub trait Key: Clone + 'static {
    /// The key for the stream's `key` under the spec's key type, or `None` if this type
    /// cannot represent that key type (a `u64` key for a string spec, say).
    fn from_key(key: u64, key_type: KeyType) -> Option<Self>;
}

impl Key for u64 {
    /// The key itself; `None` for a string key type.
    fn from_key(key: u64, key_type: KeyType) -> Option<Self> {
        matches!(key_type, KeyType::U64).then_some(key)
    }
}

impl Key for String {
    /// [`key_string`] of the key at the spec's length; `None` for the `u64` key type.
    fn from_key(key: u64, key_type: KeyType) -> Option<Self> {
        match key_type {
            KeyType::String { len } => Some(key_string(key, len)),
            KeyType::U64 => None,
        }
    }
}

/// The string key of `key`: its 64 bits as 11 characters of base 64 (`A–Z a–z 0–9 - _`,
/// most significant first), padded to `len` bytes by repeating them. Distinct keys give
/// distinct strings for every `len ≥ 11`; shorter lengths truncate (the spec refuses them).
///
/// ```
/// use rtcompare_workload::key_string;
/// assert_eq!(key_string(0, 11), "AAAAAAAAAAA");
/// assert_eq!(key_string(63, 13), "AAAAAAAAAA_AA");
/// assert_ne!(key_string(1, 16), key_string(2, 16));
/// ```
pub fn key_string(key: u64, len: usize) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut digits = [0u8; 11];
    for (i, d) in digits.iter_mut().enumerate() {
        let shift = 6 * (10 - i);
        *d = ALPHABET[((key >> shift) & 63) as usize];
    }
    let bytes: Vec<u8> = digits.iter().copied().cycle().take(len).collect();
    // Every byte is ASCII.
    String::from_utf8(bytes).expect("ASCII")
}

/// A mutable structure a workload can run against: four methods and a name.
///
/// `insert` is only called with an absent key and `remove` only with a present one when the
/// stream is replayed from its start; `get` says whether the key is present (a map may also
/// read its value: the result goes through [`std::hint::black_box`]).
///
/// ```
/// use rtcompare_workload::Structure;
///
/// /// A sorted vector as a set.
/// #[derive(Default)]
/// struct SortedVec(Vec<u64>);
///
/// impl Structure for SortedVec {
///     type Key = u64;
///     fn name(&self) -> String { "SortedVec".into() }
///     fn insert(&mut self, key: u64, _value: u64) {
///         if let Err(i) = self.0.binary_search(&key) { self.0.insert(i, key) }
///     }
///     fn remove(&mut self, key: &u64) -> bool {
///         match self.0.binary_search(key) { Ok(i) => { self.0.remove(i); true } Err(_) => false }
///     }
///     fn get(&self, key: &u64) -> bool { self.0.binary_search(key).is_ok() }
///     fn len(&self) -> usize { self.0.len() }
/// }
/// let mut s = SortedVec::default();
/// s.insert(3, 0);
/// assert!(s.get(&3) && s.len() == 1 && s.remove(&3) && s.is_empty());
/// ```
pub trait Structure: Default {
    /// The key type; [`Key::from_key`] builds it from the stream.
    type Key: Key;
    /// A short name for reports and tables (`"HashMap"`). Default: the type's name.
    fn name(&self) -> String {
        std::any::type_name::<Self>().to_string()
    }
    /// Inserts `key` with `value` (the stream's [`payload`](crate::payload) of it).
    fn insert(&mut self, key: Self::Key, value: u64);
    /// Removes `key`; whether it was present.
    fn remove(&mut self, key: &Self::Key) -> bool;
    /// Whether `key` is present.
    fn get(&self, key: &Self::Key) -> bool;
    /// Number of keys present.
    fn len(&self) -> usize;
    /// Whether no key is present.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `"Name"` with the std hasher, `"Name<Hasher>"` (short type name) with another.
fn hashed_name<S: 'static>(name: &str) -> String {
    if std::any::TypeId::of::<S>() == std::any::TypeId::of::<std::hash::RandomState>() {
        name.to_string()
    } else {
        format!("{name}<{}>", short_type_name(std::any::type_name::<S>()))
    }
}

/// A type name without its module paths: `core::hash::BuildHasherDefault<maps::Fx>` →
/// `BuildHasherDefault<Fx>`.
fn short_type_name(full: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = full.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            word.clear();
        } else if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            out.push_str(&word);
            word.clear();
            out.push(c);
        }
    }
    out + &word
}

/// Named `"HashMap"` with the std hasher, `"HashMap<Hasher>"` with another.
impl<K: Key + Hash + Eq, S: BuildHasher + Default + 'static> Structure for HashMap<K, u64, S> {
    type Key = K;
    fn name(&self) -> String {
        hashed_name::<S>("HashMap")
    }
    fn insert(&mut self, key: K, value: u64) {
        HashMap::insert(self, key, value);
    }
    fn remove(&mut self, key: &K) -> bool {
        HashMap::remove(self, key).is_some()
    }
    fn get(&self, key: &K) -> bool {
        std::hint::black_box(HashMap::get(self, key)).is_some()
    }
    fn len(&self) -> usize {
        HashMap::len(self)
    }
}

impl<K: Key + Ord> Structure for BTreeMap<K, u64> {
    type Key = K;
    fn name(&self) -> String {
        "BTreeMap".into()
    }
    fn insert(&mut self, key: K, value: u64) {
        BTreeMap::insert(self, key, value);
    }
    fn remove(&mut self, key: &K) -> bool {
        BTreeMap::remove(self, key).is_some()
    }
    fn get(&self, key: &K) -> bool {
        std::hint::black_box(BTreeMap::get(self, key)).is_some()
    }
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
}

/// Named `"HashSet"` with the std hasher, `"HashSet<Hasher>"` with another.
impl<K: Key + Hash + Eq, S: BuildHasher + Default + 'static> Structure for HashSet<K, S> {
    type Key = K;
    fn name(&self) -> String {
        hashed_name::<S>("HashSet")
    }
    fn insert(&mut self, key: K, _value: u64) {
        HashSet::insert(self, key);
    }
    fn remove(&mut self, key: &K) -> bool {
        HashSet::remove(self, key)
    }
    fn get(&self, key: &K) -> bool {
        HashSet::contains(self, key)
    }
    fn len(&self) -> usize {
        HashSet::len(self)
    }
}

impl<K: Key + Ord> Structure for BTreeSet<K> {
    type Key = K;
    fn name(&self) -> String {
        "BTreeSet".into()
    }
    fn insert(&mut self, key: K, _value: u64) {
        BTreeSet::insert(self, key);
    }
    fn remove(&mut self, key: &K) -> bool {
        BTreeSet::remove(self, key)
    }
    fn get(&self, key: &K) -> bool {
        BTreeSet::contains(self, key)
    }
    fn len(&self) -> usize {
        BTreeSet::len(self)
    }
}

/// Queue semantics: `insert` pushes at the back, `remove` pops the front **whatever the
/// key** (pair it with [`Removal::Oldest`](crate::Removal::Oldest), whose removals
/// name exactly the front), `get` scans for the key (O(n): use mixes with few lookups).
impl<K: Key + PartialEq> Structure for VecDeque<K> {
    type Key = K;
    fn name(&self) -> String {
        "VecDeque".into()
    }
    fn insert(&mut self, key: K, _value: u64) {
        self.push_back(key);
    }
    fn remove(&mut self, _key: &K) -> bool {
        self.pop_front().is_some()
    }
    fn get(&self, key: &K) -> bool {
        self.contains(key)
    }
    fn len(&self) -> usize {
        VecDeque::len(self)
    }
}

/// Priority-queue semantics: `insert` pushes, `remove` pops the greatest key **whatever the
/// key** (with sequential keys and [`Removal::Newest`](crate::Removal::Newest) the
/// removals name exactly the greatest), `get` scans (O(n)).
impl<K: Key + Ord> Structure for BinaryHeap<K> {
    type Key = K;
    fn name(&self) -> String {
        "BinaryHeap".into()
    }
    fn insert(&mut self, key: K, _value: u64) {
        self.push(key);
    }
    fn remove(&mut self, _key: &K) -> bool {
        self.pop().is_some()
    }
    fn get(&self, key: &K) -> bool {
        self.iter().any(|k| k == key)
    }
    fn len(&self) -> usize {
        BinaryHeap::len(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KeyDistribution, Op, Removal, Spec};

    fn replay<S: Structure>(spec: &Spec) -> S {
        let stream = spec.stream(5_000).unwrap();
        let mut s = S::default();
        let mut model = HashSet::new();
        for op in stream.ops() {
            let k = S::Key::from_key(op.key(), spec.key_type).unwrap();
            match *op {
                Op::Insert(key) => {
                    s.insert(k, op.payload());
                    model.insert(key);
                }
                Op::Remove(key) => {
                    assert!(s.remove(&k));
                    model.remove(&key);
                }
                Op::Get(key) => assert_eq!(s.get(&k), model.contains(&key)),
            }
            assert_eq!(s.len(), model.len());
        }
        s
    }

    #[test]
    fn std_structures_follow_the_model() {
        let spec = Spec::default().steady_size(300);
        replay::<HashMap<u64, u64>>(&spec);
        replay::<BTreeMap<u64, u64>>(&spec);
        replay::<HashSet<u64>>(&spec);
        replay::<BTreeSet<u64>>(&spec);
        let strings = spec.clone().key_type(KeyType::String { len: 24 });
        replay::<HashMap<String, u64>>(&strings);
        replay::<BTreeSet<String>>(&strings);
        let queue = spec.clone().removal(Removal::Oldest);
        replay::<VecDeque<u64>>(&queue);
        let heap = spec
            .removal(Removal::Newest)
            .distribution(KeyDistribution::Sequential);
        replay::<BinaryHeap<u64>>(&heap);
    }

    #[test]
    fn names_show_a_non_default_hasher() {
        assert_eq!(HashMap::<u64, u64>::default().name(), "HashMap");
        type Fixed = std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>;
        assert_eq!(
            HashMap::<u64, u64, Fixed>::default().name(),
            "HashMap<BuildHasherDefault<DefaultHasher>>"
        );
        assert_eq!(HashSet::<u64>::default().name(), "HashSet");
    }

    #[test]
    fn key_types_must_match() {
        assert_eq!(u64::from_key(5, KeyType::String { len: 12 }), None);
        assert_eq!(String::from_key(5, KeyType::U64), None);
        // 66 bits of digits: the first holds the top 4 bits only.
        assert_eq!(key_string(u64::MAX, 11), "P__________");
        let keys: HashSet<String> = (0..10_000u64).map(|k| key_string(k << 40, 11)).collect();
        assert_eq!(keys.len(), 10_000);
    }
}
