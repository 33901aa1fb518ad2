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
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  const char *dot = strrchr(base, '.');
  if (dot == NULL || dot == base)
    return fallback; /* /dev/null, /dev/stdout, a FIFO: --format or JSON */
  if (strcmp(dot, ".json") == 0)
    return ATL_FORMAT_JSON;
  if (strcmp(dot, ".csv") == 0)
    return ATL_FORMAT_CSV;
  if (strcmp(dot, ".txt") == 0)
    return ATL_FORMAT_TABLE;
  die_usage("%s '%s': the extension '%s' is not known: allowed: .json, .csv, .txt (or none, with --format)", opt, path,
            dot);
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

int cli_write_text(const char *path, const char *text, size_t len)
{
  char why[512];
  if (atl_file_write_text(path, text, len, why, sizeof why) != 0) {
    fprintf(stderr, "error: unable to write '%s': %s\n", path, why);
    return -1;
  }
  return 0;
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

char *cli_read_text(const char *path, size_t limit)
{
  char why[256];
  FILE *f = atl_file_open_input(path, why, sizeof why); /* a regular file only: a FIFO would block */
  if (f == NULL)
    return NULL;
  size_t size = 0, cap = 65536;
  char *buf = malloc(cap);
  while (buf) {
    if (size + 1 >= cap) {
      char *grown = cap < limit ? realloc(buf, cap * 2) : NULL;
      if (grown == NULL) { /* over the limit or out of memory: the caller reports the file as unreadable */
        free(buf);
        buf = NULL;
        break;
      }
      buf = grown;
      cap *= 2;
    }
    size_t got = fread(buf + size, 1, cap - 1 - size, f);
    size += got;
    if (got == 0)
      break;
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf && memchr(buf, '\0', size)) { /* a binary file is no export: never parse half of it */
    free(buf);
    buf = NULL;
  }
  if (buf)
    buf[size] = '\0';
  return buf;
}

void cli_checkpoint_outputs(const struct atl_result_set *set, const char *const *paths, const int *formats, size_t n)
{
  for (size_t i = 0; i < n; i++)
    atl_write_file(paths[i], (enum atl_format)formats[i], set);
}

int cli_write_outputs(const struct atl_result_set *set, const char *const *paths, const int *formats, size_t n)
{
  char what[64];
  snprintf(what, sizeof what, "%zu rows", set->count);
  int failed = 0;
  for (size_t i = 0; i < n; i++)
    failed += cli_write_output(paths[i], what, atl_write_set, &(struct atl_set_writer){(enum atl_format)formats[i], set});
  return failed;
}
