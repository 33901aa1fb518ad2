/* Seed 000, Section V. Kept apart from the measurement so that the
 * equations can be checked against hand-computed values (tests/unit). */
#include <math.h>
#include <stddef.h>

#include "atomlab/swmodel.h"

double atl_swmodel_system(const struct atl_swmodel *m, const struct atl_swmodel_load *l)
{
  const double words = l->targets >= 1 ? l->targets : 1;
  return l->n_c * l->n_cwg / words * m->t_comp;
}

/* The coordinator's pass in t_fast per unit of k_chunk (a) and of k_queue (b), times P. atomlab's coordinator
 * (device/atomlab/atomics.h) reads `slots` request words per chunk: each chunk is a dependent chain of global
 * accesses (the words, the dominant's load and store, the fenced releases) with four barriers, whatever the
 * number of requests in it; the pass adds the finished-flag scan, a chunk's worth. While it works, every
 * waiting wavefront polls its word, and each of the chunk's accesses waits behind those polls at the L2. */
static void pass_terms(const struct atl_swmodel_load *l, double *chunks, double *passes, double *a, double *b)
{
  const double n = l->n_cwg > 0 ? l->n_cwg : 0;
  const double c = l->slots >= 1 ? ceil(n / l->slots) : 1;
  *chunks = c > 1 ? c : 1;
  /* one chunk: the coordinator reads it again before the requester (answer seen, word freed, next request
   * posted: three dependent global atomics and a device fence) has posted, so a request waits two passes */
  *passes = *chunks > 1 ? 1 : 2;
  *a = *passes * (*chunks + 1);
  *b = *passes * *chunks * n;
}

double atl_swmodel_software(const struct atl_swmodel *m, const struct atl_swmodel_load *l,
                            struct atl_swmodel_parts *parts)
{
  struct atl_swmodel_parts p;
  double a, b;
  p.rwgi = 2 * l->n_c * m->t_l + 2 * m->t_fast;
  p.cwg = 5 * m->t_fast + l->n_cwg * m->t_l + l->n_wg / 2 * m->t_l;
  p.rwgp = 2 * m->t_fast;
  pass_terms(l, &p.chunks, &p.passes, &a, &b);
  p.pass = (a * m->k_chunk + b * m->k_queue) * m->t_fast;
  if (parts)
    *parts = p;
  if (m->k_chunk > 0 || m->k_queue > 0)
    return p.rwgi + p.pass + p.rwgp;
  return p.rwgi + p.cwg + p.rwgp;
}

int atl_swmodel_fit(struct atl_swmodel *m, const struct atl_swmodel_load *loads, const double *measured, size_t n)
{
  /* normal equations of measured - t_RWGI - t_RWGP = (a k_chunk + b k_queue) t_fast */
  double saa = 0, sab = 0, sbb = 0, say = 0, sby = 0;
  if (n < 2 || !(m->t_fast > 0))
    return -1;
  for (size_t i = 0; i < n; i++) {
    struct atl_swmodel_parts p;
    struct atl_swmodel seed = {m->t_fast, m->t_l, m->t_comp, 0, 0};
    double a, b, c, q;
    atl_swmodel_software(&seed, &loads[i], &p);
    pass_terms(&loads[i], &c, &q, &a, &b);
    /* each grid's equation over its measured time: the fit minimizes relative errors, which is what is judged, not
     * absolute ones that only the largest grids (190 us against 6 us) would decide */
    const double w = measured[i] > 0 ? m->t_fast / measured[i] : 0, y = (measured[i] - p.rwgi - p.rwgp) / m->t_fast;
    a *= w, b *= w;
    const double yw = y * w;
    saa += a * a;
    sab += a * b;
    sbb += b * b;
    say += a * yw;
    sby += b * yw;
  }
  const double det = saa * sbb - sab * sab;
  if (!(fabs(det) > 1e-12 * saa * sbb))
    return -1;
  const double kc = (sbb * say - sab * sby) / det, kq = (saa * sby - sab * say) / det;
  if (!(kc >= 0 && kq >= 0))
    return -1;
  m->k_chunk = kc;
  m->k_queue = kq;
  return 0;
}

double atl_swmodel_speedup(const struct atl_swmodel *m, const struct atl_swmodel_load *l)
{
  const double sw = atl_swmodel_software(m, l, NULL);
  return sw > 0 ? atl_swmodel_system(m, l) / sw : 0;
}
