/*
 * The L2 atomic model (include/atomlab/l2model.h) on the REAL H200 export of
 * tests/data/ncu-h200-l2-rmw.csv (README there): 18 rmw configurations, each
 * launched twice, in this order: contiguous fetch_add at contention 1, 32,
 * 1024 x padding 1, 32, result unused (launches 0-11) then used (12-23);
 * cross-warp contention 32 unused, used (24-27); random unused, used (28-31);
 * contiguous cas contention 1, 32 (32-35). The calibration takes the same-
 * address launches (contention 1024, padding 1) and the one-word-per-line
 * ones (contention 1, padding 32); every other saturated launch must come out
 * with U in [0.8, 1.15], the unsaturated ones below 0.5. Bad exports must fail.
 */
#include <stdlib.h>
#include <string.h>

#include "atomlab/error.h"
#include "atomlab/l2model.h"
#include "check.h"
#include "core/text.h"

static struct atl_l2_report subset(const struct atl_l2_report *all, const int *pick, size_t n)
{
  struct atl_l2_report r = {malloc(n * sizeof *r.kernels), n};
  for (size_t i = 0; i < n; i++)
    r.kernels[i] = all->kernels[pick[i]];
  return r;
}

static void real_export(void)
{
  struct atl_l2_report all;
  char why[512];
  if (!CHECK(atl_l2_read_file(ATL_TEST_DATA_DIR "/ncu-h200-l2-rmw.csv", &all, why, sizeof why) == 0)) {
    fprintf(stderr, "    %s\n", why);
    return;
  }
  CHECK_EQ(all.count, 36);
  const struct atl_l2_counters *k = &all.kernels[0];
  CHECK(strcmp(k->kernel, "rmw") == 0);
  CHECK_NEAR(k->duration_ns, 31488);
  CHECK_NEAR(k->l2_cycles, 53786);
  CHECK_NEAR(k->red_requests, 806912);
  CHECK_NEAR(k->atom_requests, 0);
  CHECK_NEAR(k->red_max, 10240);
  CHECK_NEAR(k->input_active_max, 24576);
  /* the calibration: medians of C / R_max by kind, by hand from the export */
  const int same_pick[] = {8, 9, 20, 21}, spread_pick[] = {2, 3, 14, 15};
  struct atl_l2_report same = subset(&all, same_pick, 4), spread = subset(&all, spread_pick, 4);
  struct atl_l2_calibration cal;
  CHECK(atl_l2_cycles_per_request(&same, cal.s_same, why, sizeof why) == 0);
  CHECK(atl_l2_cycles_per_request(&spread, cal.s_dist, why, sizeof why) == 0);
  CHECK_NEAR(cal.s_same[ATL_L2_RED], (11472190.0 / 8388608 + 11549580.0 / 8388608) / 2);
  CHECK_NEAR(cal.s_dist[ATL_L2_RED], (305898.0 / 278016 + 314576.0 / 278528) / 2);
  CHECK_NEAR(cal.s_dist[ATL_L2_ATOM], (399771.0 / 278016 + 402873.0 / 277760) / 2);
  /* an export of RED launches only cannot calibrate ATOM */
  struct atl_l2_report red_only = subset(&all, same_pick, 2);
  double s[ATL_L2_KINDS];
  CHECK(atl_l2_cycles_per_request(&red_only, s, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "ATOM") != NULL);
  /* launch 4 (contention 32, padding 1, RED) by hand: hot (I = 655360 / 274693.45), B = 655360 x S_same,red */
  struct atl_l2_util u;
  atl_l2_utilization(&cal, &all.kernels[4], &u);
  CHECK(u.access == ATL_L2_HOT);
  CHECK_NEAR(u.imbalance, 655360 / 274693.45);
  CHECK_NEAR(u.u, 655360 * cal.s_same[ATL_L2_RED] / 921092);
  CHECK(u.u_low <= u.u && u.u <= u.u_high);
  /* every other saturated launch bounded near 1, the unsaturated ones far below */
  const int saturated[] = {4, 5, 6, 7, 10, 11, 16, 17, 18, 19, 22, 23, 28, 29, 30, 31, 34, 35};
  for (size_t i = 0; i < sizeof saturated / sizeof *saturated; i++) {
    atl_l2_utilization(&cal, &all.kernels[saturated[i]], &u);
    if (!CHECK(u.u >= 0.8 && u.u <= 1.15))
      fprintf(stderr, "    launch %d: U = %.3f\n", saturated[i], u.u);
  }
  const int light[] = {0, 1, 12, 13, 32, 33};
  for (size_t i = 0; i < sizeof light / sizeof *light; i++) {
    atl_l2_utilization(&cal, &all.kernels[light[i]], &u);
    if (!CHECK(u.u < 0.5))
      fprintf(stderr, "    launch %d: U = %.3f\n", light[i], u.u);
  }
  /* cross-warp contention 32: its input stage busy 65536 of 88372 cycles (launch 24), below the threshold */
  for (int i = 24; i < 28; i++) {
    atl_l2_utilization(&cal, &all.kernels[i], &u);
    if (!CHECK(u.u >= 0.6 && u.u < 0.8 && u.u == u.u_input))
      fprintf(stderr, "    launch %d: U = %.3f, input %.3f\n", i, u.u, u.u_input);
  }
  atl_l2_utilization(&cal, &all.kernels[24], &u);
  CHECK_NEAR(u.u_input, 65536.0 / 88372);
  /* a launch without global atomics */
  struct atl_l2_counters none = all.kernels[0];
  none.requests = none.requests_max = none.atom_max = none.red_max = 0;
  atl_l2_utilization(&cal, &none, &u);
  CHECK(u.access == ATL_L2_NONE && u.u == 0);
  free(same.kernels);
  free(spread.kernels);
  free(red_only.kernels);
  atl_l2_report_release(&all);
}

