# The histogram case study's plots (seed 002, Figures 3-5) from the .dat files
# scripts/smem-case-report.py writes: gnuplot -e "dir='DIR'; wgs='128 256 512 1024'" scripts/smem-case.gp
# Each figure is drawn twice, PNG (pngcairo where built in, else png) and SVG.
if (!exists("dir")) dir = "."
if (!exists("wgs")) wgs = "128 256 512 1024"
if (!exists("figs")) figs = "util speedup pred" # a figure without data would stop the whole script
nw = words(wgs)
panels = "solid/ATOMS.ADD uniform/ATOMS.ADD solid/ATOMS.POPC.INC uniform/ATOMS.POPC.INC"

do for [fmt in "png svg"] {
  do for [fig in figs] {
    if (fmt eq "png") {
      if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
        set terminal pngcairo size 1200,900 font ",10" noenhanced
      } else {
        set terminal png size 1200,900 noenhanced
      }
    } else {
      set terminal svg size 1200,900 font ",10" noenhanced
    }
    set output sprintf("%s/smem-case-%s.%s", dir, fig, fmt)
    reset
    set datafile missing "NaN"
    set key top left font ",8"
    set grid
    if (fig eq "pred") {
      set title "Predicted atomic busy time B against the measured kernel time (ncu, same launch)"
      set logscale xy
      set xlabel "measured kernel time (us)"
      set ylabel "predicted busy time B (us)"
      plot dir."/smem-case-pred.dat" index 0 using 1:2 with points pt 7 ps 0.6 title "verdict: bottleneck", \
           "" index 1 using 1:2 with points pt 6 ps 0.6 title "not a bottleneck", \
           x with lines dt 2 lc rgb "black" title "B = measured"
    } else {
      set multiplot layout 2,2 title (fig eq "util" ? \
        "Estimated utilization of the shared-memory atomic unit (histogram: solid lines, histogram2: dashed)" : \
        "Speedup of histogram2 (Listing 2) over histogram (Listing 1)")
      set logscale x 2
      set format x "2^%L"
      set xlabel "image size (pixels)"
      set ylabel (fig eq "util" ? "U" : "speedup")
      if (fig eq "util") { set yrange [0:*] }
      do for [p = 0:3] {
        set title word(panels, p + 1)
        if (fig eq "util") {
          plot for [i = 1:nw] dir."/smem-case-util.dat" index p using 1:(column(i + 1)) with linespoints lt i dt 1 \
                 title "histogram wg ".word(wgs, i), \
               for [i = 1:nw] "" index p using 1:(column(nw + i + 1)) with linespoints lt i dt 2 \
                 title "histogram2 wg ".word(wgs, i), \
               0.8 with lines lc rgb "red" dt 3 title "bottleneck threshold 0.8"
        } else {
          plot for [i = 1:nw] dir."/smem-case-speedup.dat" index p using 1:(column(i + 1)) with linespoints lt i \
                 title "wg ".word(wgs, i), \
               1 with lines lc rgb "red" dt 3 notitle
        }
      }
      unset multiplot
    }
    set output
  }
}
