/* The winners of a strategy run as a table beside its rows: what
 * atomlab strategy prints after the rows. */
#include <stdio.h>

#include "atomlab.h"

void atl_strategy_winners_write(FILE *f, const struct atl_result_set *set)
{
  int header = 0;
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *w = &set->rows[i];
    if (atl_row_metric(w, "winner", 0) == 0)
      continue;
    if (!header++)
      fprintf(f, "\nwinners (fastest verified strategy; margin = its Gop/s over the runner-up's):\n");
    const char *device = atl_row_config(w, "device"); /* a run on several devices: each device's winners */
    if (device)
      fprintf(f, "  %-12s", device);
    fprintf(f, "  %-12s %-9s %-6s %-11s %10.3f Gop/s", atl_row_config_or(w, "pattern", "?"),
            atl_row_config_or(w, "op", "?"), atl_row_config_or(w, "result", "?"), atl_row_config_or(w, "strategy", "?"),
            atl_row_metric(w, "gops", 0));
    const double margin = atl_row_metric(w, "margin", 0);
    if (margin > 0)
      fprintf(f, "  %.2fx\n", margin);
    else
      fprintf(f, "  (no runner-up)\n");
  }
}

