/**
 * @file diagnose.h
 * The diagnosis pipeline as one call: counters (an ncu raw CSV export) and the
 * program's instructions (SASS per kernel, where available) in; one row of kind
 * "diagnosis" per kernel launch out, in the one row model (result.h). A row
 * holds the launch, its source (an NVTX range "op@file:line" where the program
 * named one), each model's U with its range, the verdict, and the advice as
 * data: the strategy, the atomlab call that realizes it and the predicted
 * speedup, or its floor where only a floor is known. Nothing is printed:
 * atl_diagnosis_advice_text() writes the advice's words from a row.
 */
#ifndef ATOMLAB_DIAGNOSE_H
#define ATOMLAB_DIAGNOSE_H

#include <stddef.h>

#include "l2model.h"
#include "model.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What atl_diagnose() reads. Every pointer but @p counters may be NULL. */
struct atl_diagnose_input {
  const char *counters;                 /**< ncu's CSV export (`--page raw`), as text */
  const char *name;                     /**< the export's name in messages */
  const char *sass;                     /**< SASS of the program's kernels (cuobjdump -sass / nvdisasm text, each
                                             kernel after a "Function : NAME" line): the float and CAS shares */
  const char *types;                    /**< a `kernel,f32_share` CSV that overrides the SASS's float shares */
  const struct atl_smem_table *table;   /**< the shared-memory calibration; NULL: that model is skipped (noted) */
  const struct atl_smem_settings *settings; /**< threshold, variant, fallbacks; NULL: atl_smem_settings_init's */
  const struct atl_l2_calibration *l2;  /**< the L2 calibration; NULL: U is the atomic input's share alone */
};

/**
 * An ncu CSV export (`--page raw`, or the details page) parsed once: the header, the units row and every row's
 * fields. The diagnosis, both models' counters and the launches (device, NVTX range) all read this one structure.
 */
struct atl_ncu_export;

/**
 * Parses the export @p text (named @p name in messages) into @p *out, to free with atl_ncu_export_free(). A text
 * without the header or with malformed rows still parses: each reader says what it cannot use. Returns 0 or
 * ATL_ENOMEM with @p why.
 */
int atl_ncu_export_parse(const char *text, const char *name, struct atl_ncu_export **out, char *why, size_t why_len);

/** Frees an export of atl_ncu_export_parse(); NULL is allowed. */
void atl_ncu_export_free(struct atl_ncu_export *e);

/** atl_ncu_parse_csv() of a parsed export (the shared-memory model's counters). */
int atl_ncu_report_from_export(const struct atl_ncu_export *e, double warps_per_sm, double sm_count,
                               struct atl_ncu_report *report, char *why, size_t why_len);

/** atl_l2_read_csv() of a parsed export (the L2 model's counters). */
int atl_l2_report_from_export(const struct atl_ncu_export *e, struct atl_l2_report *out, char *why, size_t why_len);

/**
 * atl_diagnose() of a parsed export @p counters (@p in->counters is not read): the caller that also prints the
 * models' tables parses the export once for all of them.
 */
int atl_diagnose_export(const struct atl_diagnose_input *in, const struct atl_ncu_export *counters,
                        struct atl_result_set *out, char *why, size_t why_len);

/** atl_diagnose_device() of a parsed export. */
int atl_diagnose_device_of(const struct atl_ncu_export *counters, char *name, size_t len);

/**
 * Diagnoses every launch of @p in->counters into @p out (rows appended, kind "diagnosis"). Each row's
 * configuration: id, kernel, source, op, device, verdict, model (which model's verdict), access, strategy,
 * call, speedup_kind ("predicted" or "floor"), op_call (the op family's own atomlab call by the access, whatever
 * the verdict; absent where the source names no known op), finding ("call faster": not a bottleneck, yet the op's
 * call is predicted faster by the margin of data/tuning/diagnose-calls.json, the op slow for reasons other than the
 * atomic units; then call and speedup are set, strategy empty), strategy_speedup_kind; metrics: duration_us, u_smem
 * (+ _low, _high), u_l2 (+ _low, _high), f32_share, cas_share, speedup (the launch's time over the advised call's
 * price where the call is priced: docs/design/model.md, "Pricing atomlab's call"; else the strategy's figure),
 * strategy_speedup (the strategy's figure, where the call's price replaced it), call_us (the call's price). A launch
 * with nothing to say has an empty strategy and no finding. Returns 0, or ATL_EINVAL (unreadable counters or SASS) /
 * ATL_ENOMEM with @p why.
 */
