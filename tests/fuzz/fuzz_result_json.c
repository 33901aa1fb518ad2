/* libFuzzer harness: result files of every kind and version as --resume, compare and plot read them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_text(data, size);
  if (text == NULL)
    return 0;
  struct atl_result_set set;
  char why[256];
  if (atl_parse_json(text, "fuzz", &set, why, sizeof why) == 0) {
    for (size_t i = 0; i < set.count; i++) {
      const struct atl_row *r = &set.rows[i];
      /* every row has a configuration; one that reads as an rmw spec is a spec the tool could have run */
      struct atl_spec s;
      char bad[256];
      if (r->nconfig == 0 || r->nconfig > ATL_ROW_MAX_CONFIG || r->nmetrics > ATL_ROW_MAX_METRICS)
        abort();
      if (atl_spec_from_row(r, &s, bad, sizeof bad) == 0 &&
          (s.contention < 1 || s.padding < 1 || s.wg_size < 1 || s.workgroups < 1 || (unsigned)s.op >= ATL_OP_COUNT ||
           (unsigned)s.type >= ATL_TYPE_COUNT))
        abort();
    }
    atl_result_set_release(&set);
  } else if (set.count != 0 || set.rows != NULL || why[0] == '\0') {
    abort();
  }
  free(text);
  return 0;
}
