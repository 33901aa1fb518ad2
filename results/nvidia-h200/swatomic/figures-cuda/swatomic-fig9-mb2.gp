# swatomic-fig9-mb2: drawn by `atomlab plot`; run `gnuplot swatomic-fig9-mb2.gp` in this folder to redraw.
reset
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,700 font ",11" noenhanced
} else {
  set terminal png size 900,700 noenhanced
}
set output "swatomic-fig9-mb2.png"
set title "Figure 9: micro-benchmark 2 (atomic + memory transaction)\nNVIDIA H200 (cuda)" noenhanced
set datafile missing '?'
set key top left
set grid
set logscale x 2
set xlabel 'work-groups (the coordinator included)'
set ylabel 'ms per launch'
set logscale y 10 # the variants differ by orders of magnitude
plot 'swatomic.dat' using 1:6 title 'system' with linespoints, '' using 1:7 title 'warp-aggregated' with linespoints, '' using 1:8 title 'software' with linespoints
set terminal svg size 900,700 font ",11" noenhanced
set output "swatomic-fig9-mb2.svg"
replot
unset output