static void bad_exports(void)
{
  struct atl_l2_report r;
  char why[512];
  const char *hdr = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"lts__cycles_elapsed.avg\","
                    "\"lts__t_requests_op_atom.sum\",\"lts__t_requests_op_atom.max\",\"lts__t_requests_op_atom.avg\","
                    "\"lts__t_requests_op_red.sum\",\"lts__t_requests_op_red.max\",\"lts__t_requests_op_red.avg\"\n";
  char text[2048];
  /* good: a units row in microseconds, thousands separators */
  snprintf(text, sizeof text, "%s\"\",\"\",\"usecond\",\"cycle\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
                              "\"0\",\"k\",\"1.5\",\"3,000\",\"0\",\"0\",\"0\",\"100\",\"10\",\"5\"\n", hdr);
  CHECK(atl_l2_read_csv(text, "t", &r, why, sizeof why) == 0);
  if (r.count == 1) {
    CHECK_NEAR(r.kernels[0].duration_ns, 1500);
    CHECK_NEAR(r.kernels[0].l2_cycles, 3000);
    CHECK_NEAR(r.kernels[0].input_active_max, -1); /* not in the export */
  }
  atl_l2_report_release(&r);
  CHECK(atl_l2_read_csv("no header here\n", "t", &r, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "no ncu CSV header") != NULL);
  CHECK(atl_l2_read_csv("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"1\"\n", "t", &r, why,
                        sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "lts__cycles_elapsed.avg") != NULL);
  snprintf(text, sizeof text, "%s\"0\",\"k\",\"1\",\"x\",\"0\",\"0\",\"0\",\"1\",\"1\",\"1\"\n", hdr);
  CHECK(atl_l2_read_csv(text, "t", &r, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "not a number") != NULL);
  snprintf(text, sizeof text, "%s\"0\",\"k\",\"1\",\"-5\",\"0\",\"0\",\"0\",\"1\",\"1\",\"1\"\n", hdr);
  CHECK(atl_l2_read_csv(text, "t", &r, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "negative") != NULL);
  snprintf(text, sizeof text, "%s\"\",\"\",\"cycle\",\"cycle\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
                              "\"0\",\"k\",\"1\",\"1\",\"0\",\"0\",\"0\",\"1\",\"1\",\"1\"\n", hdr);
  CHECK(atl_l2_read_csv(text, "t", &r, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "not a unit of time") != NULL);
  snprintf(text, sizeof text, "%s\"0\",\"k\",\"1\"\n", hdr);
  CHECK(atl_l2_read_csv(text, "t", &r, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "fields where the header has") != NULL);
  CHECK(atl_l2_read_csv(hdr, "t", &r, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "no kernel launch") != NULL);
  CHECK(atl_l2_read_file("/nonexistent/x.csv", &r, why, sizeof why) == ATL_EIO);
}

/* What profile asks ncu for: every column the reader needs, the optional ones (input cycles, DRAM share) too. */
static void metric_names(void)
{
  size_t n = 0;
  const char *const *m = atl_l2_metric_names(&n);
  CHECK_EQ(n, 17);
  int cycles = 0, input = 0;
  for (size_t i = 0; i < n; i++) {
    cycles += strcmp(m[i], "lts__cycles_elapsed.avg") == 0;
    input += strcmp(m[i], "lts__d_atomic_input_cycles_active.max") == 0;
  }
  CHECK(cycles == 1 && input == 1);
}

/*
 * The advice's per-strategy predictions on two REAL H100 launches (tests/data/h100-diagnose/programs.csv.gz,
 * the counters copied by hand): the histogram app's global variant on one colour (launch 21, REDs) and the
 * same-address strategy kernel (launch 42, ATOMs), with the run's calibration (S_same, the copy ceiling's
 * 72% of DRAM peak, 1.04 cycles per shared pass). The predictions follow from the counters by the docs'
 * arithmetic, checked here term by term; the measured speedups they are set against are in the validation.
 */
