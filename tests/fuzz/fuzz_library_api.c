/* libFuzzer harness: the library's public calls on an OpenCL device (PoCL in CI) with descriptors the bytes
 * choose: atl_scatter_add and atl_scatter_method_for (type, index_bytes, method, keys hint, deterministic,
 * unchecked_keys, rows, targets, dim, keys valid or not, NULL or aliased buffers, buffers too small), the
 * buffers' transfers, atl_rmw_check and atl_rmw_run (every spec field and timing setting, a small grid), and
 * atl_timing_check. Oracles, abort() on failure: a refused call (ATL_EINVAL, ATL_ERANGE) leaves the output
 * byte for byte as it was; no call writes past the region its descriptor names (guard bytes after it) or into
 * the source or the keys; a bad key is never accepted while checked. Without an OpenCL device every input
 * passes untried. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "oracle failed: %s (line %d)\n", #cond, __LINE__);                                               \
      abort();                                                                                                         \
    }                                                                                                                  \
  } while (0)

#define GUARD 256u        /* bytes after each region that no call may touch */
#define MAX_ROWS 512u
#define MAX_TARGETS 96u

struct bytes {
  const uint8_t *p;
  size_t n, at;
};

static unsigned next(struct bytes *b) { return b->at < b->n ? b->p[b->at++] : 0u; }

static atl_context_t device(void)
{
  static atl_context_t ctx;
  static int tried;
  if (!tried) {
    tried = 1;
    if (atl_context_new(&ctx) != 0 || atl_device_open(ctx, NULL, "opencl") != 0) {
      atl_context_free(ctx);
      ctx = NULL;
    }
  }
  return ctx;
}

/* A field from one byte: mostly a valid value, sometimes any (an enum of 200, a flag of 7, a negative). */
static int field(struct bytes *b, int valid)
{
  const unsigned v = next(b);
  return v < 192 ? (int)(v % (unsigned)valid) : v < 224 ? (int)v : -(int)(v & 7) - 1;
}

static void scatter_case(atl_context_t ctx, struct bytes *in)
{
  struct atl_scatter_desc d = {.type = field(in, 5), .method = field(in, 9), .keys = field(in, 4),
                               .deterministic = field(in, 2), .unchecked_keys = field(in, 2)};
  const unsigned ib = next(in);
  d.index_bytes = ib < 120 ? 4 : ib < 240 ? 8 : ib;
  d.rows = next(in) * 2u % MAX_ROWS; /* 0 too */
  d.targets = next(in) % MAX_TARGETS;
  static const uint32_t dims[] = {1, 4, 1, 3, 0, 513};
  d.dim = dims[next(in) % 6];
  const unsigned ptrs = next(in), bad_keys = next(in), short_by = next(in) % 4 == 0 ? 1 : 0;
  const size_t es = 4, rows = d.rows, targets = d.targets ? d.targets : 1, dim = d.dim && d.dim <= 8 ? d.dim : 1;
  /* the regions the descriptor names (at least a word), then GUARD bytes no call may touch */
  const size_t out_n = targets * dim * es, src_n = (rows ? rows : 1) * dim * es, idx_n = (rows ? rows : 1) * 8;
  uint8_t *out = malloc(out_n + GUARD), *src = malloc(src_n + GUARD), *idx = malloc(idx_n + GUARD);
  uint8_t *back = malloc(idx_n + src_n + out_n + GUARD);
  atl_buffer_t b_out = NULL, b_src = NULL, b_idx = NULL;
  CHECK(out && src && idx && back);
  for (size_t i = 0; i < out_n + GUARD; i++)
    out[i] = (uint8_t)(i * 131u + 7u);
  for (size_t i = 0; i < src_n + GUARD; i++)
    src[i] = i % 4 == 3 ? 0x3f : (uint8_t)(i * 17u); /* f32 near 1, sane integers */
  int any_bad = 0;
  for (size_t r = 0; r < (rows ? rows : 1); r++) {
    uint64_t k = next(in) % targets;
    if (bad_keys >= 200 && r % (bad_keys - 199) == 0) /* a bad key at some rows: -1, targets, or far past */
      k = r % 3 == 0 ? UINT64_MAX : r % 3 == 1 ? d.targets : (uint64_t)1 << 33, any_bad = 1;
    if (d.index_bytes == 4)
      ((uint32_t *)idx)[r] = (uint32_t)k;
    else
      memcpy(idx + r * 8, &k, 8);
  }
  memset(idx + idx_n, 0x5a, GUARD);
  /* unchecked keys must be valid: the call would write where the caller said it may not */
  if (d.unchecked_keys == 1 && any_bad)
    d.unchecked_keys = 0;
  CHECK(atl_buffer_new(ctx, out_n + GUARD, &b_out) == 0 && atl_buffer_new(ctx, src_n + GUARD, &b_src) == 0 &&
        atl_buffer_new(ctx, idx_n + GUARD, &b_idx) == 0);
  CHECK(atl_buffer_write(ctx, b_out, out, out_n + GUARD) == 0 &&
        atl_buffer_write(ctx, b_src, src, src_n + GUARD) == 0 &&
        atl_buffer_write(ctx, b_idx, idx, idx_n + GUARD) == 0);
  /* a buffer of the descriptor's size less one byte, where asked: refused by its size */
  atl_buffer_t small = NULL;
  if (short_by)
    CHECK(atl_buffer_new(ctx, out_n - 1, &small) == 0);
  atl_buffer_t o = ptrs & 1 ? NULL : short_by ? small : b_out, s = ptrs & 2 ? NULL : b_src, k = ptrs & 4 ? NULL : b_idx;
  if ((ptrs & 0x18) == 0x08)
    o = b_src; /* aliased */
  else if ((ptrs & 0x18) == 0x10)
    o = b_idx;
  const struct atl_scatter_desc *dp = ptrs & 0x20 ? NULL : &d;
  enum atl_scatter_method m;
  const int merr = atl_scatter_method_for(ctx, dp, k, ptrs & 0x40 ? NULL : &m);
  CHECK(merr == 0 || merr == ATL_EINVAL || merr == ATL_ENOMEM);
  double ms;
  const int err = atl_scatter_add(ctx, dp, o, s, k, &ms);
  CHECK(err == 0 || err == ATL_EINVAL || err == ATL_ERANGE || err == ATL_ENOTSUP);
  if (err == 0 && o == b_out && dp && !d.unchecked_keys)
    CHECK(!any_bad); /* checked keys: a bad one is refused */
  if (err == ATL_ERANGE)
    CHECK(any_bad);
  /* the keys and the source untouched, the output's guard untouched, the output itself where refused */
  CHECK(atl_buffer_read(ctx, b_idx, back, idx_n + GUARD) == 0 && memcmp(back, idx, idx_n + GUARD) == 0);
  CHECK(atl_buffer_read(ctx, b_src, back, src_n + GUARD) == 0 && memcmp(back, src, src_n + GUARD) == 0);
  CHECK(atl_buffer_read(ctx, b_out, back, out_n + GUARD) == 0);
  CHECK(memcmp(back + out_n, out + out_n, GUARD) == 0);
  if (err != 0)
    CHECK(memcmp(back, out, out_n) == 0);
  /* the transfers: NULL host, past the end */
  CHECK(atl_buffer_read(ctx, b_out, NULL, 4) == ATL_EINVAL &&
        atl_buffer_write(ctx, b_out, back, out_n + GUARD + 1) == ATL_EINVAL);
  atl_buffer_free(ctx, small), atl_buffer_free(ctx, b_out), atl_buffer_free(ctx, b_src), atl_buffer_free(ctx, b_idx);
  free(out), free(src), free(idx), free(back);
}

