/* `atomlab COMMAND --describe`: what each metric of a command means and how
 * it was measured. The text lives once, in docs/metrics.md, between the
 * markers <!-- describe COMMAND --> and <!-- /describe -->; the build embeds
 * that file, so the page and the command cannot drift apart. A new command
 * gets --describe by adding its section there (main() routes the option). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *atl__cli_doc(const char *name); /* generated: cmake/embed_kernels.cmake */

int cli_describe(const char *command)
{
  const char *doc = atl__cli_doc("metrics");
  char open[96];
  snprintf(open, sizeof open, "<!-- describe %s -->\n", command);
  const char *start = doc ? strstr(doc, open) : NULL;
  const char *end = start ? strstr(start, "<!-- /describe -->") : NULL;
  if (end == NULL)
    die_usage("'%s' has no metrics to describe (docs/metrics.md has no section for it)", command);
  start += strlen(open);
  /* Blank lines around the section are markdown layout, not text. */
  while (*start == '\n')
    start++;
  while (end > start && end[-1] == '\n')
    end--;
  fwrite(start, 1, (size_t)(end - start), stdout);
  fputc('\n', stdout);
  return EXIT_OK;
}
