/*
 * Checkpoints of an app run, as a sweep has them (sweep.h): every so many
 * seconds the rows completed so far go to the caller's writer, so that a run
 * killed outright keeps what it measured; the same writer is offered for an
 * urgent stop (atl_stop_offer). The apps add their rows one at a time with
 * atl_result_set_add, under the rows lock (atl__rows_lock); a thread of the
 * run's own takes that lock to write them, so no app has to know.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "app_internal.h"
#include "core/output_internal.h"

struct ticker {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  int done;
  const struct atl__app_checkpoint *ck;
  const struct atl_result_set *out;
};

/* The rows so far to the writer, under the rows lock (waited for a bounded time: nothing written without it). */
static void write_rows(const struct ticker *t)
{
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 5;
  if (atl__rows_lock_until(&until) != 0)
    return;
  t->ck->write(t->ck->arg, t->out);
  atl__rows_unlock();
}

static void urgent_write(void *arg) { write_rows(arg); }

static void *tick(void *arg)
{
  struct ticker *t = arg;
  pthread_mutex_lock(&t->lock);
  while (!t->done) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    const double at = until.tv_sec + until.tv_nsec * 1e-9 + t->ck->seconds;
    until.tv_sec = (time_t)at;
    until.tv_nsec = (long)((at - (double)until.tv_sec) * 1e9);
    while (!t->done && pthread_cond_timedwait(&t->wake, &t->lock, &until) != ETIMEDOUT)
      ;
    if (!t->done)
      write_rows(t);
  }
  pthread_mutex_unlock(&t->lock);
  return NULL;
}

int atl__app_run_checkpointed(const struct atl_app_info *app, atl_context_t ctx, const void *params,
                              const struct atl_app_timing *tm, struct atl_result_set *out,
                              const struct atl__app_checkpoint *ck)
{
  if (ck->write == NULL)
    return app->run(ctx, params, tm, out);
  struct ticker t = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, ck, out};
  pthread_t thread;
  const int ticking = ck->seconds > 0 && pthread_create(&thread, NULL, tick, &t) == 0;
  atl_stop_offer(urgent_write, &t);
  const int err = app->run(ctx, params, tm, out);
  atl_stop_offer(NULL, NULL);
  if (ticking) {
    pthread_mutex_lock(&t.lock);
    t.done = 1;
    pthread_cond_signal(&t.wake);
    pthread_mutex_unlock(&t.lock);
    pthread_join(thread, NULL);
  }
  pthread_cond_destroy(&t.wake);
  pthread_mutex_destroy(&t.lock);
  return err;
}
