/*
 * atl_scatter_add (include/atomlab/scatter.h) on a device: for each distribution the method the library
 * picks (its `auto`, from a sample of the keys or the caller's hint) is the one the app's rule names for that
 * device, and every method, picked or forced, gives the exact integer sums and f32 sums within the bound
 * (scatter_keys.h). Default: OpenCL (PoCL in CI: no warp path for part, no clusters for dsm, so auto picks
 * atomic, block, run and bins; every method still runs when forced). --gpu: CUDA at sizes where the H100's
 * winners apply (part over L2-sized ranges, part in one range, run, dsm with sm_90 clusters, bins), each
 * pick checked on sm_90. Exits 77 without the device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/scatter_lib.h"
#include "atomlab.h"
#include "check.h"
#include "scatter_keys.h"

struct lib_case {
  enum atl_scatter_type type;
  uint32_t dim;
  uint64_t rows, targets;
  enum sk_dist dist;
  unsigned index_bytes;
  enum atl_scatter_keys keys;
  enum atl_scatter_method method; /* forced, or AUTO */
  enum atl_scatter_method want;   /* what AUTO must pick (AUTO here: whatever the method says) */
};

#define F32 ATL_SCATTER_F32
#define U32 ATL_SCATTER_U32
#define I32 ATL_SCATTER_I32
#define SAMPLE ATL_SCATTER_KEYS_SAMPLE
#define A ATL_SCATTER_AUTO

