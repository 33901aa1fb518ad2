/* What the figure writers of atl_plot share: one call's state (options,
 * gnuplot, the reason of a failure), the gnuplot script frame, writing and
 * drawing a figure (frame.c), and the writers of each kind of file that
 * plot.c tries in turn. */
#ifndef ATOMLAB_PLOT_INTERNAL_H
#define ATOMLAB_PLOT_INTERNAL_H

#include <stdio.h>

#include "atomlab.h"

/** One atl_plot() call. */
struct atl__plot {
  int png, svg;
  double timeout;
  atl_plot_notify notify;
  void *arg;
  const char *gnuplot; /**< NULL: there is none to run */
  char gnuplot_buf[4096];
  int gave_up;         /**< set by the first timeout: a gnuplot that hung once would hang for every figure */
  size_t failed;       /**< images not drawn */
  int bad_folder;
  char *why;
  size_t why_len;
};

/** Tells the caller one line (printf-style). */
void atl__plot_say(struct atl__plot *p, enum atl_plot_event ev, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/**
 * Where no gnuplot was found, tells the caller so: "wrote WHAT to DIR" (the
 * data and scripts, drawable later), with @p hint how to draw them there.
 */
void atl__plot_no_gnuplot(struct atl__plot *p, const char *dir, const char *what, int hint);

/** Puts the reason into p->why and returns @p code. */
int atl__plot_fail(struct atl__plot *p, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Writes "NAME.EXT" as a gnuplot string (escape.h: a name never leaves the quotes). */
void atl__plot_gp_file(FILE *gp, const char *name, const char *ext);
/** The first line of a .dat file, a comment naming the figure, its result file and the device (escaped). */
void atl__plot_dat_head(FILE *dat, const char *name, const char *path, const char *device);
/** The head of every script: reset, the terminal (PNG, else SVG), the output and the title
 *  (@p title and @p device come from the data: written as escaped gnuplot strings). */
void atl__plot_gp_head(FILE *gp, const char *name, const char *title, const char *device, int png);
/** The tail: a replot into SVG when both formats are asked for, then the output closed. */
void atl__plot_gp_tail(FILE *gp, const char *name, int png, int svg);
/** gnuplot from ATL_GNUPLOT (made absolute) or PATH; NULL when there is none to run. */
const char *atl__plot_find_gnuplot(char *buf, size_t len);
/**
 * Starts one call of atl_plot or atl_fleet_plot: @p p from the options @p o (NULL: the defaults), @p why emptied,
 * and the output folder @p dir checked: 0, or ATL_EINVAL (bad_folder set) where @p dir is a file.
 */
int atl__plot_start(struct atl__plot *p, const struct atl_plot_options *o, const char *dir, char *why,
                    size_t why_len);
/** Ends the call: what failed into @p out (where not NULL); returns @p rc. */
int atl__plot_finish(const struct atl__plot *p, struct atl_plot_outcome *out, int rc);
/** Creates the figure folder @p dir if missing; 0 or ATL_EINVAL (bad_folder set). */
int atl__plot_mkdir(struct atl__plot *p, const char *dir);
/** Writes DIR/NAME.EXT from a text built in memory (through a temporary name) and frees it; 0 or ATL_EIO. */
int atl__plot_write(struct atl__plot *p, const char *dir, const char *name, const char *ext, char *text, size_t len);
/** A figure's two texts, its data (.dat) and its gnuplot script (.gp), built in memory. */
struct atl__plot_texts {
  FILE *dat, *gp; /**< write the texts here */
  char *dat_text, *gp_text;
  size_t dat_len, gp_len;
};

/** Opens both streams: 0, or ATL_ENOMEM through atl__plot_fail (nothing left open). */
int atl__plot_texts_open(struct atl__plot *p, struct atl__plot_texts *t);

/**
 * Closes both streams and writes DIR/NAME.dat then DIR/NAME.gp
 * (atl__plot_write); @p failed (out of memory while building them) writes
 * neither and fails with ATL_ENOMEM. The texts are freed either way.
 */
int atl__plot_texts_write(struct atl__plot *p, struct atl__plot_texts *t, const char *dir, const char *name,
                          int failed);

/** Runs DIR/NAME.gp, tells each image drawn (the script's path without gnuplot); counts those missing in p->failed. */
void atl__plot_draw(struct atl__plot *p, const char *dir, const char *name);

/* The writers of each kind: 1 if @p set (or @p path) is not theirs, else 0 or a negative ATL_E* code. */
int atl__plot_app(struct atl__plot *p, const struct atl_result_set *set, const char *path, const char *dir);
int atl__plot_swatomic(struct atl__plot *p, const struct atl_result_set *set, const char *path, const char *dir);
int atl__plot_smem_case(struct atl__plot *p, const char *path, const char *dir);

#endif
