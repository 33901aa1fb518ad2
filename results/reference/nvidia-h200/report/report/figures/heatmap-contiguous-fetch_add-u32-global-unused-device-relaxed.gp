# heatmap-contiguous-fetch_add-u32-global-unused-device-relaxed: drawn by `atomlab plot`; run `gnuplot heatmap-contiguous-fetch_add-u32-global-unused-device-relaxed.gp` in this folder to redraw.
reset
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,700 font ",11" noenhanced
} else {
  set terminal png size 900,700 noenhanced
}
set output 'heatmap-contiguous-fetch_add-u32-global-unused-device-relaxed.png'
set title 'contiguous fetch_add u32 global unused device relaxed wg=1024' . "\n" . 'NVIDIA H200' noenhanced
set xlabel "contention (threads per word)"
set ylabel "padding (words between targets)"
set cblabel "Gop/s (median)"
set logscale cb
set cbrange [2.69344:689.166]
set cbtics ("2.69" 2.69344, "10" 10, "100" 100, "689" 689.166)
set palette rgbformulae 33,13,10
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set xtics ("1" 0, "4" 1, "16" 2, "64" 3, "256" 4, "1024" 5)
set ytics ("1" 0, "4" 1, "16" 2, "64" 3, "256" 4, "1024" 5)
set style fill solid 1.0 noborder
plot 'heatmap-contiguous-fetch_add-u32-global-unused-device-relaxed.dat' using 1:2:(0.5):(0.5):5 with boxxyerror fillcolor palette notitle, \
     "" using 1:2:(sprintf("%.3g", $5)) with labels font ",9" notitle
set terminal svg size 900,700 font ",11" noenhanced
set output 'heatmap-contiguous-fetch_add-u32-global-unused-device-relaxed.svg'
replot
unset output
