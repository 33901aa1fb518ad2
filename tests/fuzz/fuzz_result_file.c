/* libFuzzer harness: result files as compare, plot and report load them (src/core/resultfile.c).
 * atl__rf_load reads a path, so each input goes through one unlinked temporary file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resultfile.h"

/* The file every input is written to; unlinked at once, reached through /dev/fd. */
static int input_fd = -1;
static char input_path[64];
/* What use_row reads, kept so the reads are not optimised away. */
volatile size_t fuzz_text_bytes;

static int write_input(const uint8_t *data, size_t size)
{
  if (input_fd < 0) {
    char name[] = "/tmp/fuzz_result_file.XXXXXX";
    input_fd = mkstemp(name);
    if (input_fd < 0)
      return -1;
    unlink(name);
    snprintf(input_path, sizeof input_path, "/dev/fd/%d", input_fd);
  }
  if (ftruncate(input_fd, 0) != 0)
    return -1;
  for (size_t done = 0; done < size;) {
    ssize_t n = pwrite(input_fd, data + done, size - done, (off_t)done);
    if (n <= 0)
      return -1;
    done += (size_t)n;
  }
  return 0;
}

/* What compare and plot do with every row: keys, fields, numbers, timing. */
static void use_row(const struct atl__rf_row *r)
{
  char buf[64];
  if (r->row == NULL || r->status == NULL || r->key[0] == '\0' || strlen(r->key) >= sizeof r->key)
    abort();
  if (r->verified < 0 || r->verified > 1 || (r->nsamples > 0 && r->row->samples_ms == NULL))
    abort();
  /* a usable time is an ordered, positive one */
  if (atl__rf_row_timed(r) && !(r->median > 0 && r->q1 > 0 && r->q3 >= r->q1))
    abort();
  for (size_t i = 0; i < r->nsamples; i++)
    if (!(r->row->samples_ms[i] >= 0))
      abort();
  /* touches every byte a label or key would print (a field may be "": the key still names it) */
  for (size_t i = 0; i < atl__rf_config_count; i++)
    fuzz_text_bytes += strlen(atl__rf_field(r, atl__rf_config_fields[i], buf, sizeof buf));
  if (atl_row_metric(r->row, "gops", 0) != r->gops)
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (write_input(data, size) != 0)
    return 0;
  struct atl__rf_file f;
  char why[512] = "";
  if (atl__rf_load(input_path, &f, why, sizeof why) == 0) {
    if (f.rows == NULL || f.device == NULL || f.backend == NULL || f.commit == NULL ||
        f.date == NULL)
      abort();
    for (size_t i = 0; i < f.count; i++)
      use_row(&f.rows[i]);
    atl__rf_free(&f);
  } else if (f.rows != NULL || f.set.rows != NULL || f.count != 0 || why[0] == '\0') {
    abort(); /* a refusal leaves nothing allocated and says why */
  }
  return 0;
}
