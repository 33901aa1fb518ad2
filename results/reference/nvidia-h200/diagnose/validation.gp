set terminal pngcairo size 900,700
set output 'validation.png'
set logscale xy
set xlabel 'measured kernel time (ms)'
set ylabel 'predicted busy time of the unit (ms)'
set title 'atomlab diagnose: predicted against measured (bottleneck rows should lie on the diagonal)'
set key top left
plot x title 'predicted = measured' lc rgb 'gray', \
  'validation.dat' index 0 using 1:($3 == 1 ? $2 : 1/0) title 'shared, bottleneck' pt 7 lc rgb 'blue', \
  '' index 0 using 1:($3 == 0 ? $2 : 1/0) title 'shared, other' pt 6 lc rgb 'blue', \
  '' index 1 using 1:($3 == 1 ? $2 : 1/0) title 'L2, bottleneck' pt 5 lc rgb 'red', \
  '' index 1 using 1:($3 == 0 ? $2 : 1/0) title 'L2, other' pt 4 lc rgb 'red'
