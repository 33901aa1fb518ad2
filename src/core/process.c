/* Helper programs run with fork and exec, never through a shell (process.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "process.h"

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* In the child: stdin and stderr from /dev/null, stdout to @p fd (or /dev/null), then exec. */
static void child(char *const argv[], int fd)
{
  int null = open("/dev/null", O_RDWR);
  if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0 ||
      dup2(fd >= 0 ? fd : null, STDOUT_FILENO) < 0)
    _exit(127);
  signal(SIGPIPE, SIG_DFL);
  execvp(argv[0], argv);
  _exit(127);
}

int atl__run(char *const argv[], double timeout_s, char **out, size_t *len, size_t max, char *why, size_t why_len)
{
  int fds[2] = {-1, -1};
  if (out && pipe(fds) != 0) {
    snprintf(why, why_len, "no pipe for %s: %s", argv[0], strerror(errno));
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, why_len, "unable to start %s: %s", argv[0], strerror(errno));
    if (out) {
      close(fds[0]);
      close(fds[1]);
    }
    return -1;
  }
  if (pid == 0) {
    if (out)
      close(fds[0]);
    child(argv, out ? fds[1] : -1);
  }
  char *buf = NULL;
  size_t used = 0, cap = 0;
  int failed = 0;
  const double deadline = now_s() + timeout_s;
  if (out) {
    close(fds[1]);
    for (;;) {
      double left = deadline - now_s();
      struct pollfd p = {fds[0], POLLIN, 0};
      int r = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0) {
        snprintf(why, why_len, "%s timed out after %.0f s", argv[0], timeout_s);
        failed = 1;
        break;
      }
      if (used + 4097 > cap) {
        size_t grown_cap = cap ? cap * 2 : 1 << 16;
        char *grown = grown_cap <= max + 4097 ? realloc(buf, grown_cap) : NULL;
        if (grown == NULL) {
          snprintf(why, why_len, "%s wrote more than %zu bytes", argv[0], max);
          failed = 1;
          break;
        }
        buf = grown;
        cap = grown_cap;
      }
      ssize_t got = read(fds[0], buf + used, cap - used - 1);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      used += (size_t)got;
    }
    close(fds[0]);
  }
  /* Reap it within the deadline, or end it. */
  int status = 0;
  pid_t done = 0;
  while (!failed && (done = waitpid(pid, &status, WNOHANG)) == 0 && now_s() < deadline) {
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  if (done != pid) {
    if (!failed)
      snprintf(why, why_len, "%s timed out after %.0f s", argv[0], timeout_s);
    failed = 1;
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  } else if (!failed && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
    snprintf(why, why_len, "%s %s %d", argv[0], WIFEXITED(status) ? "exited" : "was ended by signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    failed = 1;
  }
  if (failed || !out) {
    free(buf);
    return failed ? -1 : 0;
  }
  if (buf == NULL && (buf = malloc(1)) == NULL) {
    snprintf(why, why_len, "out of memory");
    return -1;
  }
  buf[used] = '\0';
  *out = buf;
  if (len)
    *len = used;
  return 0;
}
