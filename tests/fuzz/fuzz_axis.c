/* libFuzzer harness: the axis parser (--contention, --padding, counts). */
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
  struct atl_axis axis;
  char why[160];
  static const uint32_t maxima[] = {UINT32_MAX, 1u << 16, 1024, 1};
  for (size_t i = 0; i < sizeof maxima / sizeof maxima[0]; i++) {
    if (atl_axis_parse(text, maxima[i], &axis, why, sizeof why) == 0) {
      /* every value must respect the bounds the parser promises */
      for (size_t k = 0; k < axis.count; k++)
        if (axis.values[k] < 1 || axis.values[k] > maxima[i])
          abort();
      atl_axis_release(&axis);
    } else if (axis.values != NULL || axis.count != 0 || why[0] == '\0') {
      abort(); /* an error leaves an empty axis and a reason */
    }
  }
  free(text);
  return 0;
}