static void predictions(void)
{
  struct atl_l2_calibration cal = {{1.393, 1.371}, {1.411, 1.090}, .dram_share = 0.72, .s_pass = 1.04};
  struct atl_l2_counters hist = {.duration_ns = 49077056, .l2_cycles = 83915148, .requests = 100564992,
                                 .requests_max = 67108864, .red_max = 67108864, .requests_avg = 100564992 / 80.0,
                                 .red_requests = 100564992, .input_active_max = 67108864 * 1.0, .dram_pct = 0.04,
                                 .dram_bytes = -1,
                                 .issue_max = 22784, .sm_elapsed = 97837795, .l1_requests = -1, .l1_set_accesses = -1,
                                 .grid_size = 1056, .block_size = 256, .sm_count = 132, .warp_size = 32,
                                 .clock_khz = 1980000};
  struct atl_l2_util u;
  struct atl_l2_prediction p;
  atl_l2_utilization(&cal, &hist, &u);
  atl_l2_predict(&cal, &hist, &u, &p);
  CHECK_EQ(p.count, 3);
  CHECK(p.lanes == 32 && !p.lanes_counted); /* the launch's bound: a warp */
  CHECK_NEAR(p.dram_ns, 49077056 * 0.0004 / 0.72);
  CHECK_NEAR(p.issue_ns, 22784 / (97837795 / 49077056.0));
  /* privatized and block-aggregated: the DRAM floor (one flush per block is 1056 requests, the moved REDs one
   * shared pass per warp-instruction: 67108864 / 32 / 132 x 1.04 cycles) -> 1800x; warp-aggregated: the hot
   * slice keeps 1 / 32 of its requests at this kernel's cycles per request (U x C / R_max) -> 29x */
  CHECK(strcmp(p.s[0].name, "block-aggregated") == 0 && strcmp(p.s[0].bound_by, "DRAM") == 0);
  CHECK(strcmp(p.s[1].name, "privatized") == 0 && strcmp(p.s[2].name, "warp-aggregated") == 0);
  CHECK_NEAR(p.s[1].speedup, 0.72 / 0.0004);
  CHECK_NEAR(p.s[1].smem_ns, 67108864.0 / 32 / 132 * 1.04 / (97837795 / 49077056.0));
  CHECK_NEAR(p.s[2].speedup, 32 / (u.busy / hist.l2_cycles));
  CHECK(strcmp(p.s[2].bound_by, "L2") == 0);
  /* the L1 counters, where exported, give the lanes: 8 set accesses per request -> 8 lanes */
  hist.l1_requests = 1000, hist.l1_set_accesses = 8000;
  atl_l2_predict(&cal, &hist, &u, &p);
  CHECK(p.lanes == 8 && p.lanes_counted);
  CHECK_NEAR(p.s[2].speedup, 8 / (u.busy / hist.l2_cycles));
  /* DRAM bytes counted and a calibrated bandwidth: the floor is the bytes at that bandwidth, not the share */
  hist.dram_bytes = 67108864, cal.dram_bytes_per_ns = 2400;
  atl_l2_predict(&cal, &hist, &u, &p);
  CHECK(p.dram_bytes);
  CHECK_NEAR(p.dram_ns, 67108864 / 2400.0);
  cal.dram_bytes_per_ns = 0, hist.dram_bytes = -1;
  /* ATOMs: privatized pays a shared pass per request (ATOMS.ADD), block-aggregated one per warp-instruction */
  struct atl_l2_counters same = {.duration_ns = 399008, .l2_cycles = 682103, .requests = 811008,
                                 .requests_max = 540672, .atom_max = 540672, .requests_avg = 811008 / 80.0,
                                 .atom_requests = 811008, .input_active_max = -1, .dram_pct = 0.16, .dram_bytes = -1,
                                 .issue_max = 1264, .sm_elapsed = 789915.58, .l1_requests = -1, .l1_set_accesses = -1,
                                 .grid_size = 1056, .block_size = 256, .sm_count = 132, .warp_size = 32,
                                 .clock_khz = 1980000};
  atl_l2_utilization(&cal, &same, &u);
  atl_l2_predict(&cal, &same, &u, &p);
  const struct atl_l2_strategy *w = NULL, *pv = NULL;
  for (size_t i = 0; i < p.count; i++) {
    w = strcmp(p.s[i].name, "warp-aggregated") == 0 ? &p.s[i] : w;
    pv = strcmp(p.s[i].name, "privatized") == 0 ? &p.s[i] : pv;
  }
  if (CHECK(w && pv)) {
    CHECK_NEAR(w->speedup, 399008 / (540672 / 32 * 1.393 / (682103 / 399008.0)));
    CHECK_NEAR(pv->smem_ns, 540672.0 / 132 * 1.04 / (789915.58 / 399008));
    CHECK(w->speedup > 25 && w->speedup < 33); /* measured 24.7x: the warp variant's own launch */
  }
  /* no prediction for spread requests, nor without a duration */
  same.requests_avg = same.requests_max;
  atl_l2_utilization(&cal, &same, &u);
  atl_l2_predict(&cal, &same, &u, &p);
  CHECK_EQ(p.count, 0);
}

/*
 * Float adds moved to a private table are CAS loops whose updates of one word wait for each other (rounds 6, 7). The
 * chain calibration: one block a SM; one warp a block: SM cycles / CAS instructions a warp (every CAS instruction
 * one update of each of its words); E warps a block on the same words: SM cycles / (E x the one-warp launches' CAS
 * instructions a warp, the iterations). More blocks than SMs is refused, as is an export without shared CAS, or of
 * several warps a block without a one-warp launch.
 */
