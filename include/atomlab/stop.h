/**
 * @file stop.h
 * A process-wide request to stop long runs early (a signal, a closed pipe, a
 * caller's own reason). Sweeps, strategy loops and apps poll it between rows,
 * return what they completed and ATL_EINTR; the caller writes those rows.
 * atl_stop_request() is async-signal-safe: a SIGINT/SIGTERM/SIGHUP handler
 * calls it. A second request asks for a stop at once: the loop offers a
 * writer of the rows it completed (atl_stop_offer), which the caller runs on
 * another thread (atl_stop_checkpoint) while the loop still waits on its
 * device, and then ends the process.
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

/** How many requests came since the last reset (a second one: stop at once). */
int atl_stop_requests(void);

/**
 * While a loop runs: @p write writes the rows it completed so far (its
 * output files, as a checkpoint does), safe to call from another thread at
 * any time: it takes the loop's own lock, waiting a bounded time for it.
 * NULL withdraws the offer (the loop ends, or writes its final files).
 */
void atl_stop_offer(void (*write)(void *arg), void *arg);

/** Calls the writer offered now (atl_stop_offer), on the caller's thread; 1 if there was one, else 0. */
int atl_stop_checkpoint(void);

/** Forgets a request (tests run several commands in one process). */
void atl_stop_reset(void);

#ifdef __cplusplus
}
#endif
#endif