static const struct lib_case opencl_cases[] = {
    /* the picks on a device without part's warp path or clusters (the rule's atomic, block, run, bins) */
    {F32, 8, 20000, 8000, SK_UNIFORM, 4, SAMPLE, A, ATL_SCATTER_ATOMIC},
    {F32, 8, 20000, 8000, SK_ZIPF, 4, SAMPLE, A, ATL_SCATTER_BLOCK},
    {F32, 8, 20000, 8000, SK_SORTED, 8, SAMPLE, A, ATL_SCATTER_RUN},
    /* more rows than the whole sample: pairs of neighbouring keys spread over them (scatter_shares.k.c), so a
     * cluster of 32 equal keys counts as a run, not as a head (the first 65536 keys would make it one) */
    {F32, 8, 200000, 100000, SK_CLUSTERED, 4, SAMPLE, A, ATL_SCATTER_RUN},
    {F32, 8, 200000, 100000, SK_UNIFORM, 8, SAMPLE, A, ATL_SCATTER_ATOMIC},
    {F32, 8, 200000, 100000, SK_SORTED, 4, SAMPLE, A, ATL_SCATTER_RUN},
    /* a zipf head counted on the device (scatter_shares.k.c's count of the sample's first keys) */
    {F32, 8, 200000, 100000, SK_ZIPF, 8, SAMPLE, A, ATL_SCATTER_BLOCK},
    {U32, 1, 200000, 100000, SK_HOT, 8, SAMPLE, A, ATL_SCATTER_BINS},
    /* strata of 32 rows and clusters of 32 keys: a fixed place in each stratum put every pair across a
     * cluster's end (no runs seen: atomic); a place drawn per stratum sees the runs (bins, for dim 1) */
    {U32, 1, 1048576, 1u << 20, SK_CLUSTERED, 4, SAMPLE, A, ATL_SCATTER_BINS},
    {F32, 8, 20000, 8000, SK_HOT, 4, SAMPLE, A, ATL_SCATTER_BLOCK},
    {U32, 1, 20000, 20000, SK_UNIFORM, 4, SAMPLE, A, ATL_SCATTER_ATOMIC},
    {U32, 1, 20000, 20000, SK_ZIPF, 8, SAMPLE, A, ATL_SCATTER_BINS},
    /* the caller's hint instead of the sample (nothing read), whatever the keys are */
    {F32, 8, 20000, 8000, SK_UNIFORM, 4, ATL_SCATTER_KEYS_RUNS, A, ATL_SCATTER_RUN},
    {F32, 8, 20000, 8000, SK_SORTED, 4, ATL_SCATTER_KEYS_SPREAD, A, ATL_SCATTER_ATOMIC},
    {I32, 1, 20000, 5000, SK_UNIFORM, 4, ATL_SCATTER_KEYS_HEAD, A, ATL_SCATTER_BINS},
    /* every method forced: the kernels' OpenCL paths give the same sums */
    {F32, 8, 20000, 8000, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_ATOMIC, A},
    {F32, 8, 20000, 8000, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_RUN, A},
    {F32, 8, 20000, 8000, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_SWEEP, A},
    {F32, 8, 20000, 8000, SK_UNIFORM, 8, SAMPLE, ATL_SCATTER_SWEEP, A},
    {F32, 8, 20000, 8000, SK_ZIPF, 8, SAMPLE, ATL_SCATTER_BLOCK, A},
    {F32, 8, 20000, 8000, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_PART, A},
    {F32, 8, 20000, 8000, SK_HOT, 4, SAMPLE, ATL_SCATTER_PART1, A},
    {I32, 33, 20000, 3000, SK_SORTED, 8, SAMPLE, ATL_SCATTER_PART, A},
    {U32, 1, 20000, 5000, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_BINS, A},
    {U32, 1, 20000, 5000, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_DSM, A},
    {I32, 1, 20000, 70000, SK_UNIFORM, 8, SAMPLE, ATL_SCATTER_DSM, A},
    {U32, 1, 20000, 5000, SK_HOT, 4, SAMPLE, ATL_SCATTER_DSM, A},
    {U32, 1, 20000, 5000, SK_UNIFORM, 4, SAMPLE, ATL_SCATTER_PART, A},
    /* bucket: 200000 rows, a bucket over its local sort's pairs at a time (zipf, one hot key), an odd dim (two
     * columns a lane), i64 keys, 262144 buckets (their counts beyond PoCL's 512 KiB of local memory: bucket_hist's
     * atomic a row) */
    {F32, 8, 20000, 8000, SK_UNIFORM, 8, SAMPLE, ATL_SCATTER_BUCKET, A},
    {F32, 8, 200000, 100000, SK_UNIFORM, 4, SAMPLE, ATL_SCATTER_BUCKET, A},
    {F32, 8, 20000, 8000, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_BUCKET, A},
    {U32, 1, 20000, 5000, SK_HOT, 4, SAMPLE, ATL_SCATTER_BUCKET, A},
    {I32, 33, 20000, 3000, SK_SORTED, 8, SAMPLE, ATL_SCATTER_BUCKET, A},
    {U32, 1, 20000, 1u << 25, SK_UNIFORM, 4, SAMPLE, ATL_SCATTER_BUCKET, A},
};

