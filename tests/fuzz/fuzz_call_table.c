/* libFuzzer harness: the diagnosis's call table (data/tuning/diagnose-calls.json) as src/profile/call_price.c reads
 * it: every input through the parser the loader hands the file's text to (atl__call_table_parse), then a parsed
 * table prices atomlab's call on a few launches. The loader reads the file once a process, so the bytes go straight
 * to the parser (its text ends at the first NUL, as the loader's does). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "call_price.h"
#include "fuzz_text.h"

/* A text the parser handed on: terminated within its field, and not empty where the field is required. */
static int text_ok(const char *s, size_t size, int required)
{
  const char *end = memchr(s, '\0', size);
  return end != NULL && (!required || end != s);
}

static int one_of(const char *s, const char *const *names)
{
  for (size_t i = 0; names[i]; i++)
    if (strcmp(s, names[i]) == 0)
      return 1;
  return 0;
}

static void check_row(const struct atl__call_row *r)
{
  static const char *const access[] = {"hot", "head", "spread", "runs", NULL}, *const shape[] = {"scalar", "rows", NULL};
  if (!text_ok(r->name, sizeof r->name, 1) || !text_ok(r->arch, sizeof r->arch, 1) || r->n > ATL__CALL_ENTRIES ||
      !(r->launch_us > 0 && r->launch_us <= 1000) || !(r->faster > 1 && r->faster <= 100))
    abort();
  for (unsigned i = 0; i < r->n; i++) {
    const struct atl__call_entry *e = &r->e[i];
    if (!text_ok(e->call, sizeof e->call, 1) || !text_ok(e->access, sizeof e->access, 1) ||
        !text_ok(e->shape, sizeof e->shape, 1) || !one_of(e->access, access) || !one_of(e->shape, shape) ||
        !(e->efficiency > 0 && e->efficiency <= 1))
      abort();
  }
}

/* A launch on one hot word and one spread over the slices, both of compute capability 9.0 (the shipped row's), in
 * rows (few requests a warp-instruction) and scalars: the price, where given, is the row's floor plus a finite time. */
static void price(const struct atl__call_table *t)
{
  static const char *const calls[] = {"atl_scatter_add auto", "atl_scatter_add bins", "atl_scatter_reduce max", ""};
  for (int hot = 0; hot < 2; hot++)
    for (int rows = 0; rows < 2; rows++) {
      struct atl_l2_counters k;
      memset(&k, 0, sizeof k);
      k.cc_major = 9, k.cc_minor = 0, k.warp_size = 32, k.duration_ns = 1e6, k.dram_bytes = 2e8, k.dram_pct = 50;
      k.requests = 1e7, k.requests_max = hot ? 8e6 : 1e5, k.l1_requests = rows ? 1e7 : 1e6;
      struct atl_l2_util u;
      memset(&u, 0, sizeof u);
      u.access = hot ? ATL_L2_HOT : ATL_L2_SPREAD;
      for (size_t c = 0; c < sizeof calls / sizeof *calls; c++) {
        struct atl__call_price p;
        atl__call_price(t, "", calls[c], &k, &u, 0, NULL, &p);
        if (!text_ok(p.note, sizeof p.note, 1) || (p.priced && !(isfinite(p.call_ns) && p.call_ns > 0 &&
                                                                 p.efficiency > 0 && p.efficiency <= 1 && p.faster > 1)))
          abort();
      }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_text(data, size);
  if (text == NULL)
    return 0;
  struct atl__call_table t;
  char why[240] = "";
  if (atl__call_table_parse(text, &t, why, sizeof why) == 0) {
    if (t.n > ATL__CALL_ROWS)
      abort();
    for (unsigned i = 0; i < t.n; i++)
      check_row(&t.row[i]);
    price(&t);
  } else if (t.n != 0 || !fuzz_says_why(why, sizeof why)) {
    abort(); /* a refusal leaves no rows and says why */
  }
  free(text);
  return 0;
}
