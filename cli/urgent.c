/*
 * A second stop signal stops at once. The handler only posts a semaphore
 * (async-signal-safe); this thread then has the running loop write the rows
 * it completed (atl_stop_checkpoint: its output files, as a checkpoint), and
 * ends the process with 128 + the signal, without waiting for the launch in
 * flight. Where nothing was offered (report waiting on a program it runs),
 * nothing happens here: that wait passes the second signal on and is
 * bounded by a short grace time (atl_spawn).
 */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

static sem_t wake;
static volatile sig_atomic_t urgent_sig;
static int started;

static void *urgent_main(void *arg)
{
  (void)arg;
  for (;;) {
    while (sem_wait(&wake) != 0) /* EINTR */
      ;
    if (!atl_stop_checkpoint())
      continue;
    fflush(stdout);
    fprintf(stderr, "error: stopped at once by a second signal (%d): every completed row was written\n",
            (int)urgent_sig);
    _exit(128 + urgent_sig);
  }
  return NULL;
}

void cli_urgent_start(void)
{
  pthread_t t;
  sigset_t all, old;
  if (started)
    return;
  if (sem_init(&wake, 0, 0) != 0)
    return;
  /* the thread takes no signal: the handler runs on a thread of the measurement, which it interrupts at most */
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  started = pthread_create(&t, NULL, urgent_main, NULL) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (started)
    pthread_detach(t);
}

void cli_urgent_signal(int sig)
{
  if (started && atl_stop_requests() >= 2) {
    urgent_sig = sig;
    sem_post(&wake);
  }
}

double cli_checkpoint_s(double fallback)
{
  const char *env = getenv("ATL_CHECKPOINT_S");
  char *end;
  const double s = env && *env ? strtod(env, &end) : 0;
  return env && *env && *end == '\0' && s > 0 && s <= 86400 ? s : fallback;
}
