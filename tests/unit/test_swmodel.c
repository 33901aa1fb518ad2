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
  const struct atl_swmodel m = {100, 2, 50, 0, 0};
  const struct atl_swmodel_load l = {32, 8, 8, 1, 0};
  struct atl_swmodel_parts p;
  CHECK(near(atl_swmodel_software(&m, &l, &p), 1052));
  CHECK(near(p.rwgi, 328) && near(p.cwg, 524) && near(p.rwgp, 200));
  CHECK(near(atl_swmodel_system(&m, &l), 12800));
  CHECK(near(atl_swmodel_speedup(&m, &l), 12800.0 / 1052.0));
  /* equation (3) in its own form, x_l = t_l / t_fast, for another load */
  const struct atl_swmodel_load l2 = {21, 132, 132, 0, 0}; /* targets 0 reads as 1 */
  const double x_l = m.t_l / m.t_fast, eq3 = ((2 * 21 + 132 + 132 / 2.0) * x_l + 9) * m.t_fast;
  CHECK(near(atl_swmodel_software(&m, &l2, NULL), eq3)); /* (42 + 132 + 66) * 2 + 900 = 1380 */
  CHECK(near(eq3, 1380));
  /* equation (4): N_c N_cwg x t_fast with x = t_comp / t_fast */
  CHECK(near(atl_swmodel_system(&m, &l2), 21 * 132 * (m.t_comp / m.t_fast) * m.t_fast));
  /* the speedup grows with the work-groups (the seed's conclusion) */
  const struct atl_swmodel_load small = {32, 2, 2, 1, 0}, big = {32, 128, 128, 1, 0};
  CHECK(atl_swmodel_speedup(&m, &small) < atl_swmodel_speedup(&m, &big));
  /* several words: the system atomics per word are served in parallel */
  const struct atl_swmodel_load four = {32, 8, 8, 4, 0};
  CHECK(near(atl_swmodel_system(&m, &four), 3200));
  /* a zero software time gives speedup 0, not infinity */
  const struct atl_swmodel zero = {0, 0, 1, 0, 0};
  CHECK(atl_swmodel_speedup(&zero, &l) == 0);
  /* the coordinator's pass (k_chunk, k_queue set): 1000 requesters in chunks of 256 -> C = 4, P = 1;
   * t_RWGI + t_RWGP = 2*32*2 + 400 = 528, pass = ((4 + 1) * 3 + 4 * 1000 * 0.01) * 100 = 5500 */
  const struct atl_swmodel mc = {100, 2, 50, 3, 0.01};
  const struct atl_swmodel_load lc = {32, 1000, 1000, 1, 256};
  CHECK(near(atl_swmodel_software(&mc, &lc, &p), 528 + 5500));
  CHECK(near(p.chunks, 4) && near(p.passes, 1) && near(p.pass, 5500));
  /* one chunk: two passes: 2 * ((1 + 1) * 3 + 1 * 100 * 0.01) * 100 = 1400 */
  const struct atl_swmodel_load l1 = {32, 100, 100, 1, 256};
  CHECK(near(atl_swmodel_software(&mc, &l1, &p), 528 + 1400) && near(p.passes, 2));
  /* the fit recovers the constants from times the model made, and refuses what it cannot fit */
  struct atl_swmodel_load loads[3] = {l1, lc, {32, 8000, 8000, 1, 256}};
  double meas[3];
  for (int i = 0; i < 3; i++)
    meas[i] = atl_swmodel_software(&mc, &loads[i], NULL);
  struct atl_swmodel f = {100, 2, 50, 0, 0};
  CHECK(atl_swmodel_fit(&f, loads, meas, 3) == 0 && fabs(f.k_chunk - 3) < 1e-9 && fabs(f.k_queue - 0.01) < 1e-12);
  struct atl_swmodel g = {100, 2, 50, 0, 0};
  CHECK(atl_swmodel_fit(&g, loads, meas, 1) == -1 && g.k_chunk == 0); /* one load: two unknowns */
  const double faster[2] = {100, 100}; /* less than t_RWGI + t_RWGP: negative constants */
  CHECK(atl_swmodel_fit(&g, loads, faster, 2) == -1 && g.k_chunk == 0 && g.k_queue == 0);
  return check_exit("test_swmodel");
}
