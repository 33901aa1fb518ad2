/* Output files of every command: checked before measuring, written the safe
 * way of include/atomlab/file.h, and never lost (a rescue file, else stderr). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The files a command reads and writes, as its options name them: no output may be one of its inputs. */
#define MAX_FILES 64
struct named {
  const char *opt, *path;
};
static struct named inputs[MAX_FILES], outputs[MAX_FILES];
static size_t ninputs, noutputs;
static struct atl_file_lock locks[MAX_FILES]; /* held until the command exits */
static size_t nlocks;

static void release_locks(void)
{
  for (size_t i = 0; i < nlocks; i++)
    atl_file_unlock(&locks[i]);
  nlocks = 0;
}

static void refuse_same(const struct named *out, const struct named *in)
{
  die_usage("%s '%s': is the input %s%s'%s' of this command: name another output", out->opt, out->path, in->opt,
            in->opt[0] ? " " : "", in->path);
}

void cli_note_input(const char *opt, const char *path)
{
  const struct named in = {opt, path};
  for (size_t i = 0; i < noutputs; i++)
    if (atl_file_same(outputs[i].path, path))
      refuse_same(&outputs[i], &in);
  if (ninputs < MAX_FILES)
    inputs[ninputs++] = in;
}

/* Holds the lock of output @p path until the command exits (cli_claim_output). */
static void lock_output(const char *opt, const char *path, const char *shown)
{
  char why[600];
  long holder = 0;
  struct atl_file_lock lock;
  const int rc = atl_file_lock(path, &lock, &holder, why, sizeof why);
  if (rc < 0)
    die_usage("%s '%s': %s", opt, shown, why);
  if (rc == 1 && holder == (long)getpid())
    return; /* named twice in this command: one writer all the same */
  if (rc == 1 && holder > 0)
    die_usage("%s: '%s' is being written by another atomlab process (pid %ld)", opt, shown, holder);
  if (rc == 1)
    die_usage("%s: '%s' is being written by another atomlab process", opt, shown);
  if (lock.fd < 0)
    return; /* a device or FIFO: written in place, not locked */
  if (nlocks == MAX_FILES) {
    atl_file_unlock(&lock);
    die_usage("%s: at most %d outputs in one command", opt, MAX_FILES);
  }
  if (nlocks == 0)
    atexit(release_locks);
  locks[nlocks++] = lock;
}

void cli_check_output(const char *opt, const char *path)
{
  char why[512];
  if (atl_file_check_output(path, why, sizeof why) != 0)
    die_usage("%s '%s': %s", opt, path, why);
  cli_claim_output(opt, path, path);
}

void cli_claim_output(const char *opt, const char *path, const char *shown)
{
  const struct named out = {opt, shown};
  for (size_t i = 0; i < ninputs; i++)
    if (atl_file_same(inputs[i].path, path))
      refuse_same(&out, &inputs[i]);
  lock_output(opt, path, shown);
  if (noutputs < MAX_FILES)
    outputs[noutputs++] = (struct named){opt, path};
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