static void cas_chain(void)
{
  struct atl_l2_counters one[4] = {{.id = "1", .smem_cas = 132 * 8192.0, .sm_elapsed = 8192 * 120.0, .grid_size = 132,
                                    .block_size = 32, .sm_count = 132, .warp_size = 32},
                                   {.id = "2", .smem_cas = 132 * 8192.0, .sm_elapsed = 8192 * 140.0, .grid_size = 132,
                                    .block_size = 32, .sm_count = 132, .warp_size = 32},
                                   /* 8 warps on each word, 2.4 CAS an update: 256 iterations, 283 cycles an update */
                                   {.id = "3", .smem_cas = 132 * 8 * 256 * 2.4, .sm_elapsed = 8 * 256 * 283.0,
                                    .grid_size = 132, .block_size = 256, .sm_count = 132, .warp_size = 32},
                                   {.id = "4", .smem_cas = 132 * 4 * 256 * 1.8, .sm_elapsed = 4 * 256 * 180.0,
                                    .grid_size = 132, .block_size = 128, .sm_count = 132, .warp_size = 32}};
  struct atl_l2_report r = {one, 2};
  struct atl_l2_chain_point pts[ATL_L2_CHAIN_POINTS];
  size_t n = 0;
  char why[256] = "";
  CHECK(atl_l2_cas_chain(&r, pts, &n, why, sizeof why) == 0);
  CHECK(n == 1 && pts[0].warps == 1);
  CHECK_NEAR(pts[0].cycles, 130);
  /* the contended launches: the iterations from the one-warp launches of the same file (8192 CAS a warp) */
  r.count = 4;
  CHECK(atl_l2_cas_chain(&r, pts, &n, why, sizeof why) == 0);
  if (CHECK(n == 3)) {
    CHECK(pts[1].warps == 4 && pts[2].warps == 8);
    CHECK_NEAR(pts[1].cycles, 4 * 256 * 180.0 / (4 * 8192));
    CHECK_NEAR(pts[2].cycles, 8 * 256 * 283.0 / (8 * 8192));
  }
  one[0].smem_cas = one[1].smem_cas = 132 * 256.0; /* iterations 256: the chain points as calibrated */
  one[0].sm_elapsed = one[1].sm_elapsed = 256 * 96.0;
  CHECK(atl_l2_cas_chain(&r, pts, &n, why, sizeof why) == 0);
  CHECK_NEAR(pts[2].cycles, 283);
  r.kernels = one + 2, r.count = 2; /* no one-warp launch: the iterations are unknown */
  CHECK(atl_l2_cas_chain(&r, pts, &n, why, sizeof why) == ATL_EINVAL && strstr(why, "one warp a block") != NULL);
  CHECK(n == 0);
  r.kernels = one, r.count = 4;
  one[1].grid_size = 264; /* two blocks a SM */
  CHECK(atl_l2_cas_chain(&r, pts, &n, why, sizeof why) == ATL_EINVAL && strstr(why, "one block a SM") != NULL);
  one[1].grid_size = 132;
  for (int i = 0; i < 4; i++)
    one[i].smem_cas = 0;
  CHECK(atl_l2_cas_chain(&r, pts, &n, why, sizeof why) == ATL_EINVAL && strstr(why, "no launch") != NULL);

  /* between the points linear, below the first its value, past the last the last segment's slope */
  struct atl_l2_calibration cal = {{1.393, 1.371}, {1.411, 1.090}, .dram_share = 0.72, .s_pass = 1.04,
                                   .dram_bytes_per_ns = 2416, .chain = {{1, 96}, {8, 283}}, .chain_count = 2};
  CHECK_NEAR(atl_l2_chain_cycles(&cal, 1), 96);
  CHECK_NEAR(atl_l2_chain_cycles(&cal, 0.5), 96);
  CHECK_NEAR(atl_l2_chain_cycles(&cal, 4), 96 + 3 / 7.0 * 187);
  CHECK_NEAR(atl_l2_chain_cycles(&cal, 16), 283 + 8 / 7.0 * 187);
  cal.chain_count = 3, cal.chain[2] = (struct atl_l2_chain_point){16, 500};
  CHECK_NEAR(atl_l2_chain_cycles(&cal, 12), 283 + 0.5 * 217);
  CHECK_NEAR(atl_l2_chain_cycles(&cal, 32), 500 + 2 * 217);
  cal.chain_count = 0;
  CHECK(atl_l2_chain_cycles(&cal, 8) == 0);
}

/*
 * The privatized chain on the REAL H100 hot-row scatter (tests/data/ncu-h100-scatter-hot-r6.csv: the f32
 * atomic launch, 2.1 M REDs on the hot slice, 4096 blocks of 8 warps, its limits 8 blocks a SM by registers and warps,
 * no shared memory; and the block variant that applied the strategy (each launch twice), 33280 B of table a block, 6 a SM by shared
 * memory, as launch__occupancy_limit_shared_mem says). The tables resident with a 33280-byte table: 233472 / (33280 +
 * 1024) = 6 (the block variant's own limit), without: 8; the chain: waves of 132 x 6 tables, each table its share of
 * the hot word's updates at the chain of 8 contenders. The sector counts (where exported) make the updates a word the
 * slice's sector accesses over its distinct sectors: the row's two lines are not one word's updates.
 */
