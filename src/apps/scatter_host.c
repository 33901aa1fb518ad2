/*
 * The scatter app's host work over threads (scatter_host.h). The sums walk each key's rows in ascending row
 * order, as a single pass over the rows would, so each element sees the same additions in the same order:
 * the bits do not depend on the thread count. The element ranges of the sums and of the det emulation are cut
 * by work (each element weighs its key's rows, plus one), so a hot key's columns spread over the threads.
 */
#include <math.h>
#include <pthread.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_internal.h"
#include "scatter_host.h"
#include "scatter_io.h"

#define HOST_THREADS_MAX 256u
#define HOST_THREADS_AUTO 32u /* past this the host loops are bound by memory, not cores */

unsigned atl__host_threads(void)
{
  const char *env = getenv("ATL_HOST_THREADS");
  char *end = NULL;
  const unsigned long want = env && *env ? strtoul(env, &end, 10) : 0;
  if (want >= 1 && want <= HOST_THREADS_MAX && end && *end == '\0')
    return (unsigned)want;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus < 1 ? 1 : cpus > (long)HOST_THREADS_AUTO ? HOST_THREADS_AUTO : (unsigned)cpus;
}

#define HUGE_PAGE ((size_t)2 << 20)

void *atl__host_alloc(size_t bytes)
{
  if (bytes < HUGE_PAGE)
    return malloc(bytes ? bytes : 1);
  void *p = NULL;
  if (posix_memalign(&p, HUGE_PAGE, (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE); /* advice only: without it the buffer works the same */
#endif
  return p;
}

struct host_job {
  void (*fn)(void *arg, unsigned t, uint64_t lo, uint64_t hi);
  void *arg;
  unsigned t;
  uint64_t lo, hi;
};

static void *host_job_run(void *arg)
{
  const struct host_job *j = arg;
  j->fn(j->arg, j->t, j->lo, j->hi);
  return NULL;
}

/* atl__host_for on @p T threads (1 to HOST_THREADS_MAX). */
static void host_for_on(unsigned T, uint64_t n, void (*fn)(void *arg, unsigned t, uint64_t lo, uint64_t hi), void *arg)
{
  if ((uint64_t)T > n)
    T = n ? (unsigned)n : 1;
  struct host_job jobs[HOST_THREADS_MAX];
  pthread_t tid[HOST_THREADS_MAX];
  int started[HOST_THREADS_MAX] = {0};
  for (unsigned t = 0; t < T; t++) {
    /* n t / T without overflow: n < 2^64 and T <= 256 */
    const uint64_t lo = n / T * t + n % T * t / T, hi = n / T * (t + 1) + n % T * (t + 1) / T;
    jobs[t] = (struct host_job){fn, arg, t, lo, hi};
    started[t] = t > 0 && pthread_create(&tid[t], NULL, host_job_run, &jobs[t]) == 0;
  }
  for (unsigned t = 0; t < T; t++)
    if (!started[t])
      host_job_run(&jobs[t]);
  for (unsigned t = 1; t < T; t++)
    if (started[t])
      pthread_join(tid[t], NULL);
}

void atl__host_for(uint64_t n, void (*fn)(void *arg, unsigned t, uint64_t lo, uint64_t hi), void *arg)
{
  host_for_on(atl__host_threads(), n, fn, arg);
}

struct src_job {
  int type, is_signed;
  uint64_t seed;
  void *src;
};

/* Elements [lo, hi) of the source, each from its index alone. One loop a type, and h >> 40 (24 bits) converted as a
 * signed integer: no branch per element, nor x86's slow unsigned 64-bit conversion. */
static void source_range(void *arg, unsigned t, uint64_t lo, uint64_t hi)
{
  const struct src_job *j = arg;
  const uint64_t seed = j->seed + 7;
  void *src = j->src;
  (void)t;
#define SRC_LOOP(STORE)                                                                                             \
  for (uint64_t i = lo; i < hi; i++) {                                                                             \
    const uint64_t h = atl__splitmix64(seed ^ (i * 0x9e3779b97f4a7c15ull));                                        \
    STORE;                                                                                                          \
  }
#define SRC_FLOAT ((float)((h & 1 ? -1.0 : 1.0) * (0.5 + (double)(int32_t)(h >> 40) * 0x1p-25)))
  if (j->type == ATL__HOST_F32)
    SRC_LOOP(((float *)src)[i] = SRC_FLOAT)
  else if (j->type == ATL__HOST_BF16)
    SRC_LOOP(((uint16_t *)src)[i] = atl__to_bf16(SRC_FLOAT))
  else if (j->type == ATL__HOST_F16)
    SRC_LOOP(((uint16_t *)src)[i] = atl__to_f16(SRC_FLOAT))
  else if (j->is_signed)
    SRC_LOOP(((int32_t *)src)[i] = (int32_t)(h % 16 + 1) * (h >> 63 ? -1 : 1))
  else
    SRC_LOOP(((uint32_t *)src)[i] = (uint32_t)(h % 16) + 1)
#undef SRC_FLOAT
#undef SRC_LOOP
}

void atl__scatter_source(int type, int is_signed, uint64_t seed, uint64_t n, void *src)
{
  atl__host_for(n, source_range, &(struct src_job){type, is_signed, seed, src});
}

static double float_at(int type, const void *buf, uint64_t e)
{
  if (type == ATL__HOST_F32)
    return ((const float *)buf)[e];
  return atl__from_16(type == ATL__HOST_BF16, ((const uint16_t *)buf)[e]);
}

/* The first element of the work range that starts at weight @p w: element k D + c weighs depth[k] + 1, so key
 * k's elements start at weight (place[k] + k) D. */
static uint64_t element_at(const struct atl__scatter_host *h, const uint64_t *place, uint64_t w)
{
  const uint64_t D = h->dim;
  if (w >= (h->rows + h->targets) * D)
    return h->targets * D;
  uint64_t lo = 0, hi = h->targets - 1; /* the last key whose elements start at or before w */
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if ((place[mid] + mid) * D <= w)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo * D + (w - (place[lo] + lo) * D) / (place[lo + 1] - place[lo] + 1);
}

struct sums_job {
  const struct atl__scatter_host *h;
  const struct atl__scatter_expected *x;
  uint64_t tile;   /* the det emulation's cut */
  const void *got; /* the det emulation's output */
  uint64_t wrong[HOST_THREADS_MAX];
};

/* The elements [e0, e1) as key ranges: fn(job, t, k, c0, c1) for each key's columns [c0, c1). */
static void for_keys(struct sums_job *j, unsigned t, uint64_t w0, uint64_t w1,
                     void (*fn)(struct sums_job *j, unsigned t, uint64_t k, uint32_t c0, uint32_t c1))
{
  const uint64_t D = j->h->dim, e0 = element_at(j->h, j->x->place, w0), e1 = element_at(j->h, j->x->place, w1);
  for (uint64_t e = e0; e < e1;) {
    const uint64_t k = e / D, c1 = (k + 1) * D <= e1 ? D : e1 - k * D;
    fn(j, t, k, (uint32_t)(e - k * D), (uint32_t)c1);
    e = k * D + c1;
  }
}

/* Bytes of one value of @p type: 2 for bf16 and f16, else 4. */
static size_t elem_size(int type) { return type == ATL__HOST_BF16 || type == ATL__HOST_F16 ? 2 : 4; }

/* The rows in key order are scattered over the source, so each is a cache and TLB miss: the row PREFETCH_AHEAD
 * places on is asked for early (its columns [c0, c1), a cache line at a time) so that the misses overlap. The
 * place may belong to the next key: order has E entries, so only the end is guarded. */
#define PREFETCH_AHEAD 8u
static inline void prefetch_row(const struct atl__scatter_host *h, const struct atl__scatter_expected *x, uint64_t at,
                                uint32_t c0, uint32_t c1)
{
  if (at >= h->rows)
    return;
  const size_t es = elem_size(h->type);
  const char *row = (const char *)h->src + ((uint64_t)x->order[at] * h->dim + c0) * es;
  for (size_t b = 0; b < (c1 - c0) * es; b += 64)
    __builtin_prefetch(row + b);
}

/* The det variant's order for one element: a piece summed from zero in f32 up to each multiple of the tile of the
 * sorted places, the pieces of a group of ATL__SCATTER_HOST_DET_GROUP tiles added in order from zero, the groups'
 * sums added in order (0 + x is x: no piece is -0, a sum of non-zero values that cancels is +0), the sum rounded
 * once to 16 bits for bf16 and f16. @p cut (det_cut) says which ends after this place: 1 a tile, 2 a group too. */
#define DET_ADD(c, value)                                                                                           \
  do {                                                                                                             \
    piece[c] += (value);                                                                                           \
    if (cut)                                                                                                       \
      mid[c] += piece[c], piece[c] = 0;                                                                            \
    if (cut > 1)                                                                                                   \
      acc[c] += mid[c], mid[c] = 0;                                                                                \
  } while (0)

/* What ends after sorted place @p at in the det order cut at @p tile (0: none): 0, 1 (a tile) or 2 (its group). */
static int det_cut(uint64_t at, uint64_t tile)
{
  const uint64_t group = tile <= UINT64_MAX / ATL__SCATTER_HOST_DET_GROUP ? tile * ATL__SCATTER_HOST_DET_GROUP : 0;
  return !tile || (at + 1) % tile ? 0 : group && (at + 1) % group == 0 ? 2 : 1;
}

/* The det order's sum @p want as the type stores it (f32, or rounded once to bf16 or f16), element @p e of @p to. */
static void det_put(int type, void *to, uint64_t e, float want)
{
  if (type == ATL__HOST_F32)
    ((float *)to)[e] = want;
  else
    ((uint16_t *)to)[e] = type == ATL__HOST_BF16 ? atl__to_bf16(want) : atl__to_f16(want);
}

/* Key k's columns [c0, c1) of the det order's result into x->det. */
static void det_store(const struct atl__scatter_host *h, const struct atl__scatter_expected *x, uint64_t k,
                      uint32_t c0, uint32_t c1, const float *acc, const float *mid, const float *piece)
{
  for (uint32_t c = 0; c < c1 - c0; c++)
    det_put(h->type, x->det, k * h->dim + c0 + c, acc[c] + (mid[c] + piece[c]));
}

/* Key k's columns [c0, c1): its rows added in ascending row order into registers from zero, then stored (the
 * same additions in the same order as a pass over the rows into zeroed sums); with x->det, the det variant's
 * order over the same rows as they pass. */
static void sum_key(struct sums_job *j, unsigned t, uint64_t k, uint32_t c0, uint32_t c1)
{
  const struct atl__scatter_host *h = j->h;
  const struct atl__scatter_expected *x = j->x;
  const uint64_t D = h->dim, n = c1 - c0, tile = x->det ? x->det_tile : 0;
  double sum[512], mag[512]; /* the app's dims go to 512 */
  uint64_t isum[512];
  float acc[512], mid[512], piece[512];
  (void)t;
  for (uint64_t c = 0; c < n; c++)
    sum[c] = 0, mag[c] = 0, isum[c] = 0, acc[c] = 0, mid[c] = 0, piece[c] = 0;
  for (uint64_t at = x->place[k]; at < x->place[k + 1]; at++) {
    const uint64_t row = x->order[at] * D + c0;
    const int cut = det_cut(at, tile); /* a tile (and its group) of the det order ends after this place */
    prefetch_row(h, x, at + PREFETCH_AHEAD, c0, c1);
    if (h->type == ATL__HOST_F32) {
      const float *v = (const float *)h->src + row;
      for (uint64_t c = 0; c < n; c++)
        sum[c] += v[c], mag[c] += fabs((double)v[c]);
      for (uint64_t c = 0; tile && c < n; c++)
        DET_ADD(c, v[c]);
    } else if (h->type == ATL__HOST_INT) {
      const uint32_t *v = (const uint32_t *)h->src + row;
      for (uint64_t c = 0; c < n; c++)
        isum[c] += v[c]; /* i32 too: sums mod 2^32 */
    } else
      for (uint64_t c = 0; c < n; c++) {
        const double v = float_at(h->type, h->src, row + c);
        sum[c] += v, mag[c] += fabs(v);
        if (tile)
          DET_ADD(c, (float)v);
      }
  }
  if (h->type == ATL__HOST_INT)
    memcpy(x->isum + k * D + c0, isum, n * sizeof *isum);
  else {
    memcpy(x->sum + k * D + c0, sum, n * sizeof *sum);
    memcpy(x->mag + k * D + c0, mag, n * sizeof *mag);
    if (tile)
      det_store(h, x, k, c0, c1, acc, mid, piece);
  }
}

static void sums_range(void *arg, unsigned t, uint64_t w0, uint64_t w1) { for_keys(arg, t, w0, w1, sum_key); }

int atl__scatter_expect(const struct atl__scatter_host *h, struct atl__scatter_expected *x)
{
  const uint64_t E = h->rows, V = h->targets, D = h->dim;
  const int ints = h->type == ATL__HOST_INT;
  /* kept from a previous call of the same shape: every element of them is written below */
  x->depth = x->depth ? x->depth : atl__host_alloc(V * sizeof *x->depth);
  x->place = x->place ? x->place : atl__host_alloc((V + 1) * sizeof *x->place);
  x->order = x->order ? x->order : atl__host_alloc(E * sizeof *x->order);
  if (!ints) {
    x->sum = x->sum ? x->sum : atl__host_alloc(V * D * sizeof *x->sum);
    x->mag = x->mag ? x->mag : atl__host_alloc(V * D * sizeof *x->mag);
  } else
    x->isum = x->isum ? x->isum : atl__host_alloc(V * D * sizeof *x->isum);
  const size_t es = elem_size(h->type);
  if (ints || D > 512)
    x->det_tile = 0;
  x->det = x->det || !x->det_tile ? x->det : atl__host_alloc(V * D * es);
  if (!x->depth || !x->place || !x->order || (!ints ? !x->sum || !x->mag : !x->isum) || (x->det_tile && !x->det))
    return ATL_ENOMEM;
  memset(x->depth, 0, V * sizeof *x->depth);
  x->place[0] = 0;
  for (uint64_t i = 0; i < E; i++)
    x->depth[h->idx[i]]++;
  x->touched = 0;
  for (uint64_t k = 0; k < V; k++) /* each key's first place: an exclusive scan of the depths */
    x->place[k + 1] = x->place[k] + x->depth[k], x->touched += x->depth[k] > 0;
  for (uint64_t i = 0; i < E; i++) /* the rows in key order, each key's ascending: place[k] ends as place[k + 1] */
    x->order[x->place[h->idx[i]]++] = (uint32_t)i;
  for (uint64_t k = V; k > 0; k--)
    x->place[k] = x->place[k - 1];
  x->place[0] = 0;
  struct sums_job *j = malloc(sizeof *j);
  if (j == NULL)
    return ATL_ENOMEM;
  *j = (struct sums_job){.h = h, .x = x};
  atl__host_for((E + V) * D, sums_range, j);
  free(j);
  return 0;
}

void atl__scatter_expected_free(struct atl__scatter_expected *x)
{
  free(x->sum);
  free(x->mag);
  free(x->isum);
  free(x->depth);
  free(x->place);
  free(x->order);
  free(x->det);
  memset(x, 0, sizeof *x);
}

struct check_job {
  const struct atl__scatter_host *h;
  const void *got;
  const struct atl__scatter_expected *x;
  int counts;
  double u; /* the unit of the bound */
  uint64_t wrong[HOST_THREADS_MAX], first[HOST_THREADS_MAX];
};

/* g(n) of key @p k's elements: their error is at most g(n) times their sum of magnitudes. */
static double gamma_of(const struct check_job *j, uint64_t k)
{
  const double n = (double)j->x->depth[k] - (j->h->type == ATL__HOST_F32), u = j->u;
  return n <= 0 ? 0 : n * u < 1 ? n * u / (1 - n * u) : INFINITY;
}

static double bound(const struct check_job *j, uint64_t e) { return gamma_of(j, e / j->h->dim) * j->x->mag[e]; }

static int element_bad(const struct check_job *j, uint64_t e)
{
  if (j->h->type != ATL__HOST_INT) {
    const double v = float_at(j->h->type, j->got, e);
    return !isfinite(v) || !(fabs(v - j->x->sum[e]) <= bound(j, e));
  }
  const uint32_t want = j->counts ? j->x->depth[e] : (uint32_t)j->x->isum[e];
  return ((const uint32_t *)j->got)[e] != want;
}

static void check_range(void *arg, unsigned t, uint64_t lo, uint64_t hi)
{
  struct check_job *j = arg;
  const uint64_t D = j->h->dim;
  uint64_t wrong = 0, first = UINT64_MAX;
  if (j->h->type == ATL__HOST_F32) /* the common case, its bound once a key */
    for (uint64_t e = lo; e < hi;) {
      const uint64_t k = e / D, end = (k + 1) * D < hi ? (k + 1) * D : hi;
      const double g = gamma_of(j, k), *sum = j->x->sum, *mag = j->x->mag;
      for (; e < end; e++) {
        const double v = ((const float *)j->got)[e];
        if (!isfinite(v) || !(fabs(v - sum[e]) <= g * mag[e]))
          first = wrong++ ? first : e;
      }
    }
  else
    for (uint64_t e = lo; e < hi; e++)
      if (element_bad(j, e))
        first = wrong++ ? first : e;
  j->wrong[t] = wrong, j->first[t] = first;
}

static double hash53_on(unsigned threads, const void *data, size_t n);

struct hash_job {
  const void *data;
  size_t n;
  unsigned threads;
  double hash;
};

static void *hash_run(void *arg)
{
  struct hash_job *j = arg;
  j->hash = hash53_on(j->threads, j->data, j->n);
  return NULL;
}

uint64_t atl__scatter_check(const struct atl__scatter_host *h, const void *got, const struct atl__scatter_expected *x,
                            int counts, char *first, size_t len, double *hash)
{
  const uint64_t V = h->targets, D = h->dim;
  /* f32: n - 1 additions, each rounded once to f32. 16-bit: at most n roundings (n - 1 additions and the
   * final store), each of them at most two roundings to 16 bits (a partial sum rounded to 16 bits for the
   * native reduction, then its result) and one to f32: unit 2 u16 + 2 u32 covers their products. Where
   * n u >= 1 the bound says nothing (g infinite): only a finite value is asked. */
  const double u32 = 0x1p-24, u16 = h->type == ATL__HOST_BF16 ? 0x1p-8 : 0x1p-11;
  struct check_job *j = calloc(1, sizeof *j);
  struct hash_job hj = {got, (size_t)(V * D * elem_size(h->type)), 0, 0};
  const unsigned threads = atl__host_threads();
  unsigned check_threads = threads;
  /* The hash runs beside the check, so the two share the host's threads rather than each taking all of them and
   * together running twice as many threads as there are cores. */
  atl__host_split(threads, hj.n, &check_threads, &hj.threads);
  pthread_t tid;
  const int hashing = hj.threads > 0 && pthread_create(&tid, NULL, hash_run, &hj) == 0;
  if (!hashing) /* the hash after the check, each on all the threads */
    check_threads = hj.threads = threads;
  uint64_t wrong = 0, e = UINT64_MAX;
  if (j != NULL) {
    *j = (struct check_job){h, got, x, counts, h->type == ATL__HOST_F32 ? u32 : 2 * u16 + 2 * u32, {0}, {0}};
    host_for_on(check_threads, V * D, check_range, j);
    for (unsigned t = 0; t < HOST_THREADS_MAX; t++)
      if (j->wrong[t])
        wrong += j->wrong[t], e = e < j->first[t] ? e : j->first[t];
  } else /* no memory for the job: every element counts as wrong */
    wrong = V * D, snprintf(first, len, "no host memory to check the output");
  if (e != UINT64_MAX && h->type != ATL__HOST_INT)
    snprintf(first, len, "out[%llu][%llu] = %.9g, expected %.9g within %.3g (%u rows)", (unsigned long long)(e / D),
             (unsigned long long)(e % D), float_at(h->type, got, e), x->sum[e], bound(j, e), x->depth[e / D]);
  else if (e != UINT64_MAX)
    snprintf(first, len, "out[%llu][%llu] = %u, expected %u", (unsigned long long)(e / D),
             (unsigned long long)(e % D), ((const uint32_t *)got)[e],
             counts ? x->depth[e] : (uint32_t)x->isum[e]);
  if (hashing)
    pthread_join(tid, NULL);
  else
    hash_run(&hj);
  *hash = hj.hash;
  free(j);
  return wrong;
}

/* Key k's columns [c0, c1) in the det variant's order (DET_ADD and det_put, as sum_key computes it into x->det)
 * against @p got's bits. */
static void det_key(struct sums_job *j, unsigned t, uint64_t k, uint32_t c0, uint32_t c1)
{
  const struct atl__scatter_host *h = j->h;
  const uint64_t D = h->dim, *place = j->x->place;
  const size_t es = elem_size(h->type);
  float acc[512], mid[512], piece[512]; /* the app's dims go to 512 */
  for (uint32_t c = 0; c < c1 - c0; c++)
    acc[c] = 0, mid[c] = 0, piece[c] = 0;
  for (uint64_t at = place[k]; at < place[k + 1]; at++) {
    const uint64_t i = j->x->order[at];
    prefetch_row(h, j->x, at + PREFETCH_AHEAD, c0, c1);
    const int cut = det_cut(at, j->tile); /* a tile (and its group) ends after this place */
    for (uint32_t c = 0; c < c1 - c0; c++)
      DET_ADD(c, (float)float_at(h->type, h->src, i * D + c0 + c));
  }
  uint64_t wrong = 0;
  for (uint32_t c = 0; c < c1 - c0; c++) {
    float want[1]; /* room for one value of any float type */
    det_put(h->type, want, 0, acc[c] + (mid[c] + piece[c]));
    wrong += memcmp(want, (const unsigned char *)j->got + (k * D + c0 + c) * es, es) != 0;
  }
  j->wrong[t] += wrong;
}

static void det_compare_range(void *arg, unsigned t, uint64_t lo, uint64_t hi)
{
  struct sums_job *j = arg;
  const size_t es = elem_size(j->h->type);
  const unsigned char *want = j->x->det, *got = j->got;
  uint64_t wrong = 0;
  for (uint64_t e = lo; e < hi; e++)
    wrong += memcmp(want + e * es, got + e * es, es) != 0;
  j->wrong[t] += wrong;
}

static void det_range(void *arg, unsigned t, uint64_t w0, uint64_t w1) { for_keys(arg, t, w0, w1, det_key); }

int64_t atl__scatter_det_mismatches(const struct atl__scatter_host *h, const struct atl__scatter_expected *x,
                                    uint64_t tile, const void *got)
{
  struct sums_job *j = calloc(1, sizeof *j);
  int64_t wrong = 0;
  if (j == NULL || h->dim > 512)
    return free(j), -1;
  *j = (struct sums_job){.h = h, .x = x, .tile = tile, .got = got};
  if (x->det && x->det_tile == tile) /* the order's bits from the expectation's pass */
    atl__host_for(h->targets * h->dim, det_compare_range, j);
  else
    atl__host_for((h->rows + h->targets) * h->dim, det_range, j);
  for (unsigned t = 0; t < HOST_THREADS_MAX; t++)
    wrong += (int64_t)j->wrong[t];
  free(j);
  return wrong;
}

#define FNV_BASIS 0xcbf29ce484222325ull
#define HASH_BLOCK ((size_t)1 << 20)

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

struct blocks_job {
  const unsigned char *data;
  size_t n;
  uint64_t *h;
};

static uint64_t block_hash(const unsigned char *data, size_t n, size_t b)
{
  const size_t at = b * HASH_BLOCK;
  return fnv1a(data + at, n - at < HASH_BLOCK ? n - at : HASH_BLOCK, FNV_BASIS);
}

static void blocks_range(void *arg, unsigned t, uint64_t lo, uint64_t hi)
{
  const struct blocks_job *j = arg;
  (void)t;
  for (uint64_t b = lo; b < hi; b++)
    j->h[b] = block_hash(j->data, j->n, (size_t)b);
}

/* Up to 1 MiB, FNV-1a of the bytes; past it, FNV-1a of the 1 MiB blocks' FNV-1a values (8 bytes each, least
 * significant first), so that the blocks hash on the host's threads: one thread hashed 16 GiB of output (V 16M,
 * D 256) in about 21 s, longer than the threaded check. Cut to 53 bits, so that a double holds it exactly. */
static uint64_t fold(uint64_t h, uint64_t v)
{
  for (unsigned k = 0; k < 8; k++)
    h = (h ^ ((v >> (8 * k)) & 0xff)) * 0x100000001b3ull;
  return h;
}

void atl__host_split(unsigned threads, size_t hash_bytes, unsigned *check, unsigned *hash)
{
  const size_t blocks = hash_bytes <= HASH_BLOCK ? 1 : (hash_bytes + HASH_BLOCK - 1) / HASH_BLOCK;
  const unsigned half = threads / 2;
  *hash = threads < 2 ? 0 : blocks < half ? (unsigned)blocks : half;
  *check = threads - *hash;
}

static double hash53_on(unsigned threads, const void *data, size_t n)
{
  if (n <= HASH_BLOCK)
    return (double)(fnv1a(data, n, FNV_BASIS) >> 11);
  const size_t blocks = (n + HASH_BLOCK - 1) / HASH_BLOCK;
  uint64_t h = FNV_BASIS;
  struct blocks_job j = {data, n, malloc(blocks * sizeof *j.h)};
  if (j.h != NULL)
    host_for_on(threads, blocks, blocks_range, &j);
  for (size_t b = 0; b < blocks; b++) /* without memory for the blocks' values: the same hash, one after another */
    h = fold(h, j.h ? j.h[b] : block_hash(data, n, b));
  free(j.h);
  return (double)(h >> 11);
}

double atl__bytes_hash53(const void *data, size_t n)
{
  return hash53_on(atl__host_threads(), data, n);
}
