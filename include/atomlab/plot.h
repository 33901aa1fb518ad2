/**
 * @file plot.h
 * The figures of a result file, drawn by gnuplot. Every figure is a .dat
 * (its data) and a .gp (its script) first, so a machine without gnuplot
 * still gets the numbers and anyone can redraw with `gnuplot NAME.gp`.
 * Rmw and strategy files give heatmaps, lines and bar charts; app files bar
 * charts per group; `app swatomic --experiment` files seed 000's figures; a
 * case-study folder (predict.csv or hist-case.csv) seed 002's.
 * The library prints nothing: what a caller shows (each image drawn, each
 * failure, warnings and notes) reaches it through atl_plot_options.notify.
 */
#ifndef ATOMLAB_PLOT_H
#define ATOMLAB_PLOT_H

#include "experimental.h" /* not the stable API */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What atl_plot() tells its caller as it goes. */
enum atl_plot_event {
  ATL_PLOT_IMAGE,   /**< the path of an image drawn (the script's path where there is no gnuplot) */
  ATL_PLOT_ERROR,   /**< a figure gnuplot did not draw, a timeout, a file that could not be written */
  ATL_PLOT_WARNING, /**< no gnuplot: the data and scripts are written, not the images */
  ATL_PLOT_NOTE     /**< rows left out of the figures */
};

/** Receives one line of text (no newline) of kind @p event. */
typedef void (*atl_plot_notify)(void *arg, enum atl_plot_event event, const char *text);

/** How atl_plot() draws. */
struct atl_plot_options {
  int png, svg;           /**< the image formats (both: the SVG is a replot of the PNG's script) */
  double timeout;         /**< seconds one gnuplot may run (then no further figure is drawn); 0: no limit */
  atl_plot_notify notify; /**< may be NULL */
  void *arg;              /**< passed to @p notify */
};

/** Defaults: PNG only, 60 s per gnuplot run, no notify. */
void atl_plot_options_init(struct atl_plot_options *o);

/** What became of an atl_plot() call beside its return code. */
struct atl_plot_outcome {
  size_t failed;  /**< images gnuplot did not draw (each named by an ATL_PLOT_ERROR event) */
  int bad_folder; /**< the error is about @p dir: it is a file, or it cannot be created */
};

/**
 * Draws the figures of @p path (a result file of any kind, or a case-study
 * folder) into the folder @p dir (created if missing; NULL: FILE-figures,
 * FILE the name of @p path without folder and extension). gnuplot is
 * ATL_GNUPLOT where set, else the one on PATH; without one the data and
 * scripts are still written. A stop request (stop.h) reaches a running
 * gnuplot and starts no further one.
 * Returns 0 (see @p out->failed for images not drawn), ATL_EINVAL when
 * @p path is not an atomlab result or @p dir cannot be the folder
 * (@p out->bad_folder), ATL_ENOTSUP when no row can be drawn, ATL_EIO when
 * a file cannot be written, ATL_ENOMEM; the reason in @p why.
 */
int atl_plot(const char *path, const char *dir, const struct atl_plot_options *o, struct atl_plot_outcome *out,
             char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
