/* What each metric of a command means and how it was measured. The text
 * lives once, in docs/design/metrics.md, between the markers <!-- describe COMMAND -->
 * and <!-- /describe -->; the build embeds that file, so the page and
 * `atomlab COMMAND --describe` cannot drift apart. A new command gets its
 * description by adding its section there. */
#include <stdio.h>
#include <string.h>

#include "atomlab/result.h"

const char *atl__metrics_doc(const char *name); /* generated: cmake/embed_kernels.cmake */

const char *atl_describe(const char *command, size_t *len)
{
  const char *doc = atl__metrics_doc("metrics");
  char open[96];
  snprintf(open, sizeof open, "<!-- describe %s -->\n", command);
  const char *start = doc ? strstr(doc, open) : NULL;
  const char *end = start ? strstr(start, "<!-- /describe -->") : NULL;
  if (end == NULL)
    return NULL;
  start += strlen(open);
  /* Blank lines around the section are markdown layout, not text. */
  while (*start == '\n')
    start++;
  while (end > start && end[-1] == '\n')
    end--;
  *len = (size_t)(end - start);
  return start;
}
