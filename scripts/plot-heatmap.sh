#!/usr/bin/env bash
# Heatmaps of an `atomlab rmw` CSV in the style of the seed 003 figures:
# contention on x, padding on y (both log2), throughput as a log colour scale,
# one PNG per pattern. Usage: plot-heatmap.sh RESULTS.csv OUTDIR [OP] [TITLE]
set -euo pipefail
csv=${1:?usage: plot-heatmap.sh RESULTS.csv OUTDIR [OP] [TITLE]}
outdir=${2:?usage: plot-heatmap.sh RESULTS.csv OUTDIR [OP] [TITLE]}
op=${3:-fetch_add}
title=${4:-}
command -v gnuplot >/dev/null || { echo "error: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
mkdir -p "$outdir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for pattern in contiguous cross-warp branched random; do
  # columns: 1 pattern 2 op 3 type 4 space 5 result 6 contention 7 padding 13 status 14 verified 25 gops
  awk -F, -v p="$pattern" -v o="$op" 'NR > 1 && $1 == p && $2 == o && $3 == "u32" && $4 == "global" &&
      $5 == "unused" && $13 == "ok" && $14 == 1 { print log($6)/log(2), log($7)/log(2), $25 }' "$csv" >"$tmp/$pattern.dat"
  [ -s "$tmp/$pattern.dat" ] || continue
  xlabel="contention (threads per word)"
  gnuplot <<GP
set terminal pngcairo size 900,700 font ",11"
set output "$outdir/heatmap-$op-$pattern.png"
set title "$title $op, $pattern (Gop/s, verified rows)" noenhanced
set xlabel "$xlabel"
set ylabel "padding (words between targets)"
set logscale cb
set cblabel "Gop/s"
set palette rgbformulae 33,13,10
set xtics 1
set ytics 1
set format x "2^{%g}"
set format y "2^{%g}"
set size ratio -1
set autoscale xfix
set autoscale yfix
set offsets 0.5, 0.5, 0.5, 0.5
plot "$tmp/$pattern.dat" using 1:2:3 with image notitle, \
     "" using 1:2:(sprintf("%.3g", \$3)) with labels font ",7" notitle
GP
  echo "$outdir/heatmap-$op-$pattern.png"
done
