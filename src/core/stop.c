/* The process-wide stop request (include/atomlab/stop.h). A sig_atomic_t is
 * the one type a signal handler may set and the loops may read. The writer a
 * running loop offers for an urgent stop is called from another thread
 * (never from the handler), under a mutex so that it is not withdrawn while
 * it runs. */
#include <pthread.h>
#include <signal.h>

#include "atomlab/stop.h"

static volatile sig_atomic_t requested, requests;

static pthread_mutex_t offer_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*offered)(void *arg);
static void *offered_arg;

void atl_stop_request(int sig)
{
  if (requested == 0)
    requested = sig ? sig : -1;
  if (requests < 1000)
    requests++;
}

int atl_stop_requested(void) { return requested; }

int atl_stop_requests(void) { return requests; }

void atl_stop_reset(void) { requested = requests = 0; }

void atl_stop_offer(void (*write)(void *arg), void *arg)
{
  pthread_mutex_lock(&offer_lock);
  offered = write;
  offered_arg = arg;
  pthread_mutex_unlock(&offer_lock);
}

int atl_stop_checkpoint(void)
{
  pthread_mutex_lock(&offer_lock);
  const int any = offered != NULL;
  if (any)
    offered(offered_arg);
  pthread_mutex_unlock(&offer_lock);
  return any;
}
