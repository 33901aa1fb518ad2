/* Seed 000, Section V. Kept apart from the measurement so that the
 * equations can be checked against hand-computed values (tests/unit). */
#include <stddef.h>

#include "atomlab/swmodel.h"

double atl_swmodel_system(const struct atl_swmodel *m, const struct atl_swmodel_load *l)
{
  const double words = l->targets >= 1 ? l->targets : 1;
  return l->n_c * l->n_cwg / words * m->t_comp;
}

double atl_swmodel_software(const struct atl_swmodel *m, const struct atl_swmodel_load *l,
                            struct atl_swmodel_parts *parts)
{
  struct atl_swmodel_parts p;
  p.rwgi = 2 * l->n_c * m->t_l + 2 * m->t_fast;
  p.cwg = 5 * m->t_fast + l->n_cwg * m->t_l + l->n_wg / 2 * m->t_l;
  p.rwgp = 2 * m->t_fast;
  if (parts)
    *parts = p;
  return p.rwgi + p.cwg + p.rwgp;
}

double atl_swmodel_speedup(const struct atl_swmodel *m, const struct atl_swmodel_load *l)
{
  const double sw = atl_swmodel_software(m, l, NULL);
  return sw > 0 ? atl_swmodel_system(m, l) / sw : 0;
}
