/* Shared pieces of the command-line front end. Only cli/ may exit. */
#ifndef ATOMLAB_CLI_H
#define ATOMLAB_CLI_H

#include <stdio.h>

#include "atomlab.h"

struct option; /* from getopt.h, for cli_sweep_parse */

/** Exit codes: ok, a measurement failed, bad usage. */
enum { EXIT_OK = 0, EXIT_MEASURE = 1, EXIT_USAGE = 2 };

/** The registered apps' names, comma separated (the help of `app`). */
const char *cli_app_names(void);

/** A command: `atomlab <name> ...`. */
struct cli_command {
  const char *name;
  const char *summary;
  int (*fn)(int argc, char **argv);
};

/** argv[0] of main: how to run this binary again (report runs rmw and plot with it). */
extern const char *cli_argv0;

#if defined(__GNUC__) /* the compiler checks the format and knows they do not return */
#define CLI_DIES_PRINTF __attribute__((format(printf, 1, 2), noreturn))
#else
#define CLI_DIES_PRINTF
#endif
/** Prints "error: ..." to stderr and exits with EXIT_USAGE. */
void die_usage(const char *fmt, ...) CLI_DIES_PRINTF;
/** Prints "error: ..." to stderr and exits with EXIT_MEASURE. */
void die(const char *fmt, ...) CLI_DIES_PRINTF;

/** Opens the device --device/--backend ask for (or the best one); dies with a clear message. */
atl_context_t cli_open_device(const char *device, const char *backend);

/**
 * Opens every device --device names: one (as cli_open_device) or, for "all"
 * or a comma list, each device of the list in a context of its own. Dies
 * (exit 2, before anything is measured) on an unknown, empty or repeated
 * item. Returns how many contexts were written to @p ctxs (at most @p max).
 */
size_t cli_open_devices(const char *device, const char *backend, atl_context_t *ctxs, size_t max);


/**
 * Dies (exit 2, before anything is measured) unless @p path can be an output
 * file, is none of the inputs named so far (cli_note_input()) and no other
 * atomlab process writes it; then holds its lock (cli_lock_output()) until
 * the command exits. @p opt names the option.
 */
void cli_check_output(const char *opt, const char *path);

/**
 * Notes that the command reads @p path (@p opt: its option, or "" for an
 * argument); dies (exit 2) where an output checked so far is the same file.
 * --resume FILE is not noted: rmw rewrites it with -o FILE by design.
 */
void cli_note_input(const char *opt, const char *path);

/**
 * Claims output @p path (a file or a folder, checked otherwise by the caller;
 * @p shown: its name in messages): dies (exit 2) where it is one of the
 * inputs noted so far or another atomlab process holds its lock; else holds
 * the lock until the command exits.
 */
void cli_claim_output(const char *opt, const char *path, const char *shown);

/**
 * The format of output file @p path from its extension (.json, .csv, .txt);
 * a name without one (/dev/null, a FIFO) takes @p fallback. Dies (exit 2) on
 * any other extension.
 */
int cli_output_format(const char *opt, const char *path, int fallback);

/**
 * Writes @p path through @p writer. Prints "wrote WHAT to PATH" only when it
 * was written; otherwise the content goes to a rescue file (or, with nowhere
 * to write, to stderr) and the error line says where. 0 if @p path was
 * written, 1 if not.
 */
int cli_write_output(const char *path, const char *what, atl_file_writer writer, const void *arg);


/** A file built in memory as it is measured, then written whole by cli_buffer_write(). */
struct cli_buffer {
  FILE *f;
  char *text;
  size_t len;
};

/** Opens @p b (dies if out of memory); write to the stream it returns. */
FILE *cli_buffer_open(struct cli_buffer *b);

/** Closes @p b and writes its text to @p path with cli_write_output(); frees it; 0 or 1 as that. */
int cli_buffer_write(struct cli_buffer *b, const char *path, const char *what);

/** SIGINT, SIGTERM and SIGHUP call atl_stop_request(): loops stop after their current row; a second one stops at
 *  once (cli_urgent_signal). */
void cli_catch_stop_signals(void);

/** Starts the thread that writes the completed rows and exits on a second stop signal (cli/urgent.c). */
void cli_urgent_start(void);

/** From the handler of stop signal @p sig: wakes that thread where this is the second request. */
void cli_urgent_signal(int sig);

/** Seconds between checkpoints of -o files: @p fallback, or $ATL_CHECKPOINT_S where set (tests). */
double cli_checkpoint_s(double fallback);

/** SIGPIPE ignored (main does it): a closed stdout makes writes fail instead of killing the process. */
void cli_ignore_sigpipe(void);

