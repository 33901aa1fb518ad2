/* The facts every result file starts with: which atomlab, when, what command, on which device. The version
 * and commit are this library's (generated/atl_version.h, refreshed on every build). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "atl_version.h"
#include "atomlab/process.h"
#include "atomlab/result.h"

void atl_run_meta_init(struct atl_run_meta *meta, atl_context_t ctx, int argc, char **argv)
{
  memset(meta, 0, sizeof *meta);
  snprintf(meta->tool_version, sizeof meta->tool_version, "%s", ATL_VERSION);
  snprintf(meta->git_commit, sizeof meta->git_commit, "%s", ATL_GIT_COMMIT);
  time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  strftime(meta->date, sizeof meta->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  atl_shell_join(argc, argv, meta->command, sizeof meta->command); /* pasted into a shell, it runs the same */
  const struct atl_device_info *d = ctx ? atl_device_current(ctx) : NULL;
  if (d)
    meta->device = *d;
}
