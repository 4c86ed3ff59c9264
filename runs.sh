#!/bin/bash
# Ten runs of `rtcompare bench --baseline HEAD` at its defaults on the m34 demo crate: three
# unchanged benchmarks and one with 10 % more steps at head.
cd /work/scratch/m34/demo
for i in $(seq 1 10); do
  s=$(date +%s.%N)
  CARGO_TARGET_DIR=tgt /work/wt-34/target/release/rtcompare bench --baseline HEAD --json run$i.json > run$i.out 2> run$i.err
  code=$?
  e=$(date +%s.%N)
  echo "run $i exit $code $(echo "$e - $s" | bc) s"
  grep -E "^(same|changed)" run$i.out
done
