# swatomic-fig8-mb1: drawn by `atomlab plot`; run `gnuplot swatomic-fig8-mb1.gp` in this folder to redraw.
reset
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,700 font ",11" noenhanced
} else {
  set terminal png size 900,700 noenhanced
}
set output "swatomic-fig8-mb1.png"
set title "Figure 8: micro-benchmark 1 (atomic only)\nNVIDIA H200 (opencl)" noenhanced
set datafile missing '?'
set key top left
set grid
set logscale x 2
set xlabel 'work-groups (the coordinator included)'
set ylabel 'ms per launch'
set logscale y 10 # the variants differ by orders of magnitude
plot 'swatomic.dat' using 1:2 title 'system' with linespoints, '' using 1:3 title 'warp-aggregated' with linespoints, '' using 1:4 title 'software' with linespoints
set terminal svg size 900,700 font ",11" noenhanced
set output "swatomic-fig8-mb1.svg"
replot
unset output
