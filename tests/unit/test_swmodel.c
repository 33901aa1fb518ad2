/* Seed 000's speedup model, equations (1)-(4), against values computed by hand. */
#include <math.h>

#include "check.h"
#include "atomlab/swmodel.h"

static int near(double a, double b)
{
  return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

int main(void)
{
  /* t_fast 100, t_l 2, t_comp 50; one full wavefront of 32 in each of 8 work-groups:
   * t_RWGI = 2*32*2 + 2*100 = 328, t_CWG = 5*100 + 8*2 + 8/2*2 = 524, t_RWGP = 200,
   * t_a_software = 1052 (equation (3): ((64 + 8 + 4) * 0.02 + 9) * 100 = 1052),
   * t_a_system = 32*8*50 = 12800, speedup 12800 / 1052. */
  const struct atl_swmodel m = {100, 2, 50};
  const struct atl_swmodel_load l = {32, 8, 8, 1};
  struct atl_swmodel_parts p;
  CHECK(near(atl_swmodel_software(&m, &l, &p), 1052));
  CHECK(near(p.rwgi, 328) && near(p.cwg, 524) && near(p.rwgp, 200));
  CHECK(near(atl_swmodel_system(&m, &l), 12800));
  CHECK(near(atl_swmodel_speedup(&m, &l), 12800.0 / 1052.0));
  /* equation (3) in its own form, x_l = t_l / t_fast, for another load */
  const struct atl_swmodel_load l2 = {21, 132, 132, 0}; /* targets 0 reads as 1 */
  const double x_l = m.t_l / m.t_fast, eq3 = ((2 * 21 + 132 + 132 / 2.0) * x_l + 9) * m.t_fast;
  CHECK(near(atl_swmodel_software(&m, &l2, NULL), eq3)); /* (42 + 132 + 66) * 2 + 900 = 1380 */
  CHECK(near(eq3, 1380));
  /* equation (4): N_c N_cwg x t_fast with x = t_comp / t_fast */
  CHECK(near(atl_swmodel_system(&m, &l2), 21 * 132 * (m.t_comp / m.t_fast) * m.t_fast));
  /* the speedup grows with the work-groups (the seed's conclusion) */
  const struct atl_swmodel_load small = {32, 2, 2, 1}, big = {32, 128, 128, 1};
  CHECK(atl_swmodel_speedup(&m, &small) < atl_swmodel_speedup(&m, &big));
  /* several words: the system atomics per word are served in parallel */
  const struct atl_swmodel_load four = {32, 8, 8, 4};
  CHECK(near(atl_swmodel_system(&m, &four), 3200));
  /* a zero software time gives speedup 0, not infinity */
  const struct atl_swmodel zero = {0, 0, 1};
  CHECK(atl_swmodel_speedup(&zero, &l) == 0);
  return check_exit("test_swmodel");
}
