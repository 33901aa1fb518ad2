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
          struct atl_strategy_row r;
          if (atl_strategy_run(ctx, &s, &tm, &r) != 0) {
            CHECK(!"out of host memory");
            continue;
          }
          const int expect_unsupported =
              (st == ATL_STRATEGY_PRIVATIZED && a == ATL_ACCESS_SCATTERED) ||
              (st == ATL_STRATEGY_LOCK_WARP && strcmp(dev->backend, "opencl") == 0);
          if (r.row.status == ATL_STATUS_UNSUPPORTED && expect_unsupported) {
            unsupported++;
          } else if (!CHECK(r.row.status == ATL_STATUS_OK && r.row.verified && r.olds_checked > 0)) {
            fprintf(stderr, "  %s %s %s%s: %s %s\n", atl_strategy_name(s.strategy), atl_access_name(s.access),
                    atl_op_name(s.op), div ? " divergent" : "", atl_status_name(r.row.status), r.row.reason);
          } else {
            ran++;
          }
          atl_row_release(&r.row);
        }
  printf("%u configurations verified, %u unsupported as expected\n", ran, unsupported);
  atl_context_free(ctx);
  return check_exit("test_strategy");
}