static void private_chain(void)
{
  struct atl_l2_report r;
  char why[512];
  if (!CHECK(atl_l2_read_file(ATL_TEST_DATA_DIR "/ncu-h100-scatter-hot-r6.csv", &r, why, sizeof why) == 0)) {
    fprintf(stderr, "  %s\n", why);
    return;
  }
  if (!CHECK(r.count == 4)) { /* each launch twice */
    atl_l2_report_release(&r);
    return;
  }
  struct atl_l2_counters hot = r.kernels[0], block = r.kernels[2];
  atl_l2_report_release(&r);
  CHECK(hot.occ_limit_regs == 8 && hot.occ_limit_warps == 8 && hot.occ_limit_blocks == 32);
  CHECK(hot.smem_block == 0 && hot.smem_driver == 1024 && hot.smem_sm == 233472);
  CHECK(hot.sectors_max == -1 && hot.sector_misses_max == -1); /* that run did not ask for them */
  CHECK(block.smem_block == 33280);
  CHECK_EQ(atl_l2_private_blocks(&hot, 0), 8);
  CHECK_EQ(atl_l2_private_blocks(&hot, 33280), 6);
  CHECK_EQ(atl_l2_private_blocks(&block, 0), 6); /* the applied variant's own limit: the same 6 */
  struct atl_l2_counters bare = hot;             /* no limits: the launch's achieved blocks (92% of 64 warps) */
  bare.occ_limit_regs = bare.occ_limit_warps = bare.occ_limit_blocks = -1;
  CHECK_EQ(atl_l2_private_blocks(&bare, 33280), 7);

  CHECK_EQ(atl_l2_launch_warps(&hot), 64); /* the streaming calibration's launch shape: 8 blocks of 8 warps */

  /* an H100 chain calibration (tests/data/ncu-h100-cas-chain-r7.csv): c(8) = 55.21 SM cycles an update */
  struct atl_l2_calibration cal = {{1.393, 1.371}, {1.411, 1.090}, .dram_share = 0.72, .s_pass = 1.04,
                                   .dram_bytes_per_ns = 2410, .dram_warps = 64,
                                   .chain = {{1, 126.7}, {2, 104.1}, {4, 92.45}, {8, 55.21}, {16, 47.23}},
                                   .chain_count = 5, .table_bytes = 33280};
  hot.f32_share = 1;
  struct atl_l2_util u;
  struct atl_l2_prediction p;
  atl_l2_utilization(&cal, &hot, &u);
  atl_l2_predict(&cal, &hot, &u, &p);
  const double sm_per_ns = hot.sm_elapsed / hot.duration_ns, dram_ns = hot.dram_bytes / 2410;
  /* the warps' loads: the floor at 64 / 48 of its bandwidth; their loops: 2.1 M warp-instructions over 132 x 48
   * warp-slots, 8 x 55.21 cycles each, at least the hot word's own chain: without the sector counts its updates
   * are the slice's 2.1 M requests, 6 waves x 512 a table x 55.21, which binds */
  const double load = dram_ns * 64 / 48, loop = 2097152 / (132 * 48.0) * 8 * 55.21 / sm_per_ns;
  /* and each block's table cleared and flushed: 4096 / 132 blocks a SM x 2 x 260 passes of 128 bytes x 1.04 */
  const double table = 4096 / 132.0 * 2 * 260 * 1.04 / sm_per_ns;
  CHECK_EQ(p.count, 3);
  CHECK(p.tables == 6 && p.chain_warps == 8 && p.chain_updates == 2097152);
  CHECK_NEAR(p.load_ns, load);
  CHECK_NEAR(p.table_ns, table);
  CHECK_NEAR(p.loop_ns, 6 * 512 * 55.21 / sm_per_ns);
  /* the row's 8 sectors on the hot slice, each access 4 sectors: 1 M updates a word, the loop binds */
  hot.sectors_max = 2097152 * 4.0, hot.sector_misses_max = 8;
  atl_l2_predict(&cal, &hot, &u, &p);
  CHECK(p.chain_updates == 1048576);
  CHECK_NEAR(p.loop_ns, loop);
  for (size_t i = 0; i < p.count; i++) {
    const int moved = strcmp(p.s[i].name, "warp-aggregated") != 0;
    CHECK_NEAR(p.s[i].chain_ns, moved ? load + loop + table : 0);
    if (moved) /* 4.94 ms / 235 us: 21.0x, the block variant at this grid measured 19.8x in a later run */
      CHECK(strcmp(p.s[i].bound_by, "latency") == 0 && p.s[i].after_ns == p.s[i].chain_ns &&
            fabs(p.s[i].speedup / 19.78 - 1) < 0.3);
  }
  /* a 4096-word-update table at the 16-warp chain: the hot word's chain binds over the loop */
  cal.chain[3].cycles = 55.21 * 40;
  atl_l2_predict(&cal, &hot, &u, &p);
  CHECK_NEAR(p.loop_ns, fmax(6 * 256 * 55.21 * 40, 2097152 / (132 * 48.0) * 8 * 55.21 * 40) / sm_per_ns);
  cal.chain[3].cycles = 55.21;
  /* no table (only the hot words): the launch's 8 blocks a SM, nothing to clear */
  cal.table_bytes = 0;
  atl_l2_predict(&cal, &hot, &u, &p);
  CHECK(p.tables == 8 && p.table_ns == 0);
  CHECK_NEAR(p.load_ns, dram_ns);
  cal.table_bytes = 33280;
  /* the streaming calibration's warps unknown: the loads at the floor */
  cal.dram_warps = 0;
  atl_l2_predict(&cal, &hot, &u, &p);
  CHECK_NEAR(p.load_ns, dram_ns);
  cal.dram_warps = 64;
  /* integer adds or no calibration: no latency term */
  hot.f32_share = 0;
  atl_l2_predict(&cal, &hot, &u, &p);
  for (size_t i = 0; i < p.count; i++)
    CHECK(p.s[i].chain_ns == 0 && strcmp(p.s[i].bound_by, "latency") != 0);
  hot.f32_share = 1, cal.chain_count = 0;
  atl_l2_predict(&cal, &hot, &u, &p);
  for (size_t i = 0; i < p.count; i++)
    CHECK(p.s[i].chain_ns == 0);
}