int atl_diagnose(const struct atl_diagnose_input *in, struct atl_result_set *out, char *why, size_t why_len);

/** The share of a kernel's global atomic instructions that are float adds, and that are CAS, from its SASS. */
struct atl_sass_atomics {
  unsigned global;   /**< ATOM, ATOMG, RED, REDG */
  unsigned f32_add;  /**< those that add floats: .ADD.F32 (.FTZ.RN and the like) */
  unsigned cas;      /**< those that compare and swap: .CAS, .CAST */
  unsigned shared;   /**< ATOMS */
};

/**
 * The atomic instructions of the function of @p sass that @p kernel names (its demangled base name in the
 * "Function :" line's name, or a prefix either way) into @p out. Returns 1 where such a function was found,
 * else 0 (out zeroed).
 */
int atl_sass_atomics_of(const char *sass, const char *kernel, struct atl_sass_atomics *out);

/** What decided a launch's float share (atl_diagnose_float_share). */
enum atl_float_source {
  ATL_FLOAT_COUNTERS = 0, /**< nothing below: the counters' share stands (0: integer adds) */
  ATL_FLOAT_TYPES,        /**< the types file's share */
  ATL_FLOAT_SASS,         /**< the SASS's share of float adds among the kernel's global atomics */
  ATL_FLOAT_TIME          /**< a type not known: float adds, the launch's time holding their price */
};

/** A launch's float share as atl_diagnose_float_share() decided it. */
struct atl_float_share {
  enum atl_float_source source;
  int have_sass;                 /**< the SASS holds the kernel's function: @p sass is its atomics */
  struct atl_sass_atomics sass;
  struct atl_l2_util u;          /**< the launch's L2 utilization at the decided share (ATL_FLOAT_TIME: U's low end
                                      the integer price's, atl_l2_float_from_time) */
  double u_integer;              /**< ATL_FLOAT_TIME: U with integer adds */
};

/**
 * The one rule that sets launch @p k's float share, for the diagnosis and the L2 table alike (so they cannot
 * disagree): the SASS's share where @p sass holds the kernel's function with global atomics, unless @p typed (a
 * types file was applied to @p k's report, atl_l2_types_apply()) gave @p k a share above 0; where neither the SASS
 * holds the function nor a types file was given, float adds wherever atl_l2_float_from_time() takes them with
 * @p cal (NULL: never) and @p threshold. Sets @p k->f32_share and @p out (NULL allowed).
 */
void atl_diagnose_float_share(struct atl_l2_counters *k, const char *sass, int typed,
                              const struct atl_l2_calibration *cal, double threshold, struct atl_float_share *out);

/** atl_diagnose_float_share() on every launch of @p r: the shares the L2 table prints. */
void atl_diagnose_float_shares(struct atl_l2_report *r, const char *sass, int typed,
                               const struct atl_l2_calibration *cal, double threshold);

/**
 * The advice of a diagnosis row in words, generated from its fields ("torch.bincount at train.py:42 ->
 * atomlab scatter_add bins (predicted 500x)"); "" where the row has no advice. Returns @p buf.
 */
char *atl_diagnosis_advice_text(const struct atl_row *row, char *buf, size_t len);

/**
 * The device the export's first launch ran on, as ncu names it (device__attribute_display_name), into @p name;
 * "" where the export does not name it. Reads only the launches, not the models' counters. Returns 0, or
 * ATL_EINVAL / ATL_ENOMEM.
 */
int atl_diagnose_device(const char *counters, char *name, size_t len);

/**
 * The shared-memory calibration of the device named @p device_name (as ncu names it): the path of the table
 * the product's lookup finds (atl_smem_table_find(): the user's cache, then the shipped data) in @p path.
 * Returns 0, or ATL_EINVAL where there is none.
 */
int atl_diagnose_table_for(const char *device_name, char *path, size_t len);

/**
 * The L2 calibration export @p file ("l2-same.csv", "l2-spread.csv", "l2-same-f32.csv", "l2-cas-chain.csv",
 * "dram.csv") of the device named @p device_name: in its user cache folder (atl_cache_dir()), else beside the
 * shared-memory table the product's lookup finds (atl_diagnose_table_for()). Returns 0 with @p path, or ATL_EINVAL.
 */
int atl_diagnose_l2_file_for(const char *device_name, const char *file, char *path, size_t len);

#ifdef __cplusplus
}
#endif

#endif
