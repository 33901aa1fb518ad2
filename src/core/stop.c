/* The process-wide stop request (include/atomlab/stop.h). A sig_atomic_t is
 * the one type a signal handler may set and the loops may read. */
#include <signal.h>

#include "atomlab/stop.h"

static volatile sig_atomic_t requested;

void atl_stop_request(int sig)
{
  if (requested == 0)
    requested = sig ? sig : -1;
}

int atl_stop_requested(void) { return requested; }

void atl_stop_reset(void) { requested = 0; }