/* CUDA: f32 D = 64 into 64 MiB (more than half an H100's 50 MiB L2), bincounts of 2^20 and 2^24 bins. */
static const struct lib_case cuda_cases[] = {
    {F32, 64, 1u << 20, 1u << 18, SK_UNIFORM, 4, SAMPLE, A, ATL_SCATTER_BUCKET},
    {F32, 64, 1u << 20, 1u << 18, SK_UNIFORM, 8, SAMPLE, A, ATL_SCATTER_BUCKET},
    {F32, 64, 1u << 20, 1u << 18, SK_UNIFORM, 8, SAMPLE, ATL_SCATTER_SWEEP, A}, /* i64 keys: narrowed in range 0 */
    {F32, 64, 1u << 20, 1u << 18, SK_ZIPF, 4, SAMPLE, A, ATL_SCATTER_PART1},
    {F32, 64, 1u << 20, 1u << 18, SK_SORTED, 8, SAMPLE, A, ATL_SCATTER_RUN},
    {F32, 64, 1u << 20, 1u << 18, SK_CLUSTERED, 4, SAMPLE, A, ATL_SCATTER_RUN},
    {F32, 64, 1u << 20, 1u << 18, SK_HOT, 4, SAMPLE, A, ATL_SCATTER_PART1},
    /* dsm from 8 rows a bin (the tuning's auto_dsm_load), atomic below */
    {U32, 1, 1u << 23, 1u << 20, SK_UNIFORM, 4, SAMPLE, A, ATL_SCATTER_DSM},
    {I32, 1, 1u << 23, 1u << 20, SK_UNIFORM, 8, SAMPLE, A, ATL_SCATTER_DSM},
    {U32, 1, 1u << 22, 1u << 20, SK_UNIFORM, 4, SAMPLE, A, ATL_SCATTER_ATOMIC},
    {U32, 1, 1u << 22, 1u << 24, SK_UNIFORM, 4, SAMPLE, A, ATL_SCATTER_SWEEP}, /* 64 MiB of counters: the sweep */
    {U32, 1, 1u << 22, 1u << 20, SK_ZIPF, 4, SAMPLE, A, ATL_SCATTER_BINS},
    {F32, 64, 1u << 20, 1u << 18, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_BLOCK, A},
    {F32, 64, 1u << 20, 1u << 18, SK_UNIFORM, 4, SAMPLE, ATL_SCATTER_ATOMIC, A},
    {U32, 1, 1u << 22, 1u << 20, SK_ZIPF, 4, SAMPLE, ATL_SCATTER_DSM, A},
    {U32, 1, 1u << 22, 1u << 20, SK_HOT, 4, SAMPLE, ATL_SCATTER_DSM, A},
    {F32, 64, 1u << 20, 1u << 18, SK_UNIFORM, 4, SAMPLE, ATL_SCATTER_BUCKET, A},
    {F32, 64, 1u << 20, 1u << 18, SK_ZIPF, 8, SAMPLE, ATL_SCATTER_BUCKET, A},
    {I32, 33, 1u << 20, 1u << 24, SK_UNIFORM, 4, SAMPLE, ATL_SCATTER_BUCKET, A}, /* 131072 buckets */
};

/* One case: keys and rows written, the method asked, out zeroed, atl_scatter_add, out read back and checked. */
static void run_case(atl_context_t ctx, const struct lib_case *c, int check_pick)
{
  const int integer = c->type != F32;
  const uint64_t n = c->rows * c->dim, m = c->targets * c->dim;
  uint32_t *k = malloc(c->rows * sizeof *k);
  uint64_t *k64 = malloc(c->rows * sizeof *k64);
  void *src = malloc(n * 4), *out = calloc(m, 4);
  atl_buffer_t b_src = NULL, b_idx = NULL, b_out = NULL;
  if (!CHECK(k && k64 && src && out && sk_keys(c->dist, c->rows, c->targets, k) == 0))
    goto done;
  for (uint64_t i = 0; i < c->rows; i++)
    k64[i] = k[i];
  sk_src(integer, n, src);
  const struct atl_scatter_desc d = {.type = c->type, .index_bytes = c->index_bytes, .rows = c->rows,
                                     .targets = c->targets, .dim = c->dim, .keys = c->keys, .method = c->method};
  enum atl_scatter_method picked = A;
  double ms = -1;
  if (!CHECK(atl_buffer_new(ctx, n * 4, &b_src) == 0 && atl_buffer_new(ctx, c->rows * c->index_bytes, &b_idx) == 0 &&
             atl_buffer_new(ctx, m * 4, &b_out) == 0 && atl_buffer_write(ctx, b_src, src, n * 4) == 0 &&
             atl_buffer_write(ctx, b_idx, c->index_bytes == 8 ? (void *)k64 : (void *)k,
                              c->rows * c->index_bytes) == 0 &&
             atl_buffer_write(ctx, b_out, out, m * 4) == 0 && atl_scatter_method_for(ctx, &d, b_idx, &picked) == 0)) {
    fprintf(stderr, "    %s\n", atl_errmsg(ctx));
    goto done;
  }
  const enum atl_scatter_method want = c->method != A ? c->method : c->want;
  if (check_pick && !CHECK(picked == want))
    fprintf(stderr, "    %s dim %u %s: picked %s, the rule says %s\n", integer ? "int" : "f32", c->dim,
            sk_dist_names[c->dist], atl_scatter_method_name(picked), atl_scatter_method_name(want));
  if (!CHECK(atl_scatter_add(ctx, &d, b_out, b_src, b_idx, &ms) == 0 && atl_buffer_read(ctx, b_out, out, m * 4) == 0)) {
    fprintf(stderr, "    %s\n", atl_errmsg(ctx));
    goto done;
  }
  uint64_t first = 0;
  const uint64_t wrong = sk_wrong(integer, k, src, c->rows, c->targets, c->dim, out, &first);
  printf("%-5s dim %-3u %-9s %s keys, %llu rows -> %llu: %-6s %.3f ms, %llu wrong\n", integer ? "int" : "f32",
         c->dim, sk_dist_names[c->dist], c->index_bytes == 8 ? "i64" : "u32", (unsigned long long)c->rows,
         (unsigned long long)c->targets, atl_scatter_method_name(picked), ms, (unsigned long long)wrong);
  if (!CHECK(wrong == 0))
    fprintf(stderr, "    %s %s: %llu elements wrong, first %llu\n", sk_dist_names[c->dist],
            atl_scatter_method_name(picked), (unsigned long long)wrong, (unsigned long long)first);
  CHECK(ms >= 0);
done:
  atl_buffer_free(ctx, b_src), atl_buffer_free(ctx, b_idx), atl_buffer_free(ctx, b_out);
  free(k), free(k64), free(src), free(out);
}

