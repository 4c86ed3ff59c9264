#!/usr/bin/env bash
# Counts the core crate's public items as rustdoc's JSON lists them: the modules, structs,
# enums, unions, traits, functions and methods, constants, statics, type aliases and macros a
# user can reach from the crate root (fields, variants, trait implementations' methods and
# re-export lines are not counted; an item re-exported under a second path counts once;
# #[doc(hidden)] items, which rustdoc leaves out, are not counted). Prints the count and, with
# --by-module, the count under each top-level module.
#
#   scripts/public_items.sh [--by-module] [--max N]
#
# With --max N it fails (exit 1) when the count exceeds N: CI holds the surface to what it is,
# so that it stays within what a user can read (300).
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
# What a user can name: everything reachable from the crate root through public modules and
# re-exports (rustdoc has already left out private and #[doc(hidden)] items), each item once,
# with the public methods and associated items of the types and traits reached.
seen = set()
per_module = collections.Counter()

def count(item_id, module):
    if item_id in seen:
        return
    seen.add(item_id)
    per_module[module] += 1

def visit(item_id, module):
    item = index.get(str(item_id))
    if item is None or item["crate_id"] != 0:
        return
    kind, inner = next(iter(item["inner"].items()))
    if kind == "use":
        if inner.get("id") is not None and not inner.get("is_glob"):
            visit(inner["id"], module)
        return
    if kind == "module":
        if str(item_id) != str(doc["root"]):
            count(item_id, module)
        for child in inner["items"]:
            child_item = index.get(str(child))
            name = child_item.get("name") if child_item else None
            visit(child, name if module == "(root)" and child_item and "module" in child_item["inner"] else module)
        return
    if kind in ("struct", "enum", "union", "trait", "function", "constant", "static",
                "type_alias", "macro", "trait_alias"):
        count(item_id, module)
    for impl_id in inner.get("impls", []) if isinstance(inner, dict) else []:
        impl = index.get(str(impl_id))
        if impl is None or impl["inner"]["impl"].get("trait") is not None:
            continue
        for member in impl["inner"]["impl"]["items"]:
            m = index.get(str(member))
            if m is not None and m["visibility"] == "public":
                count(member, module)
    if kind == "trait":
        for member in inner["items"]:
            count(member, module)

visit(doc["root"], "(root)")
total = sum(per_module.values())
print(f"{total} public items in rtcompare")
if by_module:
    for name, n in per_module.most_common():
        print(f"  {name:12} {n}")
if limit and total > int(limit):
    print(f"more than the {limit} allowed: make the new items pub(crate), or lower the "
          "surface elsewhere", file=sys.stderr)
    sys.exit(1)
PY
