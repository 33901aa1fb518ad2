/* Shared pieces of the command-line front end. Only cli/ may exit. */
#ifndef ATOMLAB_CLI_H
#define ATOMLAB_CLI_H

#include <stdio.h>

#include "atomlab.h"

/** Exit codes: ok, a measurement failed, bad usage. */
enum { EXIT_OK = 0, EXIT_MEASURE = 1, EXIT_USAGE = 2 };

/** A command: `atomlab <name> ...`. */
struct cli_command {
  const char *name;
  const char *summary;
  int (*fn)(int argc, char **argv);
};

/** argv[0] of main: how to run this binary again (report runs rmw and plot with it). */
extern const char *cli_argv0;

/** Prints "error: ..." to stderr and exits with EXIT_USAGE. */
void die_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/** Prints "error: ..." to stderr and exits with EXIT_MEASURE. */
void die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/** Opens the device --device/--backend ask for (or the best one); dies with a clear message. */
atl_context_t cli_open_device(const char *device, const char *backend);

/** Fills the run metadata (version, commit, date, command line, device). */
void cli_fill_meta(atl_context_t ctx, int argc, char **argv, struct atl_run_meta *meta);

/** Writes @p len bytes to @p path through a temporary name and rename(2); 0 or -1. */
int cli_write_text(const char *path, const char *text, size_t len);

/** Prints the metric texts of @p command (docs/metrics.md, section "describe COMMAND"); the exit status. */
int cli_describe(const char *command);

int cmd_devices(int argc, char **argv);
int cmd_rmw(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