/* Refusals: a method or hint out of range, keys past their buffer, dsm for floats or dim > 1, bins for dim > 1:
 * one line each naming the field, nothing run. */
static void bad_input(atl_context_t ctx)
{
  atl_buffer_t b = NULL, src = NULL, out = NULL; /* out its own: an out aliasing src or the keys is refused */
  if (!CHECK(atl_buffer_new(ctx, 4096, &b) == 0 && atl_buffer_new(ctx, 4096, &src) == 0 &&
             atl_buffer_new(ctx, 4096, &out) == 0))
    return;
  struct atl_scatter_desc d = {.type = F32, .index_bytes = 4, .rows = 16, .targets = 16, .dim = 1, .method = 99};
  enum atl_scatter_method m;
  CHECK(atl_scatter_add(ctx, &d, b, b, b, NULL) == ATL_EINVAL && strstr(atl_errmsg(ctx), "method 99") != NULL);
  d.method = ATL_SCATTER_AUTO, d.keys = 7;
  CHECK(atl_scatter_method_for(ctx, &d, b, &m) == ATL_EINVAL && strstr(atl_errmsg(ctx), "keys 7") != NULL);
  d.keys = SAMPLE, d.rows = 2000; /* 8000 bytes of keys in a buffer of 4096: refused before any read */
  CHECK(atl_scatter_method_for(ctx, &d, b, &m) == ATL_EINVAL && strstr(atl_errmsg(ctx), "idx 4096") != NULL);
  d.rows = 16, d.deterministic = 1, d.method = 10; /* checked in the deterministic mode too */
  CHECK(atl_scatter_add(ctx, &d, b, b, b, NULL) == ATL_EINVAL && strstr(atl_errmsg(ctx), "method 10") != NULL);
  d.deterministic = 0, d.method = ATL_SCATTER_DSM;
  CHECK(atl_scatter_add(ctx, &d, out, src, b, NULL) == ATL_EINVAL && strstr(atl_errmsg(ctx), "dsm") != NULL);
  d.type = U32, d.dim = 4, d.method = ATL_SCATTER_BINS;
  CHECK(atl_scatter_add(ctx, &d, out, src, b, NULL) == ATL_EINVAL && strstr(atl_errmsg(ctx), "bins") != NULL);
  CHECK(strcmp(atl_scatter_method_name(ATL_SCATTER_PART1), "part1") == 0 &&
        strcmp(atl_scatter_method_name((enum atl_scatter_method)42), "?") == 0);
  atl_buffer_free(ctx, b), atl_buffer_free(ctx, src), atl_buffer_free(ctx, out);
}

