/*
 * The price of atomlab's advised call (docs/design/model.md, "Pricing atomlab's call"): the job's bytes at the
 * device's achievable DRAM rate over the call's measured efficiency for the launch's key law and shape, plus a launch
 * floor; the efficiencies are data (data/tuning/diagnose-calls.json, each entry naming its measurements).
 */
#ifndef ATOMLAB_PROFILE_CALL_PRICE_H
#define ATOMLAB_PROFILE_CALL_PRICE_H

#include <stddef.h>

#include "atomlab/l2model.h"

#define ATL__CALL_ROWS 8
#define ATL__CALL_ENTRIES 32

/* The table of diagnose-calls.json: a row per architecture, its calls' efficiencies. */
struct atl__call_table {
  unsigned n;
  struct atl__call_row {
    char name[48], arch[32];
    double launch_us, faster; /* the launch floor; the margin from which a call counts as faster */
    unsigned n;
    struct atl__call_entry {
      char call[48], access[8], shape[8];
      double efficiency;
    } e[ATL__CALL_ENTRIES];
  } row[ATL__CALL_ROWS];
};

/* One call's price on one launch. */
struct atl__call_price {
  int priced;           /* 1: call_ns holds the price; 0: note says why there is none */
  double call_ns;       /* launch floor + bytes / (rate x efficiency) */
  double bytes;         /* the job's bytes: the launch's DRAM bytes (keys, values and output as the op moved them) */
  double rate;          /* bytes/ns: the calibrated achievable rate, else the launch's own peak */
  double efficiency;    /* the table's entry */
  double faster;        /* the row's margin */
  const char *access, *shape;
  char note[200];       /* how it was priced, or why not */
};

/* Parses diagnose-calls.json's @p text: 0, or ATL_EINVAL with one line naming the field and what is allowed. */
int atl__call_table_parse(const char *text, struct atl__call_table *t, char *why, size_t len);

/* The table the tuning lookup finds (read once a process); none (n 0) where missing or malformed, @p note saying so. */
const struct atl__call_table *atl__call_table_get(const char **note);

/* The key law a call is priced for: "hot" (one word: the busiest slice serves half the requests or more, or the
 * shared-memory model's bottleneck), "head" (hot words, not one), "spread"; NULL without atomics. */
const char *atl__call_access(const struct atl_l2_counters *k, const struct atl_l2_util *u, int smem_hot);

/* Prices @p call on launch @p k (its access @p u; @p smem_hot: the shared-memory model's bottleneck) with table @p t
 * (NULL: the one atl__call_table_get finds, @p table_note its note) and the DRAM rate of @p cal (NULL: the launch's
 * own peak) into @p out. */
void atl__call_price(const struct atl__call_table *t, const char *table_note, const char *call,
                     const struct atl_l2_counters *k, const struct atl_l2_util *u, int smem_hot,
                     const struct atl_l2_calibration *cal, struct atl__call_price *out);

/* 1 where launch @p k's atomics are its job, so that its bytes are the call's: its atomic requests, a sector of 32
 * bytes each, cover at least a quarter of its DRAM bytes (not a pass over data that flushes a few counters). */
int atl__call_launch_is_job(const struct atl_l2_counters *k);

#endif
