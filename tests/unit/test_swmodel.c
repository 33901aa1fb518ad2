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
  const struct atl_swmodel m = {100, 2, 50, 0, 0, 0, 0};
  const struct atl_swmodel_load l = {32, 8, 8, 1, 0, 0};
  struct atl_swmodel_parts p;
  CHECK(near(atl_swmodel_software(&m, &l, &p), 1052));
  CHECK(near(p.rwgi, 328) && near(p.cwg, 524) && near(p.rwgp, 200));
  CHECK(near(atl_swmodel_system(&m, &l), 12800));
  CHECK(near(atl_swmodel_speedup(&m, &l), 12800.0 / 1052.0));
  /* equation (3) in its own form, x_l = t_l / t_fast, for another load */
  const struct atl_swmodel_load l2 = {21, 132, 132, 0, 0, 0}; /* targets 0 reads as 1 */
  const double x_l = m.t_l / m.t_fast, eq3 = ((2 * 21 + 132 + 132 / 2.0) * x_l + 9) * m.t_fast;
  CHECK(near(atl_swmodel_software(&m, &l2, NULL), eq3)); /* (42 + 132 + 66) * 2 + 900 = 1380 */
  CHECK(near(eq3, 1380));
  /* equation (4): N_c N_cwg x t_fast with x = t_comp / t_fast */
  CHECK(near(atl_swmodel_system(&m, &l2), 21 * 132 * (m.t_comp / m.t_fast) * m.t_fast));
  /* the speedup grows with the work-groups (the seed's conclusion) */
  const struct atl_swmodel_load small = {32, 2, 2, 1, 0, 0}, big = {32, 128, 128, 1, 0, 0};
  CHECK(atl_swmodel_speedup(&m, &small) < atl_swmodel_speedup(&m, &big));
  /* several words: the system atomics per word are served in parallel */
  const struct atl_swmodel_load four = {32, 8, 8, 4, 0, 0};
  CHECK(near(atl_swmodel_system(&m, &four), 3200));
  /* a zero software time gives speedup 0, not infinity */
  const struct atl_swmodel zero = {0, 0, 1, 0, 0, 0, 0};
  CHECK(atl_swmodel_speedup(&zero, &l) == 0);
  /* equation (2''): k_chunk 3, k_queue 0.01, k_floor 20: 1000 requesters in chunks of 256 -> C = 4;
   * t_RWGI + t_RWGP = 2*32*2 + 400 = 528, pass = (4 * 3 + 4 * 1000 * 0.01) * 100 = 5200, above the floor 2000 */
  const struct atl_swmodel mc = {100, 2, 50, 3, 0.01, 20, 0};
  const struct atl_swmodel_load lc = {32, 1000, 1000, 1, 256, 0};
  CHECK(near(atl_swmodel_software(&mc, &lc, &p), 528 + 5200));
  CHECK(near(p.chunks, 4) && near(p.pass, 5200) && near(p.floor, 2000) && near(p.launch, 0));
  /* one chunk: the pass (3 + 100 * 0.01) * 100 = 400 is below the floor: the round is the requester's, 2000 */
  const struct atl_swmodel_load l1 = {32, 100, 100, 1, 256, 0};
  CHECK(near(atl_swmodel_software(&mc, &l1, &p), 528 + 2000) && near(p.pass, 400));
  /* equation (1'): k_launch 16 over 8 rounds adds 16 * 100 / 8 = 200 to both times */
  const struct atl_swmodel ml = {100, 2, 50, 3, 0.01, 20, 16};
  const struct atl_swmodel_load l8 = {32, 1000, 1000, 1, 256, 8};
  CHECK(near(atl_swmodel_software(&ml, &l8, NULL), 528 + 5200 + 200));
  CHECK(near(atl_swmodel_system(&ml, &l8), 32 * 1000 * 50 + 200));
  /* the fit recovers the four constants from times the model made (two grids under the floor, three above) */
  const double waiting[5] = {100, 200, 1000, 4000, 8000};
  struct atl_swmodel_point pt[5];
  for (int i = 0; i < 5; i++) {
    const struct atl_swmodel_load li = {32, waiting[i], waiting[i], 1, 256, 8};
    pt[i] = (struct atl_swmodel_point){waiting[i] / 8 + 1, li, li, 0, 0};
    pt[i].sw_meas = atl_swmodel_software(&ml, &li, NULL);
    pt[i].sys_meas = atl_swmodel_system(&ml, &li);
  }
  struct atl_swmodel f = {100, 2, 50, 0, 0, 0, 0};
  CHECK(atl_swmodel_fit(&f, pt, 5) == 0);
  CHECK(fabs(f.k_chunk - 3) < 1e-9 && fabs(f.k_queue - 0.01) < 1e-12 && fabs(f.k_floor - 20) < 1e-9 &&
        fabs(f.k_launch - 16) < 1e-9);
  /* and refuses what it cannot fit: one point; times below t_RWGI + t_RWGP (negative constants) */
  struct atl_swmodel g = {100, 2, 50, 0, 0, 0, 0};
  CHECK(atl_swmodel_fit(&g, pt, 1) == -1 && g.k_chunk == 0);
  for (int i = 0; i < 5; i++)
    pt[i].sw_meas = 100;
  CHECK(atl_swmodel_fit(&g, pt, 5) == -1 && g.k_chunk == 0 && g.k_queue == 0 && g.k_floor == 0);
  return check_exit("test_swmodel");
}
