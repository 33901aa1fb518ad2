/**
 * @file stop.h
 * A process-wide request to stop long runs early (a signal, a closed pipe, a
 * caller's own reason). Sweeps, strategy loops and apps poll it between rows,
 * return what they completed and ATL_EINTR; the caller writes those rows.
 * atl_stop_request() is async-signal-safe: a SIGINT/SIGTERM handler calls it.
 */
#ifndef ATOMLAB_STOP_H
#define ATOMLAB_STOP_H

#include "experimental.h" /* not the stable API */

#ifdef __cplusplus
extern "C" {
#endif

/** Asks every running loop to stop after its current row; @p sig (nonzero) says why, e.g. SIGINT. */
void atl_stop_request(int sig);

/** The value the first atl_stop_request() gave since the last reset; 0 while nobody asked. */
int atl_stop_requested(void);

/** Forgets a request (tests run several commands in one process). */
void atl_stop_reset(void);

#ifdef __cplusplus
}
#endif
#endif
