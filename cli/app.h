/* Shared pieces of the `atomlab app` commands (one file per app or group). */
#ifndef ATOMLAB_CLI_APP_H
#define ATOMLAB_CLI_APP_H

#include <getopt.h>
#include <stdint.h>

#include "atomlab/app.h"
#include "cli.h"

/** Options every app takes. */
struct app_opts {
  const char *backend, *device, *out_path;
  int format;          /**< -1 until given: then from -o's extension, else table */
  int quiet;
  uint32_t wg_size;    /**< 0: the app's default (the library's defaults) */
  int samples_given;
  int table_printed;   /**< the app printed its own table: app_finish prints none */
  int failed;          /**< an app call failed (app_check): exit 1 after its rows are written */
  struct atl_app_timing timing;
};

/** Option codes below this are the common ones; apps number theirs from APP_OPT_FIRST. */
enum { APP_OPT_FIRST = 400 };

/** Called for each option an app added to the common ones. */
typedef void (*app_option_fn)(int code, const char *arg, void *user);

/**
 * Parses argv (argv[0] is the app's name) with the common options plus
 * @p extra (terminated by a zero entry). Prints @p usage and returns 1 on
 * --help; dies with exit 2 on bad input.
 */
int app_parse(int argc, char **argv, const char *usage, const struct option *extra, app_option_fn fn, void *user,
              struct app_opts *o);

/** Opens the device and fills the set's metadata. */
atl_context_t app_open(struct app_opts *o, struct atl_result_set *set, int argc, char **argv);

/** Writes the output (-o file and/or a table on stdout); returns the exit code (1 if a row failed). */
int app_finish(struct app_opts *o, struct atl_result_set *set, atl_context_t ctx);

/** Strict whole number from @p lo to @p hi, or exit 2 naming @p opt. */
uint64_t app_number(const char *opt, const char *text, uint64_t lo, uint64_t hi);

/**
 * Work-groups of @p wg_size the device holds co-resident (occupancy
 * discovery; exits on failure). The test hook ATL_SW_ASSUME_CORESIDENT=N
 * overrides it: PoCL's discovery often finds 1 on a busy 2-core machine
 * although its thread pool runs 2, and the software atomic's tests need 2
 * (a wrong assumption ends as status deadlock, not a hang).
 */
uint32_t app_coresident(atl_context_t ctx, uint32_t wg_size);

/** Prints "error: WHAT failed: reason" and marks @p o failed if @p err is an error; the rows are kept. */
void app_check(struct app_opts *o, atl_context_t ctx, int err, const char *what);

/**
 * Completes @p params of @p app for the open device (the library's
 * defaults fill what the user left 0) and checks them with the library:
 * a refusal exits 2 with the library's reason, its parameter names written
 * as options (wg_size as --wg-size; @p flags maps the names that differ,
 * pairs ending in NULL, or NULL).
 */
void app_prepare(const struct atl_app_info *app, atl_context_t ctx, void *params, const char *const *flags);

/** Runs @p app through the registry; a failure is reported (app_check) and its rows kept. */
void app_run(struct app_opts *o, const struct atl_app_info *app, atl_context_t ctx, const void *params,
             struct atl_result_set *set);

/** "N grid(s)", or "the default grids" for 0 (the library picks them from the co-resident count). */
const char *app_grids(unsigned ngroups);

/** 1 where the environment variable @p name is set to anything but "" or "0" (the apps' test hooks). */
int app_hook(const char *name);

/** The common options' help text. */
extern const char app_common_usage[];

/** The command line of an app whose registry entry lists its options (cli/app-generic.c). */
int app_generic(const struct atl_app_info *app, int argc, char **argv);

/* The apps with a parser of their own: lists of names, files, their own printing. */
int app_access_table(int argc, char **argv);
int app_histogram(int argc, char **argv);
int app_swatomic(int argc, char **argv);
int app_swapps(int argc, char **argv);

#endif