/**
 * The "interrupted" line of a command stopped by a signal (done of planned
 * rows, planned 0 where unknown, and @p resume_hint, e.g. "to finish, run the same command with
 * --resume F", or NULL); returns the exit status 128 + the signal.
 */
int cli_interrupted(const char *command, size_t done, size_t planned, const char *resume_hint);

/** Most names one list option takes. */
#define MAX_LIST 16

/** A comma list of names, each parsed by @p parse; "all" expands to @p all. Dies (exit 2) naming @p opt. */
size_t cli_parse_names(const char *opt, const char *text, int (*parse)(const char *), const int *all, size_t nall,
                       const char *allowed, int *out);

/** Dies (exit 2) unless @p name is a backend atomlab knows, naming @p opt and the allowed ones. */
void cli_check_backend(const char *opt, const char *name);

/** Prints help text @p usage to stdout, "@BACKENDS@" replaced by the backend names ("cuda or opencl"). */
void cli_print_usage(const char *usage);

/** Whether the comma list @p text names @p name. */
int cli_list_has(const char *text, const char *name);

/** An axis of whole numbers from 1 to @p max (atl_axis_parse: N, A:B, A:B:xK, A:B:+K, lists); dies (exit 2) naming
 * @p opt otherwise. */
struct atl_axis cli_parse_axis(const char *opt, const char *text, uint32_t max);

/** One whole number from 1 to @p max; dies (exit 2) naming @p opt otherwise. */
uint32_t cli_parse_count(const char *opt, const char *text, uint32_t max);

/** A number from @p lo to @p hi; dies (exit 2) naming @p opt otherwise. */
double cli_parse_real(const char *opt, const char *text, double lo, double hi);

/**
 * Dies (exit 2: "--NAME: given twice") where option code @p c (getopt_long's
 * return, @p at its index in @p longopts or -1) came before since
 * cli_options_begin(); options that accumulate (-o of a sweep) are not
 * passed to it.
 */
void cli_option_once(const struct option *longopts, int c, int at);

/** The timing options rmw and strategy share: getopt codes, long options, help text. */
enum { CLI_O_TARGET = 450, CLI_O_NOISE, CLI_O_MIN_SAMPLES, CLI_O_MAX_SAMPLES, CLI_O_BUDGET, CLI_O_ITERS, CLI_O_REPEAT,
       CLI_O_DISCARD_THROTTLED, CLI_O_ROUNDS, CLI_O_PLACEMENTS, CLI_O_ROTATE };
#define CLI_TIMING_LONGOPTS                                                                                            \
  {"target-ms", required_argument, NULL, CLI_O_TARGET}, {"noise", required_argument, NULL, CLI_O_NOISE},               \
      {"min-samples", required_argument, NULL, CLI_O_MIN_SAMPLES},                                                     \
      {"max-samples", required_argument, NULL, CLI_O_MAX_SAMPLES}, {"budget", required_argument, NULL, CLI_O_BUDGET},  \
      {"iters", required_argument, NULL, CLI_O_ITERS}, {"repeat", required_argument, NULL, CLI_O_REPEAT},             \
      {"discard-on-throttle", no_argument, NULL, CLI_O_DISCARD_THROTTLED}, {"rounds", required_argument, NULL, CLI_O_ROUNDS}, \
      {"placements", required_argument, NULL, CLI_O_PLACEMENTS}, {"rotate", no_argument, NULL, CLI_O_ROTATE}
#define CLI_TIMING_HELP                                                                                                \
  "timing:\n"                                                                                                          \
  "  --target-ms X  calibrate iterations until a launch takes X ms  [20]\n"                                            \
  "  --noise X      stop sampling at relative IQR <= X  [0.02]\n"                                                      \
  "  --min-samples N, --max-samples N  [5, 50]\n"                                                                      \
  "  --budget S     seconds of sampling per row at most  [2]\n"                                                        \
  "  --iters N      fixed iterations per thread (skips calibration)\n"                                                  \
  "  --repeat N     measure the whole sweep N times, pass after pass; a row keeps its median repeat, the\n"       \
  "                 spread and largest deviation of the repeats (repeat_spread, repeat_deviation)  [1]\n"                                 \
  "  --rounds R     each repeat visits every configuration R times, in whole passes in a shuffled order; a\n"     \
  "                 repeat's value is its median round (rounds, round_spread; docs/design/method.md)  [1]\n"              \
  "  --placements P rmw: take a row's samples in turn at P offsets of its array spread over 16 MiB (other\n"     \
  "                 L2 lines); the row is the median over them (placements, placement_spread)  [1]\n"            \
  "  --rotate       rmw with --placements: each sample also shifts which work-group does which group's work,\n"  \
  "                 new shifts every two turns (other SMs against the lines; rotation_groups)\n"                 \
  "  --discard-on-throttle  retake a sample after which the GPU reports a power or thermal throttle (NVIDIA:\n"  \
  "                 NVML; every row records its clocks, temperature, power and throttled samples)\n\n"

