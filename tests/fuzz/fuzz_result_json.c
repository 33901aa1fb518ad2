/* libFuzzer harness: result files as --resume (and later compare and plot) read them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  struct atl_result_set set;
  char why[256];
  if (atl_parse_json(text, "fuzz", &set, why, sizeof why) == 0) {
    for (size_t i = 0; i < set.count; i++) {
      const struct atl_row *r = &set.rows[i];
      /* what the reader accepts is a spec the tool could have run */
      if (r->spec.contention < 1 || r->spec.padding < 1 || r->spec.wg_size < 1 || r->spec.workgroups < 1 ||
          (unsigned)r->spec.op >= ATL_OP_COUNT || (unsigned)r->spec.type >= ATL_TYPE_COUNT)
        abort();
    }
    atl_result_set_release(&set);
  } else if (set.count != 0 || set.rows != NULL || why[0] == '\0') {
    abort();
  }
  free(text);
  return 0;
}
