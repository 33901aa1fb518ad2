# swatomic-model: drawn by `atomlab plot`; run `gnuplot swatomic-model.gp` in this folder to redraw.
reset
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,700 font ",11" noenhanced
} else {
  set terminal png size 900,700 noenhanced
}
set output "swatomic-model.png"
set title "Speedup of the software atomic over the system atomic (atomic only)\nNVIDIA H200 (opencl)" noenhanced
set datafile missing '?'
set key top left
set grid
set logscale x 2
set xlabel 'work-groups (the coordinator included)'
set ylabel 't_system / t_software'
plot 'swatomic.dat' using 1:10 title 'predicted (equations 1-4)' with linespoints, '' using 1:11 title 'measured' with linespoints
set terminal svg size 900,700 font ",11" noenhanced
set output "swatomic-model.svg"
replot
unset output