/* The pick's shares are kept with the keys' buffer until the next write into it: a second pick on the same keys reads
 * nothing, and keys rewritten by atl_buffer_write or by an op's out (here zeros made into spread keys by a scatter)
 * are measured again, so the pick follows them. */
static void kept_shares(atl_context_t ctx)
{
  enum { R = 200000 };
  uint32_t *k = malloc(R * sizeof *k), *w = malloc(R * sizeof *w);
  atl_buffer_t keys = NULL, ids = NULL, vals = NULL;
  const struct atl_scatter_desc pick = {.type = F32, .index_bytes = 4, .rows = R, .targets = R / 2, .dim = 8};
  const struct atl_scatter_desc fill = {.type = U32, .index_bytes = 4, .rows = R, .targets = R, .dim = 1,
                                        .method = ATL_SCATTER_ATOMIC};
  enum atl_scatter_method m1 = A, m2 = A, m3 = A, m4 = A;
  if (!CHECK(k && w && atl_buffer_new(ctx, R * 4, &keys) == 0 && atl_buffer_new(ctx, R * 4, &ids) == 0 &&
             atl_buffer_new(ctx, R * 4, &vals) == 0 && sk_keys(SK_SORTED, R, R / 2, k) == 0))
    goto done;
  for (uint32_t i = 0; i < R; i++)
    w[i] = i * 7919u % (R / 2);
  CHECK(atl_buffer_write(ctx, keys, k, R * 4) == 0 && atl_scatter_method_for(ctx, &pick, keys, &m1) == 0 &&
        atl_scatter_method_for(ctx, &pick, keys, &m2) == 0 && m1 == ATL_SCATTER_RUN && m2 == m1);
  memset(k, 0, R * 4); /* every key 0: a hot row */
  CHECK(atl_buffer_write(ctx, keys, k, R * 4) == 0 && atl_scatter_method_for(ctx, &pick, keys, &m3) == 0 &&
        m3 == ATL_SCATTER_BLOCK);
  for (uint32_t i = 0; i < R; i++)
    k[i] = i;
  CHECK(atl_buffer_write(ctx, ids, k, R * 4) == 0 && atl_buffer_write(ctx, vals, w, R * 4) == 0 &&
        atl_scatter_add(ctx, &fill, keys, vals, ids, NULL) == 0 && atl_scatter_method_for(ctx, &pick, keys, &m4) == 0 &&
        m4 == ATL_SCATTER_ATOMIC);
  printf("kept shares: sorted %s, again %s, rewritten hot %s, scattered spread %s\n", atl_scatter_method_name(m1),
         atl_scatter_method_name(m2), atl_scatter_method_name(m3), atl_scatter_method_name(m4));
done:
  atl_buffer_free(ctx, keys), atl_buffer_free(ctx, ids), atl_buffer_free(ctx, vals);
  free(k), free(w);
}

