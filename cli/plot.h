/* What `atomlab plot` shares between result files (cmd-plot.c), app files
 * (plot-app.c), seed 000's figures (plot-swatomic.c) and seed 002's case
 * study (plot-smem-case.c): the gnuplot script frame, finding and running
 * gnuplot (plot-frame.c), and the entry points cmd-plot.c calls. */
#ifndef ATL_CLI_PLOT_H
#define ATL_CLI_PLOT_H

#include <stdio.h>

/** Writes "NAME.EXT" as a gnuplot string (escape.h: a name never leaves the quotes). */
void plot_gp_file(FILE *gp, const char *name, const char *ext);
/** The first line of a .dat file, a comment naming the figure, its result file and the device (escaped). */
void plot_dat_head(FILE *dat, const char *name, const char *path, const char *device);
/** The head of every script: reset, the terminal (PNG, else SVG), the output and the title
 *  (@p title and @p device come from the data: written as escaped gnuplot strings). */
void plot_gp_head(FILE *gp, const char *name, const char *title, const char *device, int png);
/** The tail: a replot into SVG when both formats are asked for, then the output closed. */
void plot_gp_tail(FILE *gp, const char *name, int png, int svg);
/** gnuplot from ATL_GNUPLOT or PATH, NULL when there is none to run. */
const char *plot_find_gnuplot(char *buf, size_t len);
/** 1 if @p path is a regular file with content. */
int plot_file_nonempty(const char *path);
/** Writes a text file built in memory (through a temporary name), frees @p text; exits on failure. */
void plot_write_text(const char *path, char *text, size_t len);
/** The most seconds one gnuplot may run (--timeout; 60 unless set). */
void plot_set_timeout(double seconds);
/** Runs DIR/NAME.gp and prints the images drawn (the script's path without gnuplot); returns the images missing. */
int plot_draw(const char *gnuplot, const char *dir, const char *name, int png, int svg);
/**
 * The figures of an app result file (`atomlab app ...`, "kind": "app"):
 * returns -1 if @p set is not one, else the images gnuplot failed to draw
 * (after printing each path drawn).
 */
int plot_app_file(const struct atl_result_set *set, const char *path, const char *dir, int png, int svg);

/**
 * Seed 000's figures from an `atomlab app swatomic --experiment` file:
 * returns -1 if @p set is not one, else the exit status.
 */
int plot_swatomic(const struct atl_result_set *set, const char *path, const char *dir, int png, int svg);

/**
 * The histogram case study's figures from a case-study folder (holding
 * predict.csv or hist-case.csv, as `atomlab model case-summary` reads it):
 * returns -1 if @p path is not one, else the exit status.
 */
int plot_smem_case(const char *path, const char *dir, int png, int svg);

#endif