/*
 * REAL H100 exports (tests/data/ncu-h100-cas-chain-r7.csv: the chain calibration, E = 1, 2, 4, 8, 16 warps a
 * block, each twice; ncu-h100-scatter-hot-r7.csv: the hot-row f32 scatter's atomic launch with the L2 sector counts,
 * twice). The chain points as model l2 prints them; the sectors: 8.39 M accesses over 8 distinct sectors, 1.05 M
 * updates a word; the prediction with the call's DRAM calibration (2410 GB/s, 64 warps a SM) and a 33280-byte table
 * lands within 30% of the 19.78x the block variant measured in that call.
 */
static void chain_exports(void)
{
  struct atl_l2_report r;
  char why[512];
  struct atl_l2_calibration cal = {{1.397, 1.369}, {1.388, 1.087}, .dram_share = 0.719, .s_pass = 1.08,
                                   .dram_bytes_per_ns = 2410, .dram_warps = 64, .table_bytes = 33280};
  if (!CHECK(atl_l2_read_file(ATL_TEST_DATA_DIR "/ncu-h100-cas-chain-r7.csv", &r, why, sizeof why) == 0)) {
    fprintf(stderr, "  %s\n", why);
    return;
  }
  CHECK(r.count == 10);
  CHECK(atl_l2_cas_chain(&r, cal.chain, &cal.chain_count, why, sizeof why) == 0);
  atl_l2_report_release(&r);
  static const double want[][2] = {{1, 126.7}, {2, 104.1}, {4, 92.45}, {8, 55.21}, {16, 47.23}};
  if (CHECK(cal.chain_count == 5))
    for (size_t i = 0; i < 5; i++)
      CHECK(cal.chain[i].warps == want[i][0] && fabs(cal.chain[i].cycles / want[i][1] - 1) < 5e-4);
  if (!CHECK(atl_l2_read_file(ATL_TEST_DATA_DIR "/ncu-h100-scatter-hot-r7.csv", &r, why, sizeof why) == 0)) {
    fprintf(stderr, "  %s\n", why);
    return;
  }
  struct atl_l2_counters hot = r.kernels[0];
  atl_l2_report_release(&r);
  CHECK(hot.sectors_max == 8388608 && hot.sector_misses_max == 8);
  hot.f32_share = 1;
  struct atl_l2_util u;
  struct atl_l2_prediction p;
  atl_l2_utilization(&cal, &hot, &u);
  atl_l2_predict(&cal, &hot, &u, &p);
  CHECK(p.chain_updates == 1048576 && p.tables == 6 && p.chain_warps == 8);
  for (size_t i = 0; i < p.count; i++)
    if (strcmp(p.s[i].name, "privatized") == 0)
      CHECK(strcmp(p.s[i].bound_by, "latency") == 0 && fabs(p.s[i].speedup / 19.78 - 1) < 0.3 &&
            p.s[i].speedup < 25);
  /* with a load's round trip (565 SM cycles), a warp's rows one after another: 6 waves of 32 rows, each the
   * key's and two columns' round trips and two CAS loops (2.1 M warp-instructions over 1.05 M updates: 2 steps), the
   * loops at the contenders that are in their loops at the time */
  cal.round_trip = 565;
  atl_l2_predict(&cal, &hot, &u, &p);
  const double clk = hot.sm_elapsed / hot.duration_ns;
  CHECK(p.steps == 2);
  /* the contenders a loop meets: the fixed point of 1 + 7 x the loops' share of a row */
  const double e = p.contenders, loop = 2 * e * atl_l2_chain_cycles(&cal, e);
  CHECK(e > 1 && e < 8 && fabs(e - (1 + 7 * loop / (3 * 565 + loop))) < 1e-6);
  CHECK_NEAR(p.chain_cycles, atl_l2_chain_cycles(&cal, e));
  CHECK_NEAR(p.loop_ns, 6 * 32 * loop / clk);
  CHECK_NEAR(p.load_ns, 6 * 32 * 3 * 565 / clk);
  for (size_t i = 0; i < p.count; i++) /* against the 19.78x measured */
    if (strcmp(p.s[i].name, "privatized") == 0)
      CHECK(fabs(p.s[i].speedup / 19.78 - 1) < 0.3);
  /* the loads never beat the DRAM floor */
  cal.round_trip = 1;
  atl_l2_predict(&cal, &hot, &u, &p);
  CHECK_NEAR(p.load_ns, p.dram_ns);
  /* rows of half a warp (dim 16): two rows an atomic instruction, one loop a row: steps 1, rows twice the instructions */
  cal.round_trip = 565, hot.l1_requests = 1048576 / 2.0;
  atl_l2_predict(&cal, &hot, &u, &p);
  CHECK(p.steps == 1);
  CHECK_NEAR(p.loop_ns, 6 * 32 * p.contenders * p.chain_cycles / clk);
}

