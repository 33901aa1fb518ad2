/**
 * @file swmodel.h
 * Seed 000's speedup model (Section V, equations (1)-(4)): the atomic term of
 * a kernel's time with the system atomic and with the software atomic. The
 * swatomic app reports it beside its measurements; a caller can evaluate it
 * for its own device constants without running anything.
 */
#ifndef ATOMLAB_SWMODEL_H
#define ATOMLAB_SWMODEL_H

#ifdef __cplusplus
extern "C" {
#endif

/** The device constants, in any one time unit (atomlab uses ns). */
struct atl_swmodel {
  double t_fast; /**< one memory transaction through the FastPath (a plain global access) */
  double t_l;    /**< one (serialized) atomic update of a local-memory word */
  double t_comp; /**< one memory transaction through the CompletePath (a serialized global atomic) */
};

/** Who calls the atomic at once (the seed: one wavefront per work-group). */
struct atl_swmodel_load {
  double n_c;     /**< N_c: work-items of one wavefront that call */
  double n_cwg;   /**< N_cwg: requesting wavefronts (the seed's concurrent work-groups) */
  double n_wg;    /**< N_wg: wavefronts the coordinator compares against (N_wg / 2 on average) */
  double targets; /**< words the calls spread over; the seed's model has 1 (0 reads as 1) */
};

/** Equation (2)'s three parts: t_RWGI, t_CWG and t_RWGP. */
struct atl_swmodel_parts {
  double rwgi; /**< 2 N_c t_l + 2 t_fast: the wavefront's local sum, then its address and sum posted */
  double cwg;  /**< 5 t_fast + N_cwg t_l + N_wg / 2 t_l: the coordinator */
  double rwgp; /**< 2 t_fast: the wavefront reads its answer */
};

/** Equations (1) and (4): N t_comp, N = N_c N_cwg (per word when targets > 1: the words are served in parallel). */
double atl_swmodel_system(const struct atl_swmodel *m, const struct atl_swmodel_load *l);

/** Equation (2) (= equation (3)): t_RWGI + t_CWG + t_RWGP. @p parts may be NULL. */
double atl_swmodel_software(const struct atl_swmodel *m, const struct atl_swmodel_load *l,
                            struct atl_swmodel_parts *parts);

/** t_a_system / t_a_software; 0 when the software time is not positive. */
double atl_swmodel_speedup(const struct atl_swmodel *m, const struct atl_swmodel_load *l);

#ifdef __cplusplus
}
#endif
#endif
