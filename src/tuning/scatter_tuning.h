/*
 * The scatter-add's tuned constants as data: a row per vendor and architecture in data/tuning/scatter.json (each
 * citing the measurement it came from), and a rule that derives them from the device's facts where no row matches,
 * or where the file is missing or malformed (the note says why). The app (src/apps/scatter.c), its auto rule and
 * the library's launches (scatter_launch.c, scatter_lib.c) read them here. The one reader of the tuning files: the
 * L2 model's per-architecture ratios (data/tuning/l2.json, src/model/l2/float_rule.c) come through the same lookup.
 */
#ifndef ATOMLAB_TUNING_SCATTER_TUNING_H
#define ATOMLAB_TUNING_SCATTER_TUNING_H

#include <stddef.h>

#include "atomlab/device.h"

struct atl__scatter_tuning {
  char row[48];          /* the matching row's name, or "derived" */
  int derived;           /* 1 where no row matched: the derived rule's constants */
  char note[320];        /* the row's source, or why the derived rule applies */
  double part_l2_share;  /* a part range's output rows: this share of the L2 (the rest holds lines streaming past) */
  double sweep_l2_share; /* the sweep's: two neighbouring ranges share the L2 for a while */
  double split_l2_share; /* the sweep's with its split, whose later ranges read only their own keys */
  double auto_run_share;  /* auto: runs where at least this share of rows equal their previous row's key */
  double auto_head_share; /* auto: a head where at least this share of rows have keys recurring within a block */
  double auto_l2_share;   /* auto: ranges where the output exceeds this share of the L2 */
  double auto_bins_run_share;   /* auto, dim 1: bins for runs where at least this share of rows repeat a key */
  double auto_bins_head_share;  /* auto, dim 1: bins for a head from this share of the rows */
  double auto_order_share;      /* auto, dim 1: atomic for keys in order (runs shorter than bins's) from this share */
  double auto_sweep_head_share; /* auto: a head below this share is swept with the rest where the sweep pays */
  unsigned part_batch;    /* part's units in flight a lane over several ranges (one range: 1) */
  unsigned min_threads;   /* the split sweep's launch bounds: resident threads a compute unit (0: no bound) */
  unsigned table_bytes;   /* the block and part variants' local table of sums, at most the local memory */
  unsigned bucket_span;   /* the bucket variant's targets a bucket */
  double auto_bucket_load;     /* auto: bucket for at least this many rows a target (fewer: little to sum first) */
  unsigned auto_bucket_row;    /* auto: bucket for output rows of at least this many bytes */
  unsigned auto_bucket_groups; /* auto: bucket for at least this many buckets a compute unit */
  double dsm_bin_share; /* dsm with the bins past its table by L2 atomics: the share of the bins its tables hold */
  double auto_dsm_load; /* auto, dim 1: dsm for at least this many rows a bin (fewer: its tables' zeroing and flush
                         * cost more than the L2 atomics they save) */
};

/* The rows of a tuning file: at most ATL__TUNING_ROWS. */
#define ATL__TUNING_ROWS 16
struct atl__tuning_rows {
  unsigned n;
  struct atl__tuning_row {
    char name[48], backend[16], vendor[64], arch[32], source[240];
    /* the row's values; a field the row leaves out (negative here) is the derived rule's */
    double part_l2_share, sweep_l2_share, split_l2_share, auto_run_share, auto_head_share, auto_l2_share;
    double auto_bins_run_share, auto_bins_head_share, auto_order_share, auto_sweep_head_share;
    double part_batch, min_threads, table_bytes, bucket_span, auto_bucket_load, auto_bucket_row, auto_bucket_groups;
    double dsm_bin_share, auto_dsm_load;
    /* l2.json's: S_same of float adds over S_same of u32 adds, ATOM and RED (src/model/l2/float_rule.c) */
    double f32_same_ratio_atom, f32_same_ratio_red;
  } row[ATL__TUNING_ROWS];
};

/* Parses a tuning file's @p text into @p rows: 0, or ATL_EINVAL with one line in @p why naming the field and what
 * is allowed. */
int atl__scatter_tuning_parse(const char *text, struct atl__tuning_rows *rows, char *why, size_t len);

/* The constants for @p dev: the derived rule's, then the first row of @p rows (NULL: none) matching its backend,
 * vendor and architecture over them. */
void atl__scatter_tuning_resolve(const struct atl__tuning_rows *rows, const struct atl_device_info *dev,
                                 struct atl__scatter_tuning *t);

/* The first row of @p rows (NULL: none) whose backend, vendor and architecture match @p dev's (each the row's text
 * within the device's, case ignored; a fact the row leaves out matches any); NULL where none does. */
const struct atl__tuning_row *atl__tuning_row_for(const struct atl__tuning_rows *rows, const struct atl_device_info *dev);

/* The tuning files, each read once a process from the first place atl__scatter_tuning_for lists. */
enum atl__tuning_file { ATL__TUNING_SCATTER, ATL__TUNING_L2, ATL__TUNING_FILES };

/* The rows of tuning file @p which ("scatter.json", "l2.json"); none (n 0) where the file is missing or malformed,
 * and then @p *note says why (the path and the field); else @p *note is "". */
const struct atl__tuning_rows *atl__tuning_file_rows(enum atl__tuning_file which, const char **note);

/* The first file named @p name of the places atl__scatter_tuning_for lists (another tuning file of data/tuning: e.g.
 * diagnose-calls.json), into @p path: 0, or ATL_EINVAL where none is. */
int atl__tuning_file_find(const char *name, char *path, size_t len);

struct cJSON;
/* The envelope every tuning table shares, {"format_version": 1, "rows": [at most @p max_rows]}: the rows' array
 * inside *@p root (the caller's to cJSON_Delete, NULL included), or NULL with @p why saying what is wrong. */
const struct cJSON *atl__tuning_rows_of(const char *text, int max_rows, struct cJSON **root, char *why, size_t len);

/* The constants for @p dev from the tuning file the process found first (read once): the user's cache
 * ($XDG_CACHE_HOME/atomlab/tuning/scatter.json), $ATL_DATA_DIR/tuning/, the installed share/atomlab/tuning/, the
 * source tree's data/tuning/. Without one, or with a malformed one, the derived rule's, the note saying why. */
void atl__scatter_tuning_for(const struct atl_device_info *dev, struct atl__scatter_tuning *t);

#endif
