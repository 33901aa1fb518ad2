/* atomlab results index: results/README.md, the table of headline numbers, written from the
 * reference files and the plan's headlines (src/report/index.c); --check compares instead. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: atomlab results index [--plan FILE] [--results DIR] [-o FILE] [--check]\n\n"
    "Writes the table of headline numbers (capability, figure, its ratio against the yardstick\n"
    "measured beside it, device, commit, date and a link to the file) from the result files\n"
    "under DIR/reference/<device slug>/<measurement>/ and the headlines the plan names.\n"
    "A file whose commit is dirty or unknown is marked.\n\n"
    "  --plan FILE     the reference plan  [experiments/reference.json]\n"
    "  --results DIR   the folder that holds reference/  [results]\n"
    "  -o FILE         where the table goes  [DIR/README.md]\n"
    "  --check         write nothing: exit 1 when FILE differs from what the files say\n\n"
    "Exit status: 0 written (or, with --check, the same); 1 FILE differs; 2 bad usage, or a plan\n"
    "or results folder that does not read.\n";

/** Whether the file at @p path holds exactly @p len bytes of @p text. */
static int same_text(const char *path, const char *text, size_t len)
{
  char *have = atl_file_read_text(path, 64u << 20);
  const int same = have && strlen(have) == len && memcmp(have, text, len) == 0;
  free(have);
  return same;
}

static int results_index(int argc, char **argv)
{
  enum { O_PLAN = 256, O_RESULTS, O_CHECK };
  static const struct option longopts[] = {{"plan", required_argument, NULL, O_PLAN},
                                           {"results", required_argument, NULL, O_RESULTS},
                                           {"check", no_argument, NULL, O_CHECK},
                                           {"output", required_argument, NULL, 'o'},
                                           {"help", no_argument, NULL, 'h'},
                                           {0}};
  const char *plan = "experiments/reference.json", *results = "results", *out_path = NULL;
  int check = 0, c;
  cli_options_begin();
  while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
    switch (c) {
    case O_PLAN:
      plan = optarg;
      break;
    case O_RESULTS:
      results = optarg;
      break;
    case O_CHECK:
      check = 1;
      break;
    case 'o':
      out_path = optarg;
      break;
    default:
      return cli_help_or_bad(c, usage, "results index", argv);
    }
  }
  if (optind != argc)
    die_usage("results index takes no arguments: '%s' is not allowed (see 'atomlab results --help')", argv[optind]);
  char readme[1100];
  snprintf(readme, sizeof readme, "%s/README.md", results);
  if (out_path == NULL)
    out_path = readme;
  if (!check)
    cli_check_output("-o", out_path);

  struct cli_buffer buf;
  struct atl_results_index_counts n;
  char why[1200];
  if (atl_results_index(plan, results, cli_buffer_open(&buf), &n, why, sizeof why)) {
    fclose(buf.f);
    free(buf.text);
    die_usage("%s", why);
  }
  fprintf(stderr, "%zu headline rows, %zu not found, %zu not from a clean commit\n", n.rows, n.missing, n.unproven);
  if (!check)
    return cli_buffer_write(&buf, out_path, "the index") ? EXIT_MEASURE : EXIT_OK;
  if (fclose(buf.f) != 0)
    die("out of memory");
  const int same = same_text(out_path, buf.text, buf.len);
  free(buf.text);
  if (!same) {
    fprintf(stderr, "%s differs from what the files say: run 'atomlab results index%s%s%s%s'\n", out_path,
            strcmp(plan, "experiments/reference.json") ? " --plan " : "",
            strcmp(plan, "experiments/reference.json") ? plan : "", strcmp(results, "results") ? " --results " : "",
            strcmp(results, "results") ? results : "");
    return EXIT_MEASURE;
  }
  fprintf(stderr, "%s is up to date\n", out_path);
  return EXIT_OK;
}

int cmd_results(int argc, char **argv)
{
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    if (argc < 2)
      die_usage("results needs a subcommand: index (see 'atomlab results --help')");
    fputs(usage, stdout);
    return EXIT_OK;
  }
  if (strcmp(argv[1], "index") != 0)
    die_usage("results: '%s' is not a subcommand: index (see 'atomlab results --help')", argv[1]);
  return results_index(argc - 1, argv + 1);
}
