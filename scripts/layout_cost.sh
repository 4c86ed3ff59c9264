#!/usr/bin/env bash
# What a cross-revision run costs, before and after layouts became links and the two
# revisions one dependency build: cold and warm runs of `rtcompare bench` on two bench
# targets, each side's build, the layouts' linking and the measuring, with the machine's load.
#
#   scripts/layout_cost.sh OLD_RTCOMPARE NEW_RTCOMPARE OLD_CHECKOUT NEW_CHECKOUT [WORK]
#
# OLD_/NEW_RTCOMPARE: the `rtcompare` binaries to compare (built with `cargo build --release
# -p rtcompare-cli` at each commit); OLD_/NEW_CHECKOUT: the workspaces they were built from
# (their `criterion/` crate is the criterion the scratch crate's bench file runs on). WORK
# (default /tmp/rtcompare-layout-cost) holds the scratch repositories:
#   itertools-{old,new}: itertools 0.13.0 from cargo's registry cache, its 113-line criterion
#     bench file `tuple_combinations` on rtcompare-criterion renamed to criterion, committed,
#     then a change to its library committed on top (the baseline is HEAD~1);
#   base64-{old,new}: base64 0.23.1 from the registry (fetched if missing), its criterion
#     bench file `benchmarks` unmodified, only its criterion dependency table pointed at
#     rtcompare-criterion; its dev-dependencies (clap with derive, rstest, strum, rand) make
#     the bench target's dependency tree the largest of the three;
#   self-{old,new}: a clone of each checkout, its `harness` bench target compared with the
#     commit before (a one-line change to its library committed on top).
# Each run: 6 layouts, 5 pairs, one benchmark, a 30 s budget (the cost of a layout, not a
# verdict, is what is measured). Prints one line per run: seconds of the whole run and, from
# the JSON (and, for a binary that writes no `time`, from its stderr's stamped lines), of
# building each side, linking layouts and measuring, then `uptime`. SIDES="old" (or "new")
# runs one of the two only; TARGETS="base64" (any of itertools, base64, self) runs those only.
set -euo pipefail
old_bin=$1 new_bin=$2 old_src=$3 new_src=$4 work=${5:-/tmp/rtcompare-layout-cost}
registry=$(ls -d "$HOME"/.cargo/registry/src/*/itertools-0.13.0 | head -1)
mkdir -p "$work"

commit() { git -C "$1" add -A && git -C "$1" -c user.name=c -c user.email=c@c commit -qm "$2"; }

itertools_repo() { # DIR CRITERION_DIR
    local dir=$1 crit=$2
    rm -rf "$dir" && mkdir -p "$dir/benches"
    cp -r "$registry/src" "$dir/src"
    cp "$registry/benches/tuple_combinations.rs" "$dir/benches/"
    cat > "$dir/Cargo.toml" <<EOF
[package]
name = "itertools"
version = "0.13.0"
edition = "2018"
autotests = false
autoexamples = false
autobenches = false

[dependencies]
either = { version = "1.0", default-features = false }

[dev-dependencies]
criterion = { package = "rtcompare-criterion", path = "$crit" }

[features]
default = ["use_std"]
use_alloc = []
use_std = ["use_alloc", "either/use_std"]

[[bench]]
name = "tuple_combinations"
harness = false

[workspace]
EOF
    printf 'target\n' > "$dir/.gitignore"
    (cd "$dir" && cargo generate-lockfile --offline -q 2>/dev/null || cargo generate-lockfile -q)
    git -C "$dir" init -q && commit "$dir" baseline
    printf '\n/// A change to the library.\npub fn cost_probe() -> u32 { 1 }\n' >> "$dir/src/lib.rs"
    commit "$dir" head
}

base64_repo() { # DIR CRITERION_DIR
    local dir=$1 crit=$2 src
    src=$(ls -d "$HOME"/.cargo/registry/src/*/base64-0.23.1 2>/dev/null | head -1)
    if [ -z "$src" ]; then
        mkdir -p "$work/fetch/src" && : >"$work/fetch/src/lib.rs"
        printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nbase64 = "=0.23.1"\n' \
            >"$work/fetch/Cargo.toml"
        (cd "$work/fetch" && cargo fetch -q)
        src=$(ls -d "$HOME"/.cargo/registry/src/*/base64-0.23.1 | head -1)
    fi
    rm -rf "$dir" && cp -r "$src" "$dir"
    # The one change to the package: criterion's table names the layer (features kept).
    python3 "$(dirname "$0")/../criterion/scripts/to_layer.py" "$dir/Cargo.toml" "$crit" --workspace
    rm -f "$dir/Cargo.lock"
    printf 'target\n' >"$dir/.gitignore"
    (cd "$dir" && cargo generate-lockfile --offline -q 2>/dev/null || cargo generate-lockfile -q)
    git -C "$dir" init -q && commit "$dir" baseline
    printf '\n/// A change to the library.\npub fn cost_probe() -> u32 { 1 }\n' >> "$dir/src/lib.rs"
    commit "$dir" head
}

self_repo() { # DIR CHECKOUT
    rm -rf "$1" && git clone -q --no-checkout "$2" "$1"
    git -C "$1" checkout -q -b cost-probe "$(git -C "$2" rev-parse HEAD)"
    printf '\n/// A change to the library.\npub fn cost_probe() -> u32 { 1 }\n' >> "$1/src/lib.rs"
    commit "$1" head
}

run() { # LABEL BIN DIR BENCH FILTER
    local label=$1 bin=$2 dir=$3 bench=$4 filter=$5 t0 t1
    t0=$(date +%s.%N)
    (cd "$dir" && env -u CARGO_TARGET_DIR "$bin" bench --baseline HEAD~1 --bench "$bench" \
        --layouts 6 --pairs 5 --max-pairs 6 --budget 30s --exact \
        --no-step-summary --json "$work/$label.json" -- "$filter" > "$work/$label.out" \
        2> >(while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done \
             > "$work/$label.err")) \
        || { echo "$label failed: see $work/$label.err" >&2; tail -5 "$work/$label.err" >&2; return 1; }
    sleep 1 # the stderr stamper's last lines
    t1=$(date +%s.%N)
    python3 - "$work/$label.json" "$label" "$t0" "$t1" "$(uptime)" "$work/$label.err" <<'PY'
import json, sys
path, label, t0, t1, load, err = sys.argv[1:]
# Each build's seconds from the stamped stderr: from its "building bench" line to the next
# stage's first line.
stamps = [(float(l.split(" ", 1)[0]), l.split(" ", 1)[1]) for l in open(err) if " " in l]
starts = [i for i, (_, l) in enumerate(stamps) if l.startswith("building bench")]
ends = starts[1:] + [next(i for i, (_, l) in enumerate(stamps) if l.startswith("linking layout 1"))]
sides = [stamps[e][0] - stamps[s][0] for s, e in zip(starts, ends)]
j = json.load(open(path))
total = float(t1) - float(t0)
measure = sum(b["seconds"] for b in j["details"]["benchmarks"])
lay = j["layouts"]
t = j.get("time")
if t:
    per = t["relink_seconds"] / max(1, len(lay["seeds"]))
    print(f"{label}: total {total:.1f} s; build baseline {t['build_baseline_seconds']:.1f} s, "
          f"head {t['build_head_seconds']:.1f} s; {len(lay['seeds'])} layouts by "
          f"{lay['relinked_by']}: {t['relink_seconds']:.2f} s linking ({per:.2f} s a layout "
          f"of both builds), waited {t['relink_waited_seconds']:.2f} s; measuring {measure:.1f} s"
          f" | {load.strip()}")
else:
    # Before: layouts after the first were made while the pairs waited (`layouts.seconds`);
    # the builds and the first layout are the rest of the run.
    n = len(lay["seeds"])
    per = lay["seconds"] / max(1, n - 1)
    print(f"{label}: total {total:.1f} s; builds and first layout "
          f"{total - measure - lay['seconds']:.1f} s (baseline {sides[0]:.1f} s, head "
          f"{sides[1]:.1f} s); {n} layouts by cargo: "
          f"{lay['seconds']:.2f} s for layouts 2..{n} ({per:.2f} s a layout of both builds); "
          f"measuring {measure:.1f} s | {load.strip()}")
PY
}

targets=" ${TARGETS:-itertools base64 self} "
for side in ${SIDES:-old new}; do
    src=${side}_src
    [[ $targets == *" itertools "* ]] && itertools_repo "$work/itertools-$side" "${!src}/criterion"
    [[ $targets == *" base64 "* ]] && base64_repo "$work/base64-$side" "${!src}/criterion"
    [[ $targets == *" self "* ]] && self_repo "$work/self-$side" "${!src}"
done
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(date -u '+%Y-%m-%d %H:%M UTC')"
sides=${SIDES:-old new}
for side in $sides; do
    bin=${side}_bin
    if [[ $targets == *" itertools "* ]]; then
        run "itertools-$side-cold" "${!bin}" "$work/itertools-$side" tuple_combinations "tuple comb c1"
        run "itertools-$side-warm" "${!bin}" "$work/itertools-$side" tuple_combinations "tuple comb c1"
    fi
    if [[ $targets == *" base64 "* ]]; then
        run "base64-$side-cold" "${!bin}" "$work/base64-$side" benchmarks "encode_small_input/encode/50"
        run "base64-$side-warm" "${!bin}" "$work/base64-$side" benchmarks "encode_small_input/encode/50"
    fi
    if [[ $targets == *" self "* ]]; then
        run "self-$side-cold" "${!bin}" "$work/self-$side" harness "sum/1000"
        run "self-$side-warm" "${!bin}" "$work/self-$side" harness "sum/1000"
    fi
done