/* A load's round trip from the streaming launches of an export: the REAL H100 copy ceiling of one run
 * (tests/data/ncu-h100-dram-copy-r7.csv), 4096 blocks of 256 at 8 a SM (4 waves on 132 SMs), 520.4 MB moved: 62.0
 * elements a work-item, 215.4 us at the 1.98 GHz clock (the export has no SM cycles): 1719 cycles an element
 * (saturated: the calibration runs at 2 warps a SM); its atomic launches do not count. */
static void round_trip(void)
{
  char why[512] = "";
  struct atl_l2_report r = {NULL, 0};
  const int read = atl_l2_read_file(ATL_TEST_DATA_DIR "/ncu-h100-dram-copy-r7.csv", &r, why, sizeof why);
  if (!CHECK(read == 0 && r.count == 4)) {
    fprintf(stderr, "  %s\n", why);
    if (read == 0)
      atl_l2_report_release(&r);
    return;
  }
  const double rt = atl_l2_round_trip(&r);
  if (!CHECK(fabs(rt / 1719 - 1) < 0.01))
    fprintf(stderr, "  round trip %g\n", rt);
  /* one launch of 256 blocks of one warp: one wave, its elements one round trip each */
  struct atl_l2_counters one = r.kernels[0];
  one.grid_size = 256, one.block_size = 32, one.sm_elapsed = 8192 * 600.0, one.dram_bytes = 256 * 32 * 8192 * 8.0;
  struct atl_l2_report r1 = {&one, 1};
  CHECK_NEAR(atl_l2_round_trip(&r1), 600);
  one.requests = 5; /* an atomic launch is not a streaming one */
  CHECK(atl_l2_round_trip(&r1) == 0);
  atl_l2_report_release(&r);
}

/* The achievable DRAM share: the median over the launches without atomics; none is an error. */
static void dram_achievable(void)
{
  struct atl_l2_counters k[4] = {{.dram_pct = 71.76, .dram_bytes = -1}, {.dram_pct = 72.30, .dram_bytes = -1},
                                 {.dram_pct = 72.14, .dram_bytes = -1}, {.dram_pct = 5, .requests = 10}};
  struct atl_l2_report r = {k, 4};
  double share = 0, bw = -1;
  char why[256];
  CHECK(atl_l2_dram_achievable(&r, &share, &bw, why, sizeof why) == 0);
  CHECK_NEAR(share, 0.7214);
  CHECK(bw == 0); /* no bytes counted */
  k[0].dram_bytes = 2000, k[0].duration_ns = 1; /* bytes per ns where counted: the median of those launches */
  k[1].dram_bytes = 3000, k[1].duration_ns = 1;
  CHECK(atl_l2_dram_achievable(&r, &share, &bw, why, sizeof why) == 0);
  CHECK_NEAR(bw, 2500);
  r.kernels = k + 3, r.count = 1;
  CHECK(atl_l2_dram_achievable(&r, &share, &bw, why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "streaming") != NULL);
}

/* Hot words of float adds: the f32 same-address S where the kernel's SASS says its adds are floats (the share
 * from a types CSV: the first line whose kernel is a prefix of the launch's name); integer kernels keep S_same. */
