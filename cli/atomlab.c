/* atomlab: the command table, help and main. The helpers every command
 * shares live in common.c, so no command calls back into this file. */
#include <stdlib.h>
#include <string.h>

#include "atl_version.h"
#include "cli.h"

static int cmd_version(int argc, char **argv);
static int cmd_help(int argc, char **argv);

static const struct cli_command commands[] = {
    {"devices", "list every device atomlab can run on, with the id --device takes", cmd_devices},
    {"rmw", "contention x padding sweep of atomic read-modify-write operations", cmd_rmw},
    {"strategy", "atomic strategies (native, warp, block, privatized, CAS, locks) compared per access pattern", cmd_strategy},
    {"app", "applications of atomics: ", cmd_app}, /* the app names follow from the registry */
    {"calibrate", "calibration runs of the models: 'calibrate smem' measures T(n, e, c)", cmd_calibrate},
    {"model", "the shared-memory atomic model offline: utilization and busy time from ncu counters", cmd_model},
    {"profile", "run a program under ncu and report shared-memory atomic utilization", cmd_profile},
    {"hist-case", "the seed's shared-memory histogram kernels (Listings 1, 2); --validate: the model's checks", cmd_hist_case},
    {"plot", "figures (heatmaps, lines, strategy bars) of a result file, drawn with gnuplot", cmd_plot},
    {"compare", "two result files row by row, with a noise-aware verdict per configuration", cmd_compare},
    {"report", "a default characterization of one device: report.md, report.html, figures, data", cmd_report},
    {"fleet", "the nodes of a fleet compared op by op: each node's deviation, the outliers flagged", cmd_fleet},
    {"results", "'results index': results/README.md, the headline numbers, from the reference files", cmd_results},
    {"version", "print the version and the commit this binary was built from", cmd_version},
    {"help", "show this list, or `atomlab help COMMAND` for one command", cmd_help},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *f)
{
  fprintf(f, "usage: atomlab <command> [options]\n\n"
             "Characterize, model and optimize atomic read-modify-write operations on GPUs\n"
             "(and CPUs through OpenCL). Every measurement verifies the exact final memory state.\n\n"
             "commands:\n");
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-10s %s%s\n", commands[i].name, commands[i].summary,
            commands[i].fn == cmd_app ? cli_app_names() : "");
  fprintf(f, "\nRun `atomlab <command> --help` for the options of one command and\n"
             "`atomlab <command> --describe` for what its metrics mean (docs/design/metrics.md).\n"
             "Environment: ATL_BACKENDS=opencl,cuda limits the backends that are probed;\n"
             "ATL_FAULT=KIND:N[+] makes the Nth backend call of KIND fail (tests; docs/design/reliability.md);\n"
             "ATL_MAX_INPUT=BYTES raises the size cap of every file read whole (result files: 1 GiB;\n"
             "a larger file is refused before it is read);\n"
             "ATL_HOST_THREADS=N sets the host threads of the apps' expected results and checks\n"
             "(default: the online CPUs, at most 32; the results do not depend on it).\n");
}

static const struct cli_command *find_command(const char *name)
{
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

static int cmd_version(int argc, char **argv)
{
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("usage: atomlab version\n");
    return EXIT_OK;
  }
  if (argc > 1) /* anything else is a mistake a script should see, not a version line */
    die_usage("version takes no arguments or options: '%s' is not allowed (see 'atomlab version --help')",
              argv[1]);
  printf("atomlab %s (commit %s)\n", ATL_VERSION, ATL_GIT_COMMIT);
  return EXIT_OK;
}

static int cmd_help(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "--help") != 0 && strcmp(argv[1], "-h") != 0) {
    const struct cli_command *c = find_command(argv[1]);
    if (c == NULL)
      die_usage("unknown command '%s' (see 'atomlab --help')", argv[1]);
    char *args[] = {argv[1], "--help", NULL};
    return c->fn(2, args);
  }
  print_usage(stdout);
  return EXIT_OK;
}

int main(int argc, char **argv)
{
  cli_argv0 = argv[0];
  cli_ignore_sigpipe();
  if (argc < 2) {
    print_usage(stdout);
    return EXIT_OK;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
    return cmd_help(1, argv);
  if (strcmp(argv[1], "--version") == 0)
    return cmd_version(1, argv);
  const struct cli_command *c = find_command(argv[1]);
  if (c == NULL)
    die_usage("unknown command '%s' (see 'atomlab --help')", argv[1]);
  unsigned long long cap;
  if (atl_max_input(&cap) != 0) /* the readers would take the default silently */
    die_usage("ATL_MAX_INPUT '%s': a whole number of bytes from 1 to 4611686018427387904 is allowed",
              getenv("ATL_MAX_INPUT"));
  const char *threads = getenv("ATL_HOST_THREADS"); /* the apps would take the default silently */
  char *end = NULL;
  if (threads && *threads && (strtoul(threads, &end, 10) - 1 >= 256 || *end || *threads < '0' || *threads > '9'))
    die_usage("ATL_HOST_THREADS '%s': a whole number from 1 to 256 is allowed", threads);
  /* --describe is one option for every command: no command parses it itself (the text: atl_describe). */
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], "--describe") == 0) {
      size_t len;
      const char *text = atl_describe(c->name, &len);
      if (text == NULL)
        die_usage("'%s' has no metrics to describe (docs/design/metrics.md has no section for it)", c->name);
      fwrite(text, 1, len, stdout);
      fputc('\n', stdout);
      return EXIT_OK;
    }
  return c->fn(argc - 1, argv + 1);
}
