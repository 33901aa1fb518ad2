/* Seed 000, Section V. Kept apart from the measurement so that the
 * equations can be checked against hand-computed values (tests/unit). */
#include <math.h>
#include <stddef.h>

#include "atomlab/swmodel.h"

/* the launch's share of one measured round (a row's time is a launch's over its rounds) */
static double launch_share(const struct atl_swmodel *m, const struct atl_swmodel_load *l)
{
  return l->rounds > 0 ? m->k_launch * m->t_fast / l->rounds : 0;
}

double atl_swmodel_system(const struct atl_swmodel *m, const struct atl_swmodel_load *l)
{
  const double words = l->targets >= 1 ? l->targets : 1;
  return l->n_c * l->n_cwg / words * m->t_comp + launch_share(m, l);
}

/* The coordinator's pass in t_fast per unit of k_chunk (a) and of k_queue (b). atomlab's coordinator
 * (device/atomlab/atomics.h) reads `slots` request words per chunk: each chunk is a dependent chain of global
 * accesses (the words, the dominant's load and store, the fenced releases) with four barriers, whatever the
 * number of requests in it. While it works, every waiting wavefront polls its word, and each of the chunk's
 * accesses waits behind those polls at the L2. */
static double pass_terms(const struct atl_swmodel_load *l, double *a, double *b)
{
  const double n = l->n_cwg > 0 ? l->n_cwg : 0;
  const double c = l->slots >= 1 ? ceil(n / l->slots) : 1;
  *a = c > 1 ? c : 1;
  *b = *a * n;
  return *a;
}

double atl_swmodel_software(const struct atl_swmodel *m, const struct atl_swmodel_load *l,
                            struct atl_swmodel_parts *parts)
{
  struct atl_swmodel_parts p;
  double a, b;
  p.rwgi = 2 * l->n_c * m->t_l + 2 * m->t_fast;
  p.cwg = 5 * m->t_fast + l->n_cwg * m->t_l + l->n_wg / 2 * m->t_l;
  p.rwgp = 2 * m->t_fast;
  p.chunks = pass_terms(l, &a, &b);
  p.pass = (a * m->k_chunk + b * m->k_queue) * m->t_fast;
  p.floor = m->k_floor * m->t_fast;
  p.launch = launch_share(m, l);
  if (parts)
    *parts = p;
  if (m->k_chunk > 0 || m->k_queue > 0 || m->k_floor > 0)
    /* a requester posts again as soon as it has its answer: when the pass is shorter than that round trip (few
     * chunks), the coordinator finds nothing new and the round is the requester's; else the pass's */
    return p.rwgi + p.rwgp + p.launch + (p.pass > p.floor ? p.pass : p.floor);
  return p.rwgi + p.cwg + p.rwgp + p.launch;
}

/* The relative least squares of y = k x over the points with w = 1 / measured: k = sum(w^2 x y) / sum(w^2 x^2). */
static double ratio_fit(double sxy, double sxx)
{
  return sxx > 0 ? sxy / sxx : 0;
}

/* k_floor on the points of at most `cut` chunks, k_chunk and k_queue on the others (each grid's equation over its
 * measured time: the fit minimizes relative errors, which is what is judged, not absolute ones that only the
 * largest grids, 190 us against 6 us, would decide). Returns the relative squared error of the max(), or -1. */
static double fit_split(struct atl_swmodel *m, const struct atl_swmodel_point *pt, size_t n, double cut)
{
  double sff = 0, sfy = 0, saa = 0, sab = 0, sbb = 0, say = 0, sby = 0, err = 0;
  size_t above = 0;
  for (size_t i = 0; i < n; i++) {
    struct atl_swmodel_parts p;
    double a, b;
    atl_swmodel_software(m, &pt[i].load, &p);
    const double w = pt[i].sw_meas > 0 ? m->t_fast / pt[i].sw_meas : 0;
    const double y = (pt[i].sw_meas - p.rwgi - p.rwgp - p.launch) / m->t_fast * w;
    if (pass_terms(&pt[i].load, &a, &b) <= cut) {
      sff += w * w;
      sfy += w * y;
      continue;
    }
    a *= w, b *= w, above++;
    saa += a * a, sab += a * b, sbb += b * b, say += a * y, sby += b * y;
  }
  const double det = saa * sbb - sab * sab;
  if (above < 2 || !(fabs(det) > 1e-12 * saa * sbb))
    return -1;
  m->k_floor = ratio_fit(sfy, sff);
  m->k_chunk = (sbb * say - sab * sby) / det;
  m->k_queue = (saa * sby - sab * say) / det;
  if (!(m->k_chunk >= 0 && m->k_queue >= 0 && m->k_floor >= 0))
    return -1;
  for (size_t i = 0; i < n; i++) {
    const double r = atl_swmodel_software(m, &pt[i].load, NULL) / pt[i].sw_meas - 1;
    err += r * r;
  }
  return err;
}

int atl_swmodel_fit(struct atl_swmodel *m, const struct atl_swmodel_point *pt, size_t n)
{
  struct atl_swmodel best = *m, t = *m;
  double sxx = 0, sxy = 0, least = -1;
  if (n < 2 || !(m->t_fast > 0))
    return -1;
  /* equation (1'): what the system rows measure beyond N t_comp is the launch's share */
  t.k_launch = t.k_chunk = t.k_queue = t.k_floor = 0;
  for (size_t i = 0; i < n; i++) {
    const double x = pt[i].all.rounds > 0 ? m->t_fast / pt[i].all.rounds : 0;
    const double w = pt[i].sys_meas > 0 ? 1 / pt[i].sys_meas : 0;
    sxx += w * w * x * x;
    sxy += w * w * x * (pt[i].sys_meas - atl_swmodel_system(&t, &pt[i].all));
  }
  t.k_launch = fmax(ratio_fit(sxy, sxx), 0);
  /* each split at a grid's chunks (0: no floor), the best max() */
  for (size_t j = 0; j <= n; j++) {
    double a, b;
    const double cut = j == n ? 0 : pass_terms(&pt[j].load, &a, &b);
    const double err = fit_split(&t, pt, n, cut);
    if (err >= 0 && (least < 0 || err < least)) {
      least = err;
      best = t;
    }
  }
  if (least < 0)
    return -1;
  *m = best;
  return 0;
}

double atl_swmodel_speedup(const struct atl_swmodel *m, const struct atl_swmodel_load *l)
{
  const double sw = atl_swmodel_software(m, l, NULL);
  return sw > 0 ? atl_swmodel_system(m, l) / sw : 0;
}