static void rmw_case(atl_context_t ctx, struct bytes *in)
{
  struct atl_spec s = {.op = field(in, ATL_OP_COUNT), .type = field(in, ATL_TYPE_COUNT),
                       .space = field(in, ATL_SPACE_COUNT), .pattern = field(in, ATL_PATTERN_COUNT),
                       .result = field(in, ATL_RESULT_COUNT), .scope = field(in, ATL_SCOPE_COUNT),
                       .order = field(in, ATL_ORDER_COUNT)};
  s.contention = next(in) % 9, s.padding = next(in) % 5, s.wg_size = 32u * (next(in) % 3), s.workgroups = next(in) % 4;
  struct atl_timing t;
  atl_timing_defaults(&t);
  t.target_ms = 0.01, t.min_samples = 1, t.max_samples = 2, t.budget_s = 0.05, t.fixed_iters = 1;
  const unsigned tb = next(in);
  if (tb & 1)
    t.noise = tb & 2 ? NAN : -1;
  if (tb & 4)
    t.discard_throttled = (int)(tb >> 4);
  if (tb & 8)
    t.placements = tb >> 4;
  char why[256];
  const int cerr = atl_rmw_check(ctx, next(in) & 1 ? NULL : &s, why, sizeof why);
  CHECK(cerr == 0 || cerr == ATL_EINVAL || cerr == ATL_ENOTSUP);
  (void)atl_timing_check(&t, why, sizeof why);
  if (next(in) % 2 == 0) { /* a run only where asked: each new spec builds a kernel */
    struct atl_row row;
    const int err = atl_rmw_run(ctx, &s, &t, &row);
    CHECK(err == 0 || err == ATL_EINVAL);
    CHECK(cerr == 0 || row.status != ATL_STATUS_OK);
    atl_row_release(&row);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  atl_context_t ctx = device();
  if (ctx == NULL)
    return 0;
  struct bytes in = {data, size, 0};
  const unsigned what = next(&in);
  if (what % 4 == 3)
    rmw_case(ctx, &in);
  else
    scatter_case(ctx, &in);
  return 0;
}