static int cmp_u32(const void *a, const void *b)
{
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The host's count of the pick's sample (the kernel's strata and hash, src/kernels/scatter_shares.k.c): the pairs
 * whose keys are equal, and the pairs whose first key is counted ATL__SCATTER_SAMPLE_LEAST times or more. */
static int host_shares(const uint32_t *k, uint64_t rows, uint32_t w[2])
{
  const uint32_t pairs = ATL__SCATTER_SAMPLE_PAIRS;
  uint32_t *first = malloc(pairs * sizeof *first);
  if (first == NULL)
    return -1;
  w[0] = w[1] = 0;
  for (uint32_t j = 0; j < pairs; j++) {
    const uint64_t lo = (uint64_t)j * (rows - 1) / pairs, hi = (uint64_t)(j + 1) * (rows - 1) / pairs;
    uint32_t h = (j + 1u) * 0x9e3779b9u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    const uint64_t p = lo + (hi > lo ? h % (hi - lo) : 0);
    first[j] = k[p];
    w[0] += k[p + 1] == k[p];
  }
  qsort(first, pairs, sizeof *first, cmp_u32);
  for (uint32_t a = 0, b = 0; a < pairs; a = b) {
    while (b < pairs && first[b] == first[a])
      b++;
    w[1] += b - a >= ATL__SCATTER_SAMPLE_LEAST ? b - a : 0;
  }
  free(first);
  return 0;
}

/* The pick's count of a sample of the keys on the device is the host's count of the same sample, bit for bit, call
 * after call: each call counts into the table the call before zeroed, so a table left as it was would add an earlier
 * call's counts (zipf's head into the clustered keys' count here). */
static void sample_shares(atl_context_t ctx)
{
  enum { R = 300000 };
  static const enum sk_dist dists[] = {SK_ZIPF, SK_CLUSTERED, SK_UNIFORM};
  uint32_t *k = malloc(R * sizeof *k);
  atl_buffer_t keys = NULL;
  const struct atl_scatter_desc d = {.type = F32, .index_bytes = 4, .rows = R, .targets = R / 2, .dim = 8};
  if (!CHECK(k != NULL && atl_buffer_new(ctx, R * 4, &keys) == 0))
    goto done;
  for (size_t i = 0; i < sizeof dists / sizeof *dists; i++) {
    uint32_t want[2] = {0, 0}, got[2][2] = {{0, 0}, {0, 0}};
    if (!CHECK(sk_keys(dists[i], R, R / 2, k) == 0 && atl_buffer_write(ctx, keys, k, R * 4) == 0 &&
               host_shares(k, R, want) == 0))
      break;
    for (int call = 0; call < 2; call++)
      CHECK(atl__scatter_sample_shares(ctx, &d, keys, got[call]) == 0 && got[call][0] == want[0] &&
            got[call][1] == want[1]);
    /* each distribution has what it is here to count: zipf a head, clustered keys runs, uniform keys neither */
    CHECK(i == 0 ? want[1] > 0 : i == 1 ? want[0] > 0 : want[1] == 0 && want[0] < ATL__SCATTER_SAMPLE_PAIRS / 100);
    printf("sample shares, %s keys: equal pairs %u and %u, head pairs %u and %u; the host's count %u, %u\n",
           sk_dist_names[dists[i]], got[0][0], got[1][0], got[0][1], got[1][1], want[0], want[1]);
  }
done:
  atl_buffer_free(ctx, keys);
  free(k);
}

int main(int argc, char **argv)
{
  const int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  atl_context_t ctx = NULL;
  if (atl_context_new(&ctx))
    return 1;
  if (atl_device_open(ctx, NULL, gpu ? "cuda" : "opencl") != 0) {
    printf("no %s device: %s\n", gpu ? "CUDA" : "OpenCL", atl_errmsg(ctx));
    atl_context_free(ctx);
    return 77;
  }
  const struct atl_device_info *dev = atl_device_current(ctx);
  /* the CUDA picks are the H100's (sm_90: clusters for dsm, an L2 of 50 MiB); elsewhere only the sums count */
  const int check_pick =
      !gpu || (dev->has_vector_f32_red && dev->l2_cache >= (32u << 20) && dev->l2_cache <= (128u << 20));
  printf("%s: picks %s\n", dev->name,
         check_pick ? "checked" : "not checked (not an sm_90 with an L2 of 32 to 128 MiB)");
  const struct lib_case *cases = gpu ? cuda_cases : opencl_cases;
  const size_t count = gpu ? sizeof cuda_cases / sizeof *cuda_cases : sizeof opencl_cases / sizeof *opencl_cases;
  for (size_t i = 0; i < count; i++)
    run_case(ctx, &cases[i], check_pick);
  bad_input(ctx);
  sample_shares(ctx);
  if (!gpu)
    kept_shares(ctx);
  atl_context_free(ctx);
  return check_exit("scatter_lib");
}
