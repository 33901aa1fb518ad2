/*
 * Semantics of every primitive of the device library on a real device:
 * for every strategy, op and access pattern, with full and with divergent
 * warps (every third thread does not call), the old values each word
 * handed out must be exactly x_0 .. x_{n-1} of the op (a serial order of
 * its updates) and the final memory exact. One kernel build serves all
 * (strategy and op are kernel arguments), so PoCL compiles once.
 *
 *   test_strategy opencl   PoCL in CI (label opencl)
 *   test_strategy cuda     a GPU machine (label gpu); 77 without a CUDA device
 *
 * It also proves the checker can fail: a duplicated, a missing and a wrong
 * old value, and a wrong final word, are each caught.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/context.h"
#include "core/strategy_internal.h"

static void checker_catches_errors(void)
{
  struct atl__strategy_op o;
  atl__strategy_op(ATL_OP_FETCH_ADD, &o);
  uint64_t counts[2] = {3, 1};
  /* word 0 got x_0, x_1, x_2 (out of order), word 1 got x_0 */
  struct atl__old_record good[] = {{0, o.init + 2 * o.operand}, {1, o.init}, {0, o.init}, {0, o.init + o.operand}};
  char why[200];
  CHECK(atl__strategy_check_olds(&o, good, 4, counts, 2, why, sizeof why) == 0);
  struct atl__old_record dup[] = {{0, o.init}, {1, o.init}, {0, o.init}, {0, o.init + o.operand}};
  CHECK(atl__strategy_check_olds(&o, dup, 4, counts, 2, why, sizeof why) == 1);
  struct atl__old_record missing[] = {{0, o.init}, {1, o.init}, {0, o.init + o.operand}};
  CHECK(atl__strategy_check_olds(&o, missing, 3, counts, 2, why, sizeof why) == 1);
  struct atl__old_record wrong_word[] = {{0, o.init}, {1, o.init}, {0, o.init + o.operand}, {1, o.init}};
  CHECK(atl__strategy_check_olds(&o, wrong_word, 4, counts, 2, why, sizeof why) >= 1);
  /* closed forms of the final value */
  CHECK(atl__strategy_after(&o, 5) == o.init + 5 * o.operand);
  atl__strategy_op(ATL_OP_XOR, &o);
  CHECK(atl__strategy_after(&o, 3) == (o.init ^ o.operand) && atl__strategy_after(&o, 4) == o.init);
  atl__strategy_op(ATL_OP_FETCH_MIN, &o);
  CHECK(atl__strategy_after(&o, 0) == o.init && atl__strategy_after(&o, 9) == o.operand);
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int cmp_uint(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The CAS loops on a double add, a float max and a user-supplied combine (kernel cas_types). */
static void cas_types(atl_context_t ctx, int has_f64)
{
  enum { THREADS = 192, WG = 64, SLOTS = 4, PER = THREADS / SLOTS };
  const struct atl_backend_ops *ops = atl__ops(ctx);
  void *dev = atl__dev(ctx), *kernel = NULL, *b[7] = {0};
  const size_t sizes[7] = {SLOTS * 8, SLOTS * 4, SLOTS * 4, THREADS * 4, THREADS * 8, THREADS * 4, THREADS * 4};
  double dbl[SLOTS], old_dbl[THREADS];
  float flt[SLOTS], old_flt[THREADS];
  uint32_t usr[SLOTS], old_usr[THREADS], targets[THREADS];
  for (int i = 0; i < SLOTS; i++) {
    dbl[i] = 0.0;
    flt[i] = -100.0f;
    usr[i] = 1u;
  }
  for (int g = 0; g < THREADS; g++)
    targets[g] = (uint32_t)g % SLOTS;
  struct atl_build req = {"strategy", "cas_types", "RESULT_USED=1 PRIV_WORDS=32 ATL_WAVEFRONT=32 ATL_MAX_GROUPS=2"};
  int err = ops->build(dev, &req, &kernel);
  for (int i = 0; !err && i < 7; i++)
    err = ops->alloc(dev, sizes[i], &b[i]);
  if (!err)
    err = ops->write(dev, b[0], dbl, sizeof dbl) || ops->write(dev, b[1], flt, sizeof flt) ||
          ops->write(dev, b[2], usr, sizeof usr) || ops->write(dev, b[3], targets, sizeof targets);
  struct atl_arg args[7];
  for (int i = 0; i < 7; i++)
    args[i] = (struct atl_arg){ATL_ARG_BUFFER, b[i], 0};
  struct atl_launch launch = {THREADS, WG, args, 7};
  double ms;
  if (!err)
    err = ops->launch(dev, kernel, &launch, &ms);
  if (!err)
    err = ops->read(dev, b[0], dbl, sizeof dbl) || ops->read(dev, b[1], flt, sizeof flt) ||
          ops->read(dev, b[2], usr, sizeof usr) || ops->read(dev, b[4], old_dbl, sizeof old_dbl) ||
          ops->read(dev, b[5], old_flt, sizeof old_flt) || ops->read(dev, b[6], old_usr, sizeof old_usr);
  if (!CHECK(err == 0))
    fprintf(stderr, "  cas_types: %s\n", atl_errmsg(ctx));
  for (int i = 0; i < 7; i++)
    ops->free(dev, b[i]);
  if (err)
    return;
  for (int slot = 0; slot < SLOTS; slot++) {
    double d[PER];
    uint32_t u[PER], x[PER + 1];
    float best = -100.0f;
    int n = 0, firsts = 0, members = 1;
    x[0] = 1u;
    for (int k = 0; k < PER; k++)
      x[k + 1] = x[k] * 3u + 1u;
    for (int g = slot; g < THREADS; g += SLOTS, n++) {
      d[n] = old_dbl[g];
      u[n] = old_usr[g];
      float v = (float)(g % 7) - 3.0f;
      best = v > best ? v : best;
      firsts += old_flt[g] == -100.0f;
      int member = old_flt[g] == -100.0f;
      for (int h = slot; h < THREADS; h += SLOTS)
        member |= old_flt[g] == (float)(h % 7) - 3.0f;
      members &= member;
    }
    qsort(d, PER, sizeof *d, cmp_double);
    qsort(u, PER, sizeof *u, cmp_uint);
    uint32_t xs[PER];
    memcpy(xs, x, sizeof xs);
    qsort(xs, PER, sizeof *xs, cmp_uint);
    int dbl_ok = dbl[slot] == (double)PER, usr_ok = usr[slot] == x[PER];
    for (int k = 0; k < PER; k++) {
      dbl_ok &= d[k] == (double)k;
      usr_ok &= u[k] == xs[k];
    }
    if (has_f64 && !CHECK(dbl_ok))
      CHECK_CONTEXT("double add by CAS, slot %d: final %g", slot, dbl[slot]);
    if (!CHECK(usr_ok))
      CHECK_CONTEXT("user-supplied combine x*3+1 by CAS, slot %d", slot);
    if (!CHECK(flt[slot] == best && firsts == 1 && members))
      CHECK_CONTEXT("float max by CAS, slot %d: final %g, %d saw the start", slot, (double)flt[slot], firsts);
  }
}

int main(int argc, char **argv)
{
  const char *backend = argc > 1 ? argv[1] : "opencl";
  checker_catches_errors();
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx) != 0)
    return 1;
  if (atl_device_open(ctx, NULL, backend) != 0) {
    printf("no %s device: skipped (%s)\n", backend, atl_errmsg(ctx));
    atl_context_free(ctx);
    return check_failures ? 1 : 77;
  }
  const struct atl_device_info *dev = atl_device_current(ctx);
  printf("device: %s (%s)\n", dev->name, dev->backend);
  struct atl_timing tm;
  atl_timing_defaults(&tm);
  tm.fixed_iters = 3;
  tm.min_samples = tm.max_samples = 1;
  static const enum atl_op ops[] = {ATL_OP_FETCH_ADD, ATL_OP_FETCH_SUB, ATL_OP_INC, ATL_OP_FETCH_MIN,
                                    ATL_OP_FETCH_MAX, ATL_OP_AND,       ATL_OP_OR,  ATL_OP_XOR};
  unsigned ran = 0, unsupported = 0;
  for (int a = 0; a < ATL_ACCESS_COUNT; a++)
    for (int st = 0; st < ATL_STRATEGY_COUNT; st++)
      for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (int div = 0; div < 2; div++) {
          /* 3 blocks of 64 (two warps each): several blocks and warps per word */
          struct atl_strategy_spec s = {.strategy = (enum atl_strategy)st, .access = (enum atl_access)a,
                                        .op = ops[o], .result = ATL_RESULT_USED, .wg_size = 64, .workgroups = 3,
                                        .divergent = div, .runtime_select = 1};
          struct atl_row r;
          if (atl_strategy_run(ctx, &s, &tm, &r) != 0) {
            CHECK(!"out of host memory");
            continue;
          }
          const int expect_unsupported =
              (st == ATL_STRATEGY_PRIVATIZED && a == ATL_ACCESS_SCATTERED) ||
              (st == ATL_STRATEGY_LOCK_WARP && !dev->has_warp_vote);
          if (r.status == ATL_STATUS_UNSUPPORTED && expect_unsupported) {
            unsupported++;
          } else if (!CHECK(r.status == ATL_STATUS_OK && r.verified && atl_row_metric(&r, "olds_checked", 0) > 0)) {
            fprintf(stderr, "  %s %s %s%s: %s %s\n", atl_strategy_name(s.strategy), atl_access_name(s.access),
                    atl_op_name(s.op), div ? " divergent" : "", atl_status_name(r.status), r.reason);
          } else {
            ran++;
          }
          atl_row_release(&r);
        }
  printf("%u configurations verified, %u unsupported as expected\n", ran, unsupported);
  /* OpenCL compiles the double add only with cl_khr_int64_base_atomics and cl_khr_fp64 */
  cas_types(ctx, dev->kernels_cuda_c || dev->has_int64_atomics);
  atl_context_free(ctx);
  return check_exit("test_strategy");
}
