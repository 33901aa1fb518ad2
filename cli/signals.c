/* SIGINT, SIGTERM and SIGHUP (a closed terminal) ask the running command to
 * stop after its current row (atl_stop_request); a second one stops at once
 * (cli/urgent.c); SIGPIPE is ignored, so a closed stdout ends the table
 * (writes fail with EPIPE) but never the measurement or its files. */
#include <signal.h>
#include <string.h>

#include "cli.h"

static void on_stop(int sig)
{
  atl_stop_request(sig);
  cli_urgent_signal(sig);
}

void cli_catch_stop_signals(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  /* no SA_RESTART: a wait on a child returns EINTR, so the signal can be passed on at once */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  cli_urgent_start();
}

void cli_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

int cli_interrupted(const char *command, size_t done, size_t planned, const char *resume_hint)
{
  int sig = atl_stop_requested();
  fprintf(stderr, "error: %s interrupted (signal %d) after %zu", command, sig, done);
  if (planned)
    fprintf(stderr, " of %zu", planned);
  fprintf(stderr, " row%s", (planned ? planned : done) == 1 ? "" : "s");
  if (resume_hint && *resume_hint)
    fprintf(stderr, "; %s\n", resume_hint);
  else
    fprintf(stderr, "; every completed row was written\n");
  return 128 + (sig > 0 ? sig : 0);
}
