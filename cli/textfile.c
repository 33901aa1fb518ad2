/* Whole text files written the crash-safe way the result writer uses:
 * into "path.tmp.PID", then rename(2), so a reader never sees half a file. */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

int cli_write_text(const char *path, const char *text, size_t len)
{
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
    return -1;
  FILE *f = fopen(tmp, "w");
  if (f == NULL)
    return -1;
  int bad = fwrite(text, 1, len, f) != len;
  bad |= fflush(f) != 0 || ferror(f);
  bad |= fclose(f) != 0;
  if (!bad && rename(tmp, path) != 0)
    bad = 1;
  if (bad)
    unlink(tmp);
  return bad ? -1 : 0;
}
