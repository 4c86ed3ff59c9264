#!/usr/bin/env bash
# Published crates' own criterion bench files, unmodified, on rtcompare-criterion: each crate
# is fetched from the registry at a pinned version, copied to a temporary directory, and only
# its criterion dependency line is changed (to this workspace's rtcompare-criterion, renamed
# `criterion`, its features kept). Then, per bench file: it builds, `cargo test --benches` runs
# each benchmark once, `--list` names as many benchmarks as criterion's listing, and
# `cargo bench -- --output-format bencher FILTER` prints a libtest line per benchmark.
#
#   bash criterion/scripts/published.sh            # all
#   bash criterion/scripts/published.sh semver     # one
#
# With semver, it then commits the copy, adds to `Version::from_str` a checksum of the text
# that nothing uses (the commit that slows one benchmarked function), and runs
# `rtcompare bench --baseline HEAD --bench parse` at its defaults (the workspace's release
# build of the tool, built first).
#
# The temporary directory is removed on exit, error or Ctrl-C. Needs the crates.io registry.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rtcompare-published.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
export CARGO_TARGET_DIR="$work/target"

# crate version bench-target benchmarks-criterion-lists filter-for-the-measured-run
cases=(
    "semver 1.0.28 parse 3 ."
    "crc32fast 1.5.6 bench 26 ^(baseline|specialized)/(16|1024)$"
    "bytecount 0.6.9 bench 225 ^(num_chars|count)/(naive|hyper|ref)/(10|20)$"
    "string-interner 0.20.0 bench 27 ^(resolve|get)/"
    "base64 0.23.1 benchmarks 104 ^(encode|decode)_small_input/(encode|decode)/(3|50)$"
    "itertools 0.15.0 bench1 39 ^(zipdot|kmerge)"
    "itertools 0.15.0 k_smallest 54 ^k-smallest/asc/(strict|relaxed)/20/[78]$"
    "itertools 0.15.0 tuple_combinations 8 ."
)

mkdir -p "$work/fetch/src"
: >"$work/fetch/src/lib.rs"
{
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n'
    for c in "${cases[@]}"; do
        read -r name version _ <<<"$c"
        printf '%s = "=%s"\n' "$name" "$version"
    done | sort -u
} >"$work/fetch/Cargo.toml"
(cd "$work/fetch" && cargo fetch -q)
registry=$(dirname "$(find "$HOME/.cargo/registry/src" -maxdepth 2 -type d -name 'semver-1.0.28' | head -1)")

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(date -u '+%Y-%m-%d %H:%M UTC')"
for c in "${cases[@]}"; do
    read -r name version bench listed filter <<<"$c"
    if [ "${1:-$name}" != "$name" ]; then continue; fi
    dir="$work/$name"
    if [ ! -d "$dir" ]; then
        cp -r "$registry/$name-$version" "$dir"
        # The one change: the criterion table's `version = …` becomes the layer, by path.
        python3 "$repo/criterion/scripts/to_layer.py" "$dir/Cargo.toml" "$repo/criterion"
        rm -f "$dir/Cargo.lock"
    fi
    echo
    echo "== $name $version, benches/$bench.rs"
    (cd "$dir" && cargo bench --no-run -q --bench "$bench" 2>&1 | grep -E '^(error|warning: unused)' | head -20) || true
    exe=$(cd "$dir" && cargo bench --no-run -q --bench "$bench" --message-format=json 2>/dev/null |
        grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4)
    if [ -z "$exe" ]; then
        echo "build: FAILED"
        continue
    fi
    echo "build: ok"
    out=$(cd "$dir" && "$exe" 2>&1 | tail -1)
    echo "cargo test --benches (each once): $out"
    count=$(cd "$dir" && "$exe" --bench --list 2>/dev/null | grep -c ': benchmark$' || true)
    echo "--list: $count benchmarks (criterion lists $listed), the first: $(cd "$dir" &&
        "$exe" --bench --list 2>/dev/null | head -4 | sed 's/: benchmark$//' | paste -sd'|')"
    start=$(date +%s%N)
    (cd "$dir" && "$exe" --bench --output-format bencher "$filter" 2>/dev/null | grep '^test ' | head -8) || true
    echo "--output-format bencher '$filter': $((($(date +%s%N) - start) / 1000000)) ms"
    if [ "$name" = crc32fast ]; then
        # The table, with the groups' byte throughputs as rates, and what stderr says.
        (cd "$dir" && "$exe" --bench "$filter" 2>&1 | grep -v '^\[')
    fi
done

if [ "${1:-semver}" = semver ]; then
    (cd "$repo" && env -u CARGO_TARGET_DIR cargo build --release -q -p rtcompare-cli)
    tool="$repo/target/release/rtcompare"
    dir="$work/semver"
    (
        cd "$dir"
        printf 'target\n' >.gitignore
        git init -q && git add . &&
            git -c user.name=rtcompare -c user.email=rtcompare@example.invalid commit -qm baseline
        python3 - src/parse.rs <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
old = "        let mut pos = Position::Major;\n        let (major, text) = numeric_identifier(text, pos)?;"
new = ("        let mut sum = 0u64;\n"
       "        for b in core::hint::black_box(text).bytes() {\n"
       "            sum = sum.wrapping_mul(31).wrapping_add(u64::from(b));\n"
       "        }\n"
       "        core::hint::black_box(sum);\n" + old)
assert text.count(old) == 1, "Version::from_str changed shape"
open(path, "w").write(text.replace(old, new))
PY
        echo
        echo "== semver: rtcompare bench --baseline HEAD --bench parse (Version::from_str slowed)"
        start=$(date +%s%N)
        "$tool" bench --baseline HEAD --bench parse 2>/dev/null || true
        echo "wall: $((($(date +%s%N) - start) / 1000000)) ms (both builds included)"
    )
fi

