set terminal pngcairo size 1600,700 font ",9" noenhanced
set output 'scatter-shapes.png'
set title 'atomlab app scatter, auto against the best variant and PyTorch''s best op (NVIDIA H200)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'speed ratio (other ms / auto ms)'
set xtics rotate by 90 right
set grid ytics
set key top left
set logscale y 10
set yrange [*:*]
plot 'scatter-shapes.dat' using 2:xtic(1) title 'best variant / auto', '' using 3 title 'PyTorch best / auto'