/** The help lines of the device and output options rmw and strategy share (cli_sweep_option). */
#define CLI_DEVICES_HELP                                                                                               \
    "  --backend B    @BACKENDS@  [any]\n"   \
    "  --device ID    an id or row number from 'atomlab devices'; 'all' or a comma list (0,1): every\n"   \
    "                 device named at once, one thread each, rows naming their device  [best device]\n"
#define CLI_OUTPUTS_HELP                                                                                               \
    "  --format F     table, csv or json  [table; with -o: from the file extension]\n"   \
    "  -o FILE        write results to FILE (through a temporary name: never half a file);\n"   \
    "                 up to 4 times, each in the format of its extension (.json .csv .txt)\n"   \
    "  --quiet        no table on stdout when writing to a file\n"


/** --format's value (enum atl_format); dies (exit 2) on one that is not table, csv or json. */
int cli_parse_format(const char *text);

/** Starts a command's getopt_long() loop: from its first argument, with no message from getopt itself. */
void cli_options_begin(void);

/**
 * The end of a command's option switch: for 'h' (--help) prints @p usage
 * (cli_print_usage) and returns EXIT_OK; anything else dies (exit 2):
 * "option '-x' needs a value" or "unknown option '-x' for COMMAND", each
 * naming where the help is ('atomlab COMMAND --help').
 */
int cli_help_or_bad(int c, const char *usage, const char *command, char **argv);


/** The options every sweep command (rmw, strategy) shares beside its axes: device and grid, timing, outputs. */
enum { CLI_O_BACKEND = 470, CLI_O_DEVICE, CLI_O_WG, CLI_O_WGS, CLI_O_FORMAT, CLI_O_QUIET, CLI_O_MAX_ROWS };
#define CLI_SWEEP_LONGOPTS                                                                                               {"backend", required_argument, NULL, CLI_O_BACKEND}, {"device", required_argument, NULL, CLI_O_DEVICE},                    {"wg-size", required_argument, NULL, CLI_O_WG}, {"workgroups", required_argument, NULL, CLI_O_WGS},                    {"format", required_argument, NULL, CLI_O_FORMAT}, {"output", required_argument, NULL, 'o'},                           {"quiet", no_argument, NULL, CLI_O_QUIET}, {"max-rows", required_argument, NULL, CLI_O_MAX_ROWS},                      CLI_TIMING_LONGOPTS, {"help", no_argument, NULL, 'h'}

#define CLI_MAX_OUTPUTS 4

struct cli_sweep_opts {
  const char *backend, *device;
  uint32_t wg_size, workgroups; /**< 0: the device's choice */
  struct atl_timing timing;
  int format; /**< -1 until given; after cli_sweep_outputs(): the stdout format */
  int quiet;
  uint32_t max_rows;
  const char *out_paths[CLI_MAX_OUTPUTS];
  int out_formats[CLI_MAX_OUTPUTS];
  size_t nout;
};




/**
 * The option loop of a sweep command: each option goes to @p own first (it
 * returns 1 where it took it, 0 where not, -1 where the command is done and
 * exits 0), else to the shared ones of @p o (their defaults set first);
 * --help prints @p usage; anything else, an argument left over and timing
 * options that contradict each other die (exit 2) naming @p command.
 * Returns 1 where the command exits 0 now (--help, or own's -1), else 0.
 */
int cli_sweep_parse(int argc, char **argv, const struct option *longopts, const char *usage, const char *command,
                    struct cli_sweep_opts *o, int (*own)(void *state, int c, const char *name, const char *arg),
                    void *state);

/**
 * Starts the result set of a sweep command (its kind, the run's metadata
 * from @p ctx's device and the command line, the timing settings) and
 * returns room for @p nspecs zeroed specs of @p spec_size (dies if out of
 * memory).
 */
void *cli_sweep_start(struct atl_result_set *set, const char *kind, atl_context_t ctx, const struct cli_sweep_opts *o,
                      int argc, char **argv, size_t nspecs, size_t spec_size);

/** Before anything is allocated or measured: the plan of @p rows checked (--max-rows), then the outputs. */
void cli_sweep_plan(struct cli_sweep_opts *o, const char *command, size_t rows);

