#!/usr/bin/env bash
# Summarises measure.sh's comparisons.tsv into docs/background.md's table: per pair, kind and tool,
# how many comparisons gave a signal (rtcompare: faster or slower; hyperfine: its "± times
# faster" range excludes 1; for the 5 % pair only signals in the right direction, B slower,
# count), and the median pairs and wall seconds per comparison.
set -euo pipefail
TSV=${1:-target/measure-cli/comparisons.tsv}
echo "| pair | comparison | tool | signals | median pairs (rtcompare) | median wall per comparison | median ratio B/A |"
echo "|---|---|---|---|---|---|---|"
for pair in cpu short; do
    for kind in aa five; do
        for tool in ours hyperfine; do
            awk -F'\t' -v p="$pair" -v k="$kind" -v t="$tool" '
                $1 == p && $2 == k && $4 == t {
                    n++
                    if (t == "ours") {
                        sig = (k == "aa") ? ($5 == "faster" || $5 == "slower") : ($5 == "slower")
                        pairs[n] = $6; wall[n] = $7; ratio[n] = $8
                    } else {
                        sig = (k == "aa") ? ($5 == "excludes_1") : ($5 == "excludes_1" && $7 > 1)
                        wall[n] = $6; ratio[n] = $7
                    }
                    s += sig
                }
                function median(a, n,   i, j, tmp) {
                    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                        if (a[j] + 0 < a[i] + 0) { tmp = a[i]; a[i] = a[j]; a[j] = tmp }
                    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
                }
                END {
                    if (n == 0) exit
                    name = (t == "ours") ? "rtcompare" : "hyperfine"
                    what = (k == "aa") ? "A/A" : "B 5 % slower"
                    mp = (t == "ours") ? sprintf("%.0f", median(pairs, n)) : "—"
                    printf "| %s | %s | %s | %d/%d | %s | %.1f s | %.4f |\n", p, what, name, s, n, mp, median(wall, n), median(ratio, n)
                }' "$TSV"
        done
    done
done
# Five identical commands: runs with any signal among the four comparisons.
awk -F'\t' '
    $1 == "five" { n[$4]++; if ($5 > 0) any[$4]++; calls[$4] += $5; wall[$4] = wall[$4] " " $6 }
    END {
        print ""
        print "| five identical commands (short pair) | runs | runs with any signal | signals in all | mean wall per run |"
        print "|---|---|---|---|---|"
        for (t in n) {
            split(wall[t], w, " "); s = 0; for (i in w) s += w[i]
            printf "| %s | %d | %d | %d | %.1f s |\n", (t == "ours") ? "rtcompare" : "hyperfine", n[t], any[t] + 0, calls[t] + 0, s / n[t]
        }
    }' "$TSV"
