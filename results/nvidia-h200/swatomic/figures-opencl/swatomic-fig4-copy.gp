# swatomic-fig4-copy: drawn by `atomlab plot`; run `gnuplot swatomic-fig4-copy.gp` in this folder to redraw.
reset
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,700 font ",11" noenhanced
} else {
  set terminal png size 900,700 noenhanced
}
set output "swatomic-fig4-copy.png"
set title "Figure 4: copy kernel, system atomic\nNVIDIA H200 (opencl)" noenhanced
set datafile missing '?'
set key top left
set grid
set logscale x 2
set xlabel 'work-groups (the coordinator included)'
set ylabel 'ms per launch'
set logscale y 10 # the variants differ by orders of magnitude
plot 'swatomic.dat' using 1:2 title 'atomic only' with linespoints, '' using 1:5 title 'memory only' with linespoints, '' using 1:6 title 'both' with linespoints, '' using 1:9 title 'ideal (atomic + memory)' with linespoints dashtype 2
set terminal svg size 900,700 font ",11" noenhanced
set output "swatomic-fig4-copy.svg"
replot
unset output
