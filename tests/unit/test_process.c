/* atl__run: helper programs run without a shell, with their output, exit
 * status and time bounded. A test that fails if a shell ever reads the
 * arguments (a "$(...)" or backquote would run) or a wait is unbounded. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "core/process.h"

int main(void)
{
  char why[300], *out = NULL, marker[] = "/tmp/atl-process-XXXXXX";
  size_t len = 0;
  int fd = mkstemp(marker);
  CHECK(fd >= 0);
  close(fd);
  unlink(marker);

  /* Arguments reach the program as they are: nothing of them runs. */
  char arg1[600], arg2[600];
  snprintf(arg1, sizeof arg1, "$(touch %s)", marker);
  snprintf(arg2, sizeof arg2, "`touch %s`;touch %s", marker, marker);
  char *echo[] = {"echo", arg1, arg2, NULL};
  CHECK(atl__run(echo, 10, &out, &len, 1 << 20, why, sizeof why) == 0);
  CHECK(out && strstr(out, arg1) && strstr(out, arg2));
  CHECK(out && len == strlen(out));
  CHECK(access(marker, F_OK) != 0);
  free(out);
  out = NULL;

  /* An exit status other than 0 is a failure with the reason. */
  char *no[] = {"false", NULL};
  CHECK(atl__run(no, 10, NULL, NULL, 0, why, sizeof why) == -1);
  CHECK(strstr(why, "exited 1") != NULL);
  char *missing[] = {"/nonexistent/atomlab-tool", NULL};
  CHECK(atl__run(missing, 10, NULL, NULL, 0, why, sizeof why) == -1);

  /* A program that hangs is ended at the bound, with or without output collected. */
  char *hang[] = {"sleep", "30", NULL};
  time_t start = time(NULL);
  CHECK(atl__run(hang, 1, &out, &len, 1 << 20, why, sizeof why) == -1);
  CHECK(strstr(why, "timed out") != NULL);
  CHECK(atl__run(hang, 1, NULL, NULL, 0, why, sizeof why) == -1);
  CHECK(time(NULL) - start < 10);

  /* Output beyond the limit is refused, not truncated silently. */
  char *big[] = {"head", "-c", "200000", "/dev/zero", NULL};
  CHECK(atl__run(big, 10, &out, &len, 1000, why, sizeof why) == -1);
  CHECK(strstr(why, "more than") != NULL);
  return check_exit("test_process");
}
