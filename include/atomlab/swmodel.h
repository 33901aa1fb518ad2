/**
 * @file swmodel.h
 * Seed 000's speedup model (Section V, equations (1)-(4)): the atomic term of
 * a kernel's time with the system atomic and with the software atomic. The
 * swatomic app reports it beside its measurements; a caller can evaluate it
 * for its own device constants without running anything.
 */
#ifndef ATOMLAB_SWMODEL_H
#define ATOMLAB_SWMODEL_H

#include "experimental.h" /* not the stable API */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The device constants, in any one time unit (atomlab uses ns). */
struct atl_swmodel {
  double t_fast; /**< one memory transaction through the FastPath (a plain global access) */
  double t_l;    /**< one (serialized) atomic update of a local-memory word */
  double t_comp; /**< one memory transaction through the CompletePath (a serialized global atomic) */
  /* Equation (2'') (docs/design/software-atomics.md "The coordinator's pass"): all 0 = the seed's t_CWG. */
  double k_chunk;  /**< one chunk of the coordinator's pass, in t_fast */
  double k_queue;  /**< what each waiting wavefront adds to one chunk (its polls queue at the L2), in t_fast */
  double k_floor;  /**< a requester's own round trip, the round's floor when the pass is shorter, in t_fast */
  double k_launch; /**< one launch's fixed cost, shared by a launch's rounds (equation (1')), in t_fast */
};

/** Who calls the atomic at once (the seed: one wavefront per work-group). */
struct atl_swmodel_load {
  double n_c;     /**< N_c: work-items of one wavefront that call */
  double n_cwg;   /**< N_cwg: requesting wavefronts (the seed's concurrent work-groups) */
  double n_wg;    /**< N_wg: wavefronts the coordinator compares against (N_wg / 2 on average) */
  double targets; /**< words the calls spread over; the seed's model has 1 (0 reads as 1) */
  double slots;   /**< the coordinator's work-items: wavefronts it reads per chunk (0: all in one chunk) */
  double rounds;  /**< atomic rounds per launch (--iters), over which k_launch is shared (0: no launch term) */
};

/** Equation (2)'s three parts: t_RWGI, t_CWG and t_RWGP. */
struct atl_swmodel_parts {
  double rwgi; /**< 2 N_c t_l + 2 t_fast: the wavefront's local sum, then its address and sum posted */
  double cwg;  /**< 5 t_fast + N_cwg t_l + N_wg / 2 t_l: the coordinator */
  double rwgp; /**< 2 t_fast: the wavefront reads its answer */
  double pass;   /**< the coordinator's pass, (C k_chunk + C N_cwg k_queue) t_fast (0 with the seed's constants) */
  double floor;  /**< k_floor t_fast: the round when the pass is shorter */
  double launch; /**< k_launch t_fast / rounds: the launch's share of one round */
  double chunks; /**< C = ceil(N_cwg / slots): chunks per pass */
};

/**
 * Equations (1) and (4): N t_comp, N = N_c N_cwg (per word when targets > 1: the words are served in parallel);
 * (1') with k_launch and rounds set: + k_launch t_fast / rounds, the launch's share of a measured round.
 */
double atl_swmodel_system(const struct atl_swmodel *m, const struct atl_swmodel_load *l);

/**
 * Equation (2) (= equation (3)): t_RWGI + t_CWG + t_RWGP; with k_chunk,
 * k_queue or k_floor set, equation (2''): t_RWGI + t_RWGP + launch +
 * max(k_floor, C k_chunk + C N_cwg k_queue) t_fast: a round is the longer of
 * a requester's own round trip and the coordinator's pass (C chunks, each
 * one's global accesses queued behind the N_cwg waiting wavefronts' polls).
 * @p parts may be NULL.
 */
double atl_swmodel_software(const struct atl_swmodel *m, const struct atl_swmodel_load *l,
                            struct atl_swmodel_parts *parts);

struct atl_swmodel_point;
/**
 * Calibrates k_launch, k_floor, k_chunk and k_queue of @p m (t_fast, t_l,
 * t_comp set) by relative least squares on the @p n points' measured times:
 * k_launch on the system times (equation (1')), then equation (2'') on the
 * software times: for each split of the points by their chunks C, k_floor on
 * those at or below it, k_chunk and k_queue on those above; the split whose
 * max() has the least relative squared error wins. Returns 0, or -1 (m
 * unchanged) where no split leaves two or more points to the pass with a
 * regular system and constants >= 0.
 */
int atl_swmodel_fit(struct atl_swmodel *m, const struct atl_swmodel_point *pt, size_t n);

/** One grid of a swatomic --experiment file: its loads and its measured times per round. */
struct atl_swmodel_point {
  double workgroups;            /**< the grid, the coordinator's work-group included */
  struct atl_swmodel_load load; /**< the software kernel's requesters (the coordinator's work-group left out) */
  struct atl_swmodel_load all;  /**< the system kernel's callers: every work-group's wavefronts */
  double sw_meas, sys_meas;     /**< measured t_a_software and t_a_system (ns per round) */
};

struct atl_result_set;

/**
 * Reads a swatomic --experiment result set: t_fast, t_l and t_comp of its
 * model row into @p m (the k_ constants 0) and one point per grid with a
 * verified software and system row. The work-group size comes from the rows'
 * wg_size metric or the recorded command's --wg-size. Returns 0, or -1 with
 * @p why.
 */
int atl_swmodel_points(const struct atl_result_set *set, struct atl_swmodel *m, struct atl_swmodel_point *pt,
                       size_t max, size_t *n, char *why, size_t why_len);

/** The median |error| over the points with in[i] == @p want (all where @p in is NULL). */
struct atl_swmodel_error {
  size_t n;          /**< points counted */
  double software;   /**< median |t_a_software predicted / measured - 1| */
  double system;     /**< median |t_a_system predicted / measured - 1| */
  double speedup;    /**< median |speedup predicted / measured - 1| */
};
struct atl_swmodel_error atl_swmodel_evaluate(const struct atl_swmodel *m, const struct atl_swmodel_point *pt,
                                              size_t n, const int *in, int want);

/** What `atomlab model swatomic` reports: a swatomic --experiment file, optionally with the pass fitted. */
struct atl_swmodel_request {
  const char *path;      /**< the file whose grids are predicted and compared */
  const char *fit_path;  /**< the file to fit equation (2'')'s constants on; NULL: @p path where fitting */
  const uint32_t *grids; /**< the fit file's grids to fit on (work-groups, coordinator included) */
  size_t ngrids;         /**< 0: all of them */
  int fit;               /**< fit equations (1') and (2'') (else the seed's equations as they stand) */
};
enum { ATL_SWMODEL_BAD_FILE = 1, ATL_SWMODEL_NO_FIT = 2 };
/**
 * Writes the model's table to @p out: per grid the predicted and measured
 * software time and speedup and whether the grid was in the fit, then the
 * median |error| (in and out of sample where fitted). The grids hold at most
 * 64 points. Returns 0, or ATL_SWMODEL_BAD_FILE / ATL_SWMODEL_NO_FIT with @p why.
 */
int atl_swmodel_report(FILE *out, const struct atl_swmodel_request *rq, char *why, size_t why_len);
/** t_a_system / t_a_software; 0 when the software time is not positive. */
double atl_swmodel_speedup(const struct atl_swmodel *m, const struct atl_swmodel_load *l);

#ifdef __cplusplus
}
#endif
#endif