static void float_adds(void)
{
  struct atl_l2_calibration cal = {{1.4, 1.4}, {1.4, 1.1}, .s_same_f32 = {3.0, 3.1}};
  struct atl_l2_counters k[2] = {{.kernel = "kernelHistogram1D<float>", .duration_ns = 1000, .l2_cycles = 10000,
                                  .requests = 1500, .requests_max = 1000, .red_max = 1000, .requests_avg = 10,
                                  .red_requests = 1500, .input_active_max = -1},
                                 {.kernel = "histogram", .duration_ns = 1000, .l2_cycles = 10000, .requests = 1500,
                                  .requests_max = 1000, .red_max = 1000, .requests_avg = 10, .red_requests = 1500,
                                  .input_active_max = -1}};
  struct atl_l2_report r = {k, 2};
  char why[256] = "";
  CHECK(atl_l2_types_apply(&r, "kernel,f32_share\nkernelHistogram1D,1\nkernelHistogram1D<float>,0.5\n\"hist\",0\n",
                           "t.csv", why, sizeof why) == 0);
  CHECK(k[0].f32_share == 1 && k[1].f32_share == 0);
  struct atl_l2_util u;
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK(u.access == ATL_L2_HOT);
  CHECK_NEAR(u.busy, 1000 * 3.1);
  atl_l2_utilization(&cal, &k[1], &u);
  CHECK_NEAR(u.busy, 1000 * 1.4);
  k[0].f32_share = 0.5; /* a mix: the shares' weighted S (no L1 counters: taken as one word) */
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK_NEAR(u.busy, 1000 * (0.5 * 1.4 + 0.5 * 3.1));
  /* the chain hides behind other words: a warp's coalesced lanes on a row's distinct words (one request an
   * instruction, the hot-row scatter) keep the integer S; all 32 lanes on one word take the chain */
  k[0].f32_share = 1, k[0].l1_requests = 100, k[0].l1_set_accesses = 100, k[0].warp_size = 32;
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK_NEAR(u.busy, 1000 * 1.4);
  k[0].l1_set_accesses = 3200;
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK(atl_l2_key_words(&k[0]) == 1);
  CHECK_NEAR(u.busy, 1000 * 3.1);
  /* the hot word's own chain where the sectors are counted: every request on the same words (a row of 16
   * floats, two requests an instruction): 1000 updates a word at 3.1, whatever the lanes */
  k[0].l1_set_accesses = 100, k[0].sectors_max = 2000, k[0].sector_misses_max = 2;
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK_NEAR(u.busy, 1000 * 3.1);
  CHECK(fabs(u.u_low - 0.31) < 1e-12 && fabs(u.u_high - 0.31) < 1e-12);
  k[0].sectors_max = 2000, k[0].sector_misses_max = 20; /* 100 updates a word: the integer S binds */
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK_NEAR(u.busy, 1000 * 1.4);
  k[0].sectors_max = k[0].sector_misses_max = -1;
  k[0].l1_requests = k[0].l1_set_accesses = 0;
  cal.s_same_f32[ATL_L2_RED] = 0; /* not calibrated: S_same */
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK_NEAR(u.busy, 1000 * 1.4);
  CHECK(!atl_l2_f32_ratio_priced(&cal, &k[0], &u));
  /* the architecture's ratio (data/tuning/l2.json) where the f32 calibration is missing: U from the ratio's price,
   * its range down to the integer price's low end (min of S_same and S_spread: 1.1); a calibrated f32 S wins */
  cal.f32_ratio[ATL_L2_ATOM] = 2.0, cal.f32_ratio[ATL_L2_RED] = 2.5;
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK_NEAR(u.busy, 1000 * 1.4 * 2.5);
  CHECK(fabs(u.u_low - 0.11) < 1e-12 && fabs(u.u_high - 0.35) < 1e-12);
  CHECK(atl_l2_f32_ratio_priced(&cal, &k[0], &u));
  cal.s_same_f32[ATL_L2_RED] = 3.1;
  atl_l2_utilization(&cal, &k[0], &u);
  CHECK_NEAR(u.busy, 1000 * 3.1);
  CHECK(!atl_l2_f32_ratio_priced(&cal, &k[0], &u));
  cal.s_same_f32[ATL_L2_RED] = 0;
  atl_l2_utilization(&cal, &k[1], &u); /* integer adds keep the integer S */
  CHECK_NEAR(u.busy, 1000 * 1.4);
  cal.f32_ratio[ATL_L2_ATOM] = cal.f32_ratio[ATL_L2_RED] = 0;
  /* a launch name cut at the struct's length (PyTorch's histc: 400 characters) still takes its line's share;
   * a line longer than a name that was not cut does not */
  char line[600] = "kernel,f32_share\n";
  memset(k[1].kernel, 'x', sizeof k[1].kernel - 1);
  k[1].kernel[sizeof k[1].kernel - 1] = 0;
  memset(line + strlen(line), 'x', 400);
  strcat(line, ",1\n");
  CHECK(atl_l2_types_apply(&r, line, "t.csv", why, sizeof why) == 0);
  CHECK(k[1].f32_share == 1 && k[0].f32_share == 0);
  k[1].kernel[100] = 0;
  CHECK(atl_l2_types_apply(&r, line, "t.csv", why, sizeof why) == 0);
  CHECK(k[1].f32_share == 0);
  /* bad lines name the file and line */
  CHECK(atl_l2_types_apply(&r, "kernel,f32_share\nhistogram,2\n", "t.csv", why, sizeof why) == ATL_EINVAL);
  CHECK(strstr(why, "t.csv:2:") != NULL);
  CHECK(atl_l2_types_apply(&r, "kernel,f32_share\nhistogram\n", "t.csv", why, sizeof why) == ATL_EINVAL);
  CHECK(atl_l2_types_apply(&r, "kernel,f32_share\n,0.5\n", "t.csv", why, sizeof why) == ATL_EINVAL);
}

int main(void)
{
  metric_names();
  predictions();
  dram_achievable();
  float_adds();
  cas_chain();
  private_chain();
  chain_exports();
  round_trip();
  real_export();
  bad_exports();
  return check_exit("test_l2model");
}
