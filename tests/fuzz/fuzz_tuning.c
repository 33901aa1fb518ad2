/* libFuzzer harness: the tuning tables (data/tuning/scatter.json, data/tuning/l2.json) as src/tuning/scatter_tuning.c
 * reads them: every input through the parser the file loader hands a file's text to (atl__scatter_tuning_parse), then
 * the row lookup and the constants resolved from the rows for a few devices. The loader reads each file once a
 * process, so the bytes go straight to the parser (its text ends at the first NUL, as the loader's does). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scatter_tuning.h"
#include "fuzz_text.h"

/* An H100 under CUDA (the rows' own facts), an OpenCL CPU, and a device that reports nothing. */
static const struct atl_device_info devices[] = {
    {.backend = "cuda", .vendor = "NVIDIA Corporation", .lang_version = "sm_90", .max_threads_per_cu = 2048,
     .local_mem = 49152},
    {.backend = "opencl", .vendor = "AuthenticAMD", .lang_version = "OpenCL C 1.2", .max_threads_per_cu = 256,
     .local_mem = 1000},
    {.backend = "", .vendor = "", .lang_version = ""},
};

/* A text the parser handed on: set, terminated, shorter than its field. */
static int text_ok(const char *s, size_t size, int required)
{
  const char *end = memchr(s, '\0', size);
  return end != NULL && (!required || end != s);
}

static void check_row(const struct atl__tuning_row *r)
{
  if (!text_ok(r->name, sizeof r->name, 1) || !text_ok(r->source, sizeof r->source, 1) ||
      !text_ok(r->backend, sizeof r->backend, 0) || !text_ok(r->vendor, sizeof r->vendor, 0) ||
      !text_ok(r->arch, sizeof r->arch, 0))
    abort();
  /* a number is the row's (within its bounds) or left out (-1) */
  const double shares[] = {r->part_l2_share, r->sweep_l2_share, r->split_l2_share, r->auto_l2_share};
  for (size_t k = 0; k < sizeof shares / sizeof *shares; k++)
    if (shares[k] != -1 && !(shares[k] > 0 && shares[k] <= 1))
      abort();
  if ((r->part_batch != -1 && !(r->part_batch >= 1 && r->part_batch <= 8)) ||
      (r->table_bytes != -1 && !(r->table_bytes >= 256 && r->table_bytes <= 1 << 20)) ||
      (r->min_threads != -1 && !(r->min_threads >= 0 && r->min_threads <= 4096)))
    abort();
}

static void resolve(const struct atl__tuning_rows *rows, const struct atl_device_info *dev)
{
  struct atl__scatter_tuning t;
  atl__scatter_tuning_resolve(rows, dev, &t);
  const struct atl__tuning_row *r = atl__tuning_row_for(rows, dev);
  if ((r == NULL) != (t.derived == 1) || memchr(t.row, '\0', sizeof t.row) == NULL ||
      memchr(t.note, '\0', sizeof t.note) == NULL || (r && strncmp(t.row, r->name, sizeof t.row - 1) != 0))
    abort();
  if (!(t.part_l2_share > 0 && t.part_l2_share <= 1) || !(t.sweep_l2_share > 0 && t.sweep_l2_share <= 1) ||
      !(t.split_l2_share > 0 && t.split_l2_share <= 1) || !(t.auto_l2_share > 0 && t.auto_l2_share <= 1) ||
      !(t.auto_run_share >= 0 && t.auto_run_share <= 2) || !(t.auto_head_share >= 0 && t.auto_head_share <= 2) ||
      !(t.auto_bins_run_share >= 0 && t.auto_bins_run_share <= 2) || !(t.auto_order_share >= 0 && t.auto_order_share <= 2) ||
      !(t.auto_sweep_head_share >= 0 && t.auto_sweep_head_share <= 2) ||
      !(t.auto_bins_head_share >= 0 && t.auto_bins_head_share <= 2) ||
      t.part_batch < 1 || t.part_batch > 8 || t.min_threads > 4096 ||
      (dev->local_mem && t.table_bytes > dev->local_mem * 2 / 3))
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_text(data, size);
  if (text == NULL)
    return 0;
  struct atl__tuning_rows rows;
  char why[240] = "";
  if (atl__scatter_tuning_parse(text, &rows, why, sizeof why) == 0) {
    if (rows.n > ATL__TUNING_ROWS)
      abort();
    for (unsigned i = 0; i < rows.n; i++)
      check_row(&rows.row[i]);
  } else if (rows.n != 0 || !fuzz_says_why(why, sizeof why)) {
    abort(); /* a refusal leaves no rows and says why */
  }
  for (size_t d = 0; d < sizeof devices / sizeof *devices; d++)
    resolve(&rows, &devices[d]);
  free(text);
  return 0;
}
