# bars-histogram-rgba-skewed: drawn by `atomlab plot`; run `gnuplot bars-histogram-rgba-skewed.gp` in this folder to redraw.
reset
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,700 font ",11" noenhanced
} else {
  set terminal png size 900,700 noenhanced
}
set output "bars-histogram-rgba-skewed.png"
set title "atomlab app histogram: rgba/skewed\nNVIDIA H100 80GB HBM3 (cuda)" noenhanced
set ylabel "GB/s (median, IQR bars)"
set xlabel "variant"
set yrange [0:*]
set xrange [-0.6:9.6]
set boxwidth 0.7
set style fill solid 0.6
set grid ytics
set xtics rotate by -30
set arrow from graph 0, first 3033.58 to graph 1, first 3033.58 nohead dashtype 2 linecolor rgb "red"
set label "read ceiling" at graph 0.01, first 3033.58 offset 0,0.6 textcolor rgb "red"
plot "bars-histogram-rgba-skewed.dat" using 1:3:xtic(2) with boxes notitle, \
     "" using 1:3:4:5 with yerrorbars pointtype 0 linecolor rgb "black" notitle
set terminal svg size 900,700 font ",11" noenhanced
set output "bars-histogram-rgba-skewed.svg"
replot
unset output
