#!/usr/bin/env bash
# Counts the core crate's public items as rustdoc's JSON lists them: modules, structs, enums,
# unions, traits, functions and methods, constants, statics, type aliases and macros that a
# user can name (fields, variants, trait implementations' methods and re-export lines are not
# counted; an item re-exported under a second path counts once). Prints the count and, with
# --by-module, the count under each top-level module.
#
#   scripts/public_items.sh [--by-module] [--max N]
#
# With --max N it fails (exit 1) when the count exceeds N: CI holds the surface to what it is,
# so that it can only shrink until it reaches its target of 300.
#
# rustdoc's JSON output is unstable; RUSTC_BOOTSTRAP=1 lets the stable toolchain write it.
# It is written to its own target directory, so the workspace's build is not disturbed.
set -euo pipefail
by_module=0
max=""
while [ $# -gt 0 ]; do
    case "$1" in
        --by-module) by_module=1 ;;
        --max) max=$2; shift ;;
        *) echo "usage: $0 [--by-module] [--max N]" >&2; exit 2 ;;
    esac
    shift
done
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}/public-items
RUSTC_BOOTSTRAP=1 RUSTDOCFLAGS="" cargo rustdoc -q --manifest-path "$root/Cargo.toml" \
    -p rtcompare --lib --target-dir "$target" -- -Z unstable-options --output-format json
python3 - "$target/doc/rtcompare.json" "$by_module" "$max" <<'PY'
import collections, json, sys
path, by_module, limit = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
doc = json.load(open(path))
index = doc["index"]
counted = {"module", "struct", "enum", "union", "trait", "function", "constant", "static",
           "type_alias", "macro", "assoc_const", "assoc_type", "trait_alias"}
# The module each item is documented under, from the paths rustdoc resolved; methods and
# associated items get their type's module through the impls that hold them.
module_of = {}
for item_id, p in doc["paths"].items():
    if p["crate_id"] == 0 and len(p["path"]) > 1:
        module_of[item_id] = p["path"][1] if len(p["path"]) > 2 else "(root)"
for item_id, item in index.items():
    inner = item["inner"]
    if "impl" in inner and inner["impl"].get("trait") is None:
        owner = inner["impl"]["for"].get("resolved_path", {}).get("id")
        for member in inner["impl"]["items"]:
            module_of.setdefault(str(member), module_of.get(str(owner), "(root)"))
    if "trait" in inner:
        for member in inner["trait"]["items"]:
            module_of.setdefault(str(member), module_of.get(item_id, "(root)"))
total = 0
per_module = collections.Counter()
for item_id, item in index.items():
    if item["crate_id"] != 0:
        continue
    kind = next(iter(item["inner"]))
    # Trait implementations' methods have "default" visibility: they are the trait's, not
    # new names.
    if kind not in counted or item["visibility"] != "public" and kind not in ("assoc_type", "assoc_const"):
        continue
    if kind in ("assoc_type", "assoc_const") and item_id not in module_of:
        continue
    if kind == "module" and item.get("name") is None:
        continue
    total += 1
    per_module[module_of.get(item_id, "(root)")] += 1
print(f"{total} public items in rtcompare")
if by_module:
    for name, n in per_module.most_common():
        print(f"  {name:12} {n}")
if limit and total > int(limit):
    print(f"more than the {limit} allowed: make the new items pub(crate), or lower the "
          "surface elsewhere", file=sys.stderr)
    sys.exit(1)
PY
