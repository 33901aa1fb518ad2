/* Whole text files written the crash-safe way the result writer uses:
 * into "path.tmp.PID", then rename(2), so a reader never sees half a file. */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

FILE *cli_tmp_open(const char *path, char *tmp, size_t len)
{
  if (snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid()) >= (int)len)
    return NULL;
  return fopen(tmp, "w");
}

int cli_tmp_commit(FILE *f, const char *tmp, const char *path)
{
  int bad = fflush(f) != 0 || ferror(f);
  bad |= fclose(f) != 0;
  if (!bad && rename(tmp, path) != 0)
    bad = 1;
  if (bad)
    unlink(tmp);
  return bad ? -1 : 0;
}

int cli_write_text(const char *path, const char *text, size_t len)
{
  char tmp[4096];
  FILE *f = cli_tmp_open(path, tmp, sizeof tmp);
  if (f == NULL)
    return -1;
  if (fwrite(text, 1, len, f) != len) {
    fclose(f);
    unlink(tmp);
    return -1;
  }
  return cli_tmp_commit(f, tmp, path);
}
