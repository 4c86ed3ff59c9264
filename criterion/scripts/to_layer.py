"""The one change a published crate's manifest gets to run its criterion bench files on
rtcompare-criterion: the `[dev-dependencies.criterion]` table's `version = ...` becomes the
layer, by path, renamed `criterion` (its features and the rest kept).

    python3 criterion/scripts/to_layer.py CARGO_TOML LAYER_DIR [--workspace]

With --workspace an empty `[workspace]` table is appended, so that the copy builds alone
wherever it sits. Fails when the manifest has no such table.
"""
import re
import sys

path, layer = sys.argv[1], sys.argv[2]
text = open(path).read()
text, n = re.subn(r'(\[[^\]]*dev-dependencies\.criterion\]\n)version = "[^"]*"\n',
                  r'\1package = "rtcompare-criterion"\npath = "' + layer + r'"\n', text)
if n != 1:
    sys.exit(f"{path}: no [dev-dependencies.criterion] table with a version")
if "--workspace" in sys.argv[3:]:
    text += "\n[workspace]\n"
open(path, "w").write(text)
