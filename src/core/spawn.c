/* Running another program (gnuplot, ncu, atomlab itself) and waiting for it,
 * with a bound: the program runs in a process group of its own, so that a
 * stop request (SIGINT/SIGTERM to atomlab) or a timeout reaches the whole tree
 * it started (ncu's target, a shell script's sleep), and a program that
 * ignores the polite signal is killed after a grace time (a short one after
 * a second request, which is passed on too). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "atomlab/process.h"
#include "atomlab/stop.h"

/* How long a program may take to end after the polite signal before it is killed:
 * long enough for `atomlab rmw` to finish its current row and write its file. */
#define GRACE_S 20.0
/* After a second stop request: long enough for atomlab's urgent write of its completed rows. */
#define URGENT_GRACE_S 8.0
/* How often the wait looks at the child, the clock and the stop flag: short enough that
 * Ctrl-C feels immediate, long enough to cost nothing (a signal also ends the sleep early). */
#define POLL_NS 20000000L

/* In the child: points descriptor @p target at @p path, or exits 127. */
static void redirect(int target, const char *path, int flags)
{
  int fd = open(path, flags, 0644);
  if (fd < 0 || dup2(fd, target) < 0)
    _exit(127);
  close(fd);
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The signal to pass on for stop request @p req: the one atomlab got, SIGTERM for any other reason. */
static int forwarded(int req) { return req == SIGINT || req == SIGTERM || req == SIGHUP ? req : SIGTERM; }

/* Sends @p sig to the group, and SIGCONT after it: a stopped program (Ctrl-Z, SIGTTIN)
 * would otherwise hold the signal pending until the grace time ran out. */
static void signal_group(pid_t pgid, int sig)
{
  kill(-pgid, sig);
  if (sig != SIGKILL && sig != SIGCONT)
    kill(-pgid, SIGCONT);
}

/* Waits for the child @p pid (leader of group @p pid), passing on stop requests and
 * enforcing @p timeout (0: none). As atl_spawn returns. */
static int wait_bounded(pid_t pid, double timeout)
{
  const double start = now_s();
  int status = 0, reaped = 0, signalled = 0, killed = 0, timed_out = 0;
  double kill_at = 0;
  for (;;) {
    if (!reaped) {
      pid_t r = waitpid(pid, &status, WNOHANG);
      if (r == pid)
        reaped = 1;
      else if (r < 0 && errno != EINTR)
        return -1;
    }
    if (reaped) {
      /* After our signal, what is left of the group once its leader is gone (a child that
       * ignored the signal) is killed. Not waited for: its orphans' zombies can linger in the
       * group until init reaps them, which is no sign of life. */
      if (signalled && !killed)
        kill(-pid, SIGKILL);
      break;
    }
    const double t = now_s();
    if (!signalled) {
      int req = atl_stop_requested();
      if (req || (timeout > 0 && t - start >= timeout)) {
        timed_out = !req;
        signal_group(pid, req ? forwarded(req) : SIGTERM);
        signalled = 1;
        kill_at = t + GRACE_S;
      }
    } else if (signalled == 1 && atl_stop_requests() >= 2) {
      /* a second stop request: passed on too (atomlab there stops at once, keeping its rows); a short grace */
      signal_group(pid, forwarded(atl_stop_requested()));
      signalled = 2;
      if (kill_at > t + URGENT_GRACE_S)
        kill_at = t + URGENT_GRACE_S;
    } else if (!killed && t >= kill_at) {
      signal_group(pid, SIGKILL);
      killed = 1; /* the leader cannot outlive SIGKILL: the next waits end */
    }
    struct timespec nap = {0, POLL_NS};
    nanosleep(&nap, NULL); /* EINTR (the parent's own SIGINT) just makes the next look sooner */
  }
  if (timed_out)
    return ATL_SPAWN_TIMEOUT;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int atl_spawn(const char *path, char *const *argv, const struct atl_spawn_io *io)
{
  /* A stop asked for before the start: the program would only be signalled at once. */
  int req = atl_stop_requested();
  if (req)
    return 128 + forwarded(req);
  fflush(stdout); /* or the child would repeat what is still buffered */
  fflush(stderr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    /* A group of its own: the parent signals the whole tree at once, and a terminal's Ctrl-C
     * reaches only the parent, which passes it on and then waits (no race between the two). */
    setpgid(0, 0);
#ifdef __linux__
    /* Should atomlab itself be killed outright (SIGKILL), its child is told to stop too. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
      _exit(127);
#else
    (void)parent;
#endif
    /* Out of the terminal's foreground group, reading the terminal would stop the program
     * (SIGTTIN) until the timeout: a terminal on stdin becomes /dev/null; files and pipes stay. */
    if (isatty(STDIN_FILENO))
      redirect(STDIN_FILENO, "/dev/null", O_RDONLY);
    if (io && io->dir && chdir(io->dir) != 0)
      _exit(127);
    int flags = O_WRONLY | O_CREAT | (io && io->append ? O_APPEND : O_TRUNC);
    if (io && io->out)
      redirect(STDOUT_FILENO, io->out, flags);
    if (io && io->err)
      redirect(STDERR_FILENO, io->err, flags);
    /* atomlab catches SIGINT/SIGTERM (reset by exec) and ignores SIGPIPE (kept by exec):
     * the program it runs expects the defaults */
    signal(SIGPIPE, SIG_DFL);
    execv(path, argv);
    _exit(127);
  }
  setpgid(pid, pid); /* in the parent too: the group exists before the first signal, whoever runs first */
  return wait_bounded(pid, io ? io->timeout : 0);
}
