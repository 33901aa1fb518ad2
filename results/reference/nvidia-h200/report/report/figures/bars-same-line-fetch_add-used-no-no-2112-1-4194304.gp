# bars-same-line-fetch_add-used-no-no-2112-1-4194304: drawn by `atomlab plot`; run `gnuplot bars-same-line-fetch_add-used-no-no-2112-1-4194304.gp` in this folder to redraw.
reset
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,700 font ",11" noenhanced
} else {
  set terminal png size 900,700 noenhanced
}
set output 'bars-same-line-fetch_add-used-no-no-2112-1-4194304.png'
set title 'same-line fetch_add used no no 2112 1 wg=256 4194304' . "\n" . 'NVIDIA H200' noenhanced
set ylabel "Gop/s (median, IQR bars)"
set xlabel "strategy"
set yrange [0:*]
set xrange [-0.6:7.6]
set boxwidth 0.7
set style fill solid 0.6
set grid ytics
set xtics rotate by -30
plot 'bars-same-line-fetch_add-used-no-no-2112-1-4194304.dat' using 1:3:xtic(2) with boxes notitle, \
     "" using 1:3:4:5 with yerrorbars pointtype 0 linecolor rgb "black" notitle
set terminal svg size 900,700 font ",11" noenhanced
set output 'bars-same-line-fetch_add-used-no-no-2112-1-4194304.svg'
replot
unset output