/** Default of --max-rows: a plan larger than this is refused unless asked for. */
#define CLI_MAX_ROWS 100000
#define CLI_MAX_ROWS_HELP "  --max-rows N   refuse a plan of more than N rows (it prints its row count and time)  [100000]\n"


/**
 * The end of a sweep command: every -o file written (each rescued where it
 * cannot be: cli_write_output()), and the rows as CSV or JSON on stdout
 * where no -o took them. Returns how many files were not written where asked.
 */
int cli_sweep_write(const struct cli_sweep_opts *o, const struct atl_result_set *set);

/** Prints "error: N rows failed or did not verify" where @p failures is not 0. */
void cli_print_failures(int failures);



/** The commands' entry points: cmd_NAME in cli/cmd-NAME.c (atomlab.c's table gives each its name and summary). */
#define CLI_COMMANDS(X)                                                                                                \
  X(devices) X(rmw) X(strategy) X(app) X(calibrate) X(model) X(profile) X(hist_case) X(plot) X(compare) X(report)     \
      X(fleet) X(results)
#define CLI_DECLARE_COMMAND(name) int cmd_##name(int argc, char **argv);
CLI_COMMANDS(CLI_DECLARE_COMMAND)
/** atomlab model l2 (cli/cmd-model-l2.c): argv[0] is "l2". */
int cmd_model_l2(int argc, char **argv);

/** atomlab model swatomic (cli/cmd-model-sw.c): argv[0] is "swatomic". */
int cmd_model_sw(int argc, char **argv);

#define SMEM_MAX_EXPECT 8

/** Options `model util`, `model predict` and `profile` share (cli/smem-report.c). */
struct smem_opts {
  const char *table_path;            /**< --table */
  struct atl_smem_settings settings; /**< --result, --threshold, --sms, --warps-per-sm */
  int format;                        /**< --format: enum atl_format, -1: from -o's extension */
  const char *out;                   /**< -o FILE */
  struct atl_smem_expectation expect[SMEM_MAX_EXPECT]; /**< --expect NAME=VERDICT (in argv) */
  int nexpect;
  struct atl_l2_calibration dram;    /**< --dram: the streaming kernel's share of peak and bandwidth (the rest 0) */
};

/** Defaults of struct smem_opts. */
void smem_opts_init(struct smem_opts *o);

/** --table's calibration table read into @p table; dies (exit 2) where it is missing or cannot be read. */
void smem_table_load(const char *path, struct atl_smem_table *table);

/** The format of the result: --format, else from -o's extension (.csv, .json), else the table. */
int smem_format(const struct smem_opts *o);

/** Handles one shared option (getopt code @p c); returns 1 if it was one, 0 if not. Dies on a bad value. */
int smem_opts_parse(struct smem_opts *o, int c, const char *arg, const char *command);

/** The getopt codes smem_opts_parse handles, to put in a command's option table. */
enum { SMEM_O_TABLE = 400, SMEM_O_RESULT, SMEM_O_THRESHOLD, SMEM_O_FORMAT, SMEM_O_SMS, SMEM_O_WARPS, SMEM_O_EXPECT,
       SMEM_O_DRAM };
#define SMEM_LONGOPTS                                                                                                  \
  {"table", required_argument, NULL, SMEM_O_TABLE}, {"result", required_argument, NULL, SMEM_O_RESULT},                \
      {"threshold", required_argument, NULL, SMEM_O_THRESHOLD}, {"format", required_argument, NULL, SMEM_O_FORMAT},    \
      {"sms", required_argument, NULL, SMEM_O_SMS}, {"warps-per-sm", required_argument, NULL, SMEM_O_WARPS},           \
      {"expect", required_argument, NULL, SMEM_O_EXPECT}, {"dram", required_argument, NULL, SMEM_O_DRAM},               \
      {"output", required_argument, NULL, 'o'}

/** Help text of the shared options. */
extern const char smem_opts_help[];

/**
 * Derives Table 2 for every kernel of @p report (atl_smem_util_derive), prints
 * the reason of each kernel that has none on stderr (with @p strict: dies,
 * exit 2, at the first, before anything is written), writes the result (table,
 * CSV or JSON with @p meta) to stdout or opts->out, then checks the --expect
 * verdicts (a line per expectation on stderr). Returns the number of kernels
 * without a utilization plus the expectations not met, or -1 if the output
 * could not be written.
 */
int smem_report(const struct smem_opts *opts, const struct atl_smem_table *table, const struct atl_ncu_report *report,
                const struct atl_run_meta *meta, const char *source, int strict);

#endif
