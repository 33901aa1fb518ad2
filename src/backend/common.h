/* Small pieces every backend shares: its runtime loaded once, its kernel build. */
#ifndef ATOMLAB_BACKEND_COMMON_H
#define ATOMLAB_BACKEND_COMMON_H

#include <pthread.h>
#include <stddef.h>

#include "atomlab/backend.h"

/**
 * What a device has built, kept so that a request is compiled once per device: the first member of each backend's
 * kernel entry (so the entry's address is its own), on a list per device, newest first.
 */
struct atl__built {
  char *key; /**< the request it was built for, "source|entry|defines" (the entry owns it) */
  struct atl__built *next;
};

/**
 * A backend's build asks here first. 0 with *hit, the entry built before for @p req, where there is one; else 0 with
 * *hit NULL and *key, the request's key (malloc'ed, for the entry about to be built); ATL_ENOMEM.
 */
int atl__built_find(struct atl__built *list, const struct atl_build *req, void **hit, char **key);

/**
 * Splits space-separated defines "A=1 B" into compiler options "-DA=1", "-DB",
 * stored in @p storage (at least 2 * strlen(defines) + 2 bytes), with pointers
 * in @p argv. Returns the number of options, or -1 if more than @p max.
 */
int atl__define_options(const char *defines, char *storage, const char **argv, int max);

/**
 * A vendor runtime a backend opens at run time (dlopen), once per process
 * (under pthread_once: threads opening contexts at once all wait for the one
 * load): loaded, or why it could not be, for every later call.
 */
struct atl__runtime {
  pthread_once_t once;
  int loaded; /**< 0 not tried, 1 ok, -1 failed */
  char why[256];
};
#define ATL__RUNTIME_INIT {PTHREAD_ONCE_INIT, 0, ""}

/**
 * Loads @p rt once per process with @p load (which opens it with atl__runtime_open, fails with
 * atl__runtime_fail on a NULL context and sets loaded = 1 when done): 0 where it is loaded, else ATL_ENODEV
 * with the reason on @p ctx.
 */
int atl__runtime_load(atl_context_t ctx, struct atl__runtime *rt, void (*load)(void));

/**
 * Starts loading @p rt by opening its library @p lib into @p handle: 1 where
 * the caller loads the rest now (it counts as failed until the caller sets
 * loaded = 1), 0 where it is loaded, ATL_ENODEV with its reason on @p ctx
 * where it failed, before or now ("@p missing (@p lib not found)").
 */
int atl__runtime_open(atl_context_t ctx, struct atl__runtime *rt, const char *lib, const char *missing, void **handle);

/** Loading @p rt failed: the reason (@p fmt) is kept for later calls and set on @p ctx; returns ATL_ENODEV. */
int atl__runtime_fail(atl_context_t ctx, struct atl__runtime *rt, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
