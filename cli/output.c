/* Output files of every command: checked before measuring, written the safe
 * way of include/atomlab/file.h, and never lost (a rescue file, else stderr). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_check_output(const char *opt, const char *path)
{
  char why[512];
  if (atl_file_check_output(path, why, sizeof why) != 0)
    die_usage("%s '%s': %s", opt, path, why);
}

int cli_output_format(const char *opt, const char *path, int fallback)
{
  const int format = atl_format_from_path(path, fallback);
  if (format < 0)
    die_usage("%s '%s': the extension '%s' is not known: allowed: .json, .csv, .txt (or none, with --format)", opt, path,
              strrchr(path, '.'));
  return format;
}

int cli_write_output(const char *path, const char *what, atl_file_writer writer, const void *arg)
{
  char rescued[4200], why[512];
  int rc = atl_file_write_rescue(path, writer, arg, rescued, sizeof rescued, why, sizeof why);
  if (rc == 0) {
    fprintf(stderr, "wrote %s to %s\n", what, path);
    return 0;
  }
  if (rc == 1) {
    fprintf(stderr, "error: unable to write '%s' (%s): %s are in '%s' instead\n", path, why, what, rescued);
    return 1;
  }
  /* Nowhere to write a file: the content goes to stderr, the one place left, rather than being lost. */
  fprintf(stderr, "error: unable to write '%s' (%s) or a rescue file: %s follow on stderr\n", path, why, what);
  writer(stderr, arg);
  fflush(stderr);
  return 1;
}

FILE *cli_buffer_open(struct cli_buffer *b)
{
  memset(b, 0, sizeof *b);
  if ((b->f = open_memstream(&b->text, &b->len)) == NULL)
    die("out of memory");
  return b->f;
}

static int write_buffer(FILE *f, const void *arg)
{
  const struct cli_buffer *b = arg;
  return fwrite(b->text, 1, b->len, f) == b->len ? 0 : ATL_EIO;
}

int cli_buffer_write(struct cli_buffer *b, const char *path, const char *what)
{
  if (fclose(b->f) != 0)
    die("out of memory");
  b->f = NULL;
  int rc = cli_write_output(path, what, write_buffer, b);
  free(b->text);
  b->text = NULL;
  return rc;
}

int cli_sweep_write(const struct cli_sweep_opts *o, const struct atl_result_set *set)
{
  char what[64];
  snprintf(what, sizeof what, "%zu rows", set->count);
  /* a file not written where asked (its rows rescued, the error printed) is a failure, not a failed row */
  int failed = 0;
  for (size_t i = 0; i < o->nout; i++)
    failed += cli_write_output(o->out_paths[i], what, atl_write_set,
                               &(struct atl_set_writer){(enum atl_format)o->out_formats[i], set});
  if (o->nout == 0 && o->format != ATL_FORMAT_TABLE)
    atl_write_set(stdout, &(struct atl_set_writer){(enum atl_format)o->format, set});
  return failed;
}

void cli_print_failures(int failures)
{
  if (failures)
    fprintf(stderr, "error: %d row%s failed or did not verify\n", failures, failures == 1 ? "" : "s");
}
