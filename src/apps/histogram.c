/*
 * Issue [histogram]: histograms of 8-bit keys (256 bins), RGBA pixels
 * (4 x 256 bins) and 32-bit keys (bin = key % bins) over solid, uniform,
 * skewed and photo inputs, with one global atomic per key, per-block and
 * per-warp privatized histograms, match-any aggregation, 16-bit packed
 * counters, per-lane columns of 32-bit counters (per-lane; byte-lanes for
 * 8-bit keys and RGBA pixels, one byte permute per key), per-block
 * 16-bit counters in opt-in local memory (block16), the variant chosen by
 * input (auto) and (CUDA) CUB's DeviceHistogram, against the read bandwidth of the same
 * bytes in the same run. Every histogram is checked bin for bin against the
 * host's (docs/design/histogram.md).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "histogram_launch.h"
#include "yardsticks.h"

/* Its registry entry, at the end of this file: the run checks its params with the entry's check. */
extern const struct atl_app_info atl__app_histogram;

const char *const atl_hist_input_names[ATL_HIST_INPUT_COUNT] = {"u8", "rgba", "u32"};
const char *const atl_hist_dist_names[ATL_HIST_DIST_COUNT] = {"solid", "uniform", "skewed", "photo"};
const char *const atl_hist_variant_names[ATL_HIST_VARIANT_COUNT] = {
    "read-ceiling", "global",     "shared",  "warp-private", "match-any", "packed",
    "per-lane",     "byte-lanes", "block16", "auto",         "cub"};

struct hist_run {
  atl_context_t ctx;
  const struct atl_histogram_params *p;
  const struct atl_app_timing *tm;
  enum atl_hist_input input;
  enum atl_hist_dist dist;
  uint32_t bins;
  void *in, *hist, *scratch; /* scratch: where the vendor's copy yardstick writes */
  uint32_t *want, *got;
  uint32_t want_xor;
  struct atl__yardsticks yard; /* the vendor copy's and the read kernel's bandwidths for this input */
  struct atl__photo photo; /* decoded once per call where the photo distribution runs */
  struct atl__app_buffers *bufs;
  const uint8_t *host; /* the input's bytes on the host (the yardsticks check against them) */
};

/* The hot keys of the skewed inputs: about 90% of the keys are one of these four. */
static const uint8_t hot8[4] = {0x00, 0x3f, 0x80, 0xc1};
static const uint32_t hot32[4] = {0x00000007u, 0x12345678u, 0x9abcdef0u, 0xdeadbeefu};

/* A 16-bit draw to an 8-bit key: hot with probability 922/1024 (90.04%). */
static uint8_t skewed8(uint32_t u)
{
  return (u & 0x3ffu) < 922 ? hot8[(u >> 10) & 3] : (uint8_t)(u >> 8);
}

static uint64_t draw(uint64_t seed, uint64_t i)
{
  return atl__splitmix64(seed ^ (i * 0x2545f4914f6cdd1dull));
}

/*
 * The photo distribution: rgba and u32 take the pixels as they are (R, G, B,
 * A = 0xff; a u32 key is one packed pixel, so its bin is the low bits: R and
 * the low bits of G); u8 takes the R, G and B planes one after another, each
 * an 8-bit single-channel photograph whose neighbouring keys are as
 * correlated as in a grey image. Inputs larger than the photo repeat it.
 * Planes rather than luma keep the repeat period (3 bytes per pixel, 61 MB
 * for the default photo) above a 50 MiB L2, so a repeated input still
 * streams from memory.
 */
static void photo_input(enum atl_hist_input in, const struct atl__photo *ph, uint8_t *buf, size_t bytes)
{
  const size_t pixels = (size_t)ph->width * ph->height;
  size_t period = in == ATL_HIST_U8 ? 3 * pixels : 4 * pixels;
  if (period > bytes)
    period = bytes;
  if (in == ATL_HIST_U8)
    for (size_t c = 0, i = 0; c < 3; c++)
      for (size_t px = 0; px < pixels && i < period; px++)
        buf[i++] = ph->rgba[px * 4 + c];
  else
    memcpy(buf, ph->rgba, period);
  for (size_t off = period; off < bytes; off += period)
    memcpy(buf + off, buf, bytes - off < period ? bytes - off : period);
}

/* The input bytes of one input and distribution (little-endian words on host and device). */
static void make_input(enum atl_hist_input in, enum atl_hist_dist dist, uint64_t seed, uint8_t *buf, size_t bytes)
{
  static const uint8_t colour[4] = {0x25, 0xc9, 0x5a, 0xff}; /* the solid image of seed 002 */
  if (in == ATL_HIST_U32) {
    uint32_t *w = (uint32_t *)buf;
    for (size_t i = 0; i < bytes / 4; i++) {
      uint64_t r = dist == ATL_HIST_SOLID ? 0 : draw(seed, i);
      w[i] = dist == ATL_HIST_SOLID      ? 0x9e3779b9u
             : dist == ATL_HIST_UNIFORM ? (uint32_t)(r >> 32)
             : (r & 0x3ffu) < 922       ? hot32[(r >> 10) & 3]
                                        : (uint32_t)(r >> 32);
    }
    return;
  }
  for (size_t i = 0; i < bytes; i += 8) {
    uint64_t r = dist == ATL_HIST_SOLID ? 0 : draw(seed, i / 8);
    uint64_t r2 = dist == ATL_HIST_SKEWED ? atl__splitmix64(r) : 0;
    for (size_t k = 0; k < 8; k++) {
      uint8_t v;
      if (dist == ATL_HIST_SOLID)
        v = in == ATL_HIST_RGBA ? colour[k % 4] : 0x5a;
      else if (dist == ATL_HIST_UNIFORM)
        v = (uint8_t)(r >> (8 * k));
      else /* a 16-bit draw per key: four from r, four from r2 */
        v = skewed8((uint32_t)((k < 4 ? r : r2) >> (16 * (k % 4))) & 0xffffu);
      buf[i + k] = v;
    }
  }
}

/* The host's histogram and the xor of every 32-bit word (the read ceiling's check). */
static uint32_t host_histogram(enum atl_hist_input in, uint32_t bins, const uint8_t *buf, size_t bytes, uint32_t *h)
{
  uint32_t x = 0, w;
  memset(h, 0, bins * sizeof *h);
  for (size_t i = 0; i < bytes; i += 4) {
    memcpy(&w, buf + i, 4);
    x ^= w;
    if (in == ATL_HIST_U32) {
      h[w & (bins - 1)]++;
    } else {
      for (unsigned k = 0; k < 4; k++)
        h[(in == ATL_HIST_RGBA ? k * 256 : 0) + buf[i + k]]++;
    }
  }
  return x;
}

/* uint4 loads in flight per work-item in per-lane and block16. per-lane runs
 * 6 warps per SM, so each warp keeps 16 loads in flight (48 KiB per SM): with
 * 24 KiB (8 loads, or 4 at 12 warps) it read 2.1 TB/s on the H200 whatever
 * its atomics were, the bytes in flight over the memory latency. */
#define UNROLL 4
#define PER_LANE_UNROLL 6
/* per-lane's work-group: 32 columns of 256 32-bit counters are 32 KiB of
 * local memory, small enough for 6 work-groups per H100 or H200 SM. */
#define PER_LANE_WG 256u
/* byte-lanes' work-group and loads in flight: with u8's 64 KiB of columns an
 * H100 or H200 SM holds 2 work-groups of 1024 (64 warps, 32 registers, 4
 * loads each), which read 1.02x the read ceiling's bandwidth on the H200
 * where 3 of 512 with 6 loads (48 warps, 40 registers) read 0.98x; rgba's
 * 128 KiB leave one (32 warps), at memory speed with 4 loads as with 8
 * (results/nvidia-h200/histogram/design-runs/byte-lanes, byte-lanes-rgba).
 * Design runs build with other values:
 * cmake -DCMAKE_C_FLAGS="-DBYTE_LANES_WG=512u -DBYTE_LANES_UNROLL=6". */
#ifndef BYTE_LANES_WG
#define BYTE_LANES_WG 1024u
#endif
#ifndef BYTE_LANES_UNROLL
#define BYTE_LANES_UNROLL 4
#endif

/* block16's work-group: one per SM holds 65,536 bins, so it brings every thread it can. */
#define BLOCK16_WG 1024u

/* uint4 per work-item per iteration of a variant's loop. */
static unsigned variant_unroll(enum atl_hist_variant v)
{
  return v == ATL_HIST_PER_LANE     ? PER_LANE_UNROLL
         : v == ATL_HIST_BYTE_LANES ? BYTE_LANES_UNROLL
         : v == ATL_HIST_BLOCK16    ? UNROLL
                                    : 1;
}

/* The work-group size a variant runs at: --wg-size except where the design fixes it. */
static uint32_t variant_wg(const struct atl_device_info *d, enum atl_hist_variant v, uint32_t wg)
{
  uint32_t fixed = v == ATL_HIST_PER_LANE     ? PER_LANE_WG
                   : v == ATL_HIST_BYTE_LANES ? BYTE_LANES_WG
                   : v == ATL_HIST_BLOCK16    ? BLOCK16_WG
                                              : wg;
  while (fixed > d->max_wg_size && fixed > 1)
    fixed /= 2;
  return fixed;
}

/* 32-bit words of local memory a variant needs per work-group (0: none). */
static uint64_t local_words(enum atl_hist_variant v, uint32_t bins, uint32_t wg)
{
  switch (v) {
  case ATL_HIST_PER_LANE:
    return (uint64_t)bins * 32;
  case ATL_HIST_BYTE_LANES: /* u8: 64 columns of 256 bins (64 KiB); rgba: 32 columns of 1024 (128 KiB) */
    return (uint64_t)bins * (bins == 256 ? 64 : 32);
  case ATL_HIST_BLOCK16:
    return bins / 2;
  case ATL_HIST_SHARED:
  case ATL_HIST_MATCH_ANY:
    return bins;
  case ATL_HIST_WARP_PRIVATE:
    return (uint64_t)(wg / 32) * bins;
  case ATL_HIST_PACKED:
    return (uint64_t)(wg / 32) * (bins / 2) + bins;
  default:
    return 0;
  }
}

static void row_name(struct atl_row *row, const struct hist_run *r, enum atl_hist_variant v)
{
  char name[64];
  snprintf(name, sizeof name, "%s/%s/%s", atl_hist_input_names[r->input], atl_hist_dist_names[r->dist],
           atl_hist_variant_names[v]);
  atl__app_row_init(row, "histogram", name);
}

static void add_throughput(struct atl_row *row, const struct hist_run *r)
{
  atl_row_metric_set(row, "bins", r->bins);
  atl_row_metric_set(row, "bytes", (double)r->p->bytes);
  if (r->dist == ATL_HIST_PHOTO) {
    atl_row_metric_set(row, "photo_width", r->photo.width);
    atl_row_metric_set(row, "photo_height", r->photo.height);
    /* a note on every row: which photograph the bytes came from (after auto's choice, if any) */
    size_t len = strlen(row->reason);
    snprintf(row->reason + len, sizeof row->reason - len, "%sphoto %s (%ux%u)", len ? "; " : "", r->photo.name,
             r->photo.width, r->photo.height);
  }
  if (row->time_ms.median <= 0)
    return;
  atl_row_metric_set(row, "gbps", (double)r->p->bytes / (row->time_ms.median * 1e6));
  atl__app_yardstick_ratios(row, &r->yard, (double)r->p->bytes); /* the bins' few bytes are left out */
}

/* Compares the device's bins with the host's; sets verified and the first difference as the reason. */
static int check_bins(struct hist_run *r, void *buf, struct atl_row *row)
{
  int err = atl__ops(r->ctx)->read(atl__dev(r->ctx), buf, r->got, r->bins * sizeof(uint32_t));
  if (err)
    return err;
  row->status = ATL_STATUS_OK;
  row->verified = 1;
  for (uint32_t b = 0; b < r->bins; b++)
    if (r->got[b] != r->want[b]) {
      row->verified = 0;
      atl__app_row_status(row, ATL_STATUS_OK, "bin %u holds %u, the host counted %u", b, r->got[b], r->want[b]);
      break;
    }
  return 0;
}

static int reset_hist(atl_context_t ctx, void *arg)
{
  struct hist_run *r = arg;
  return atl__app_fill32(ctx, r->hist, 0, r->bins * sizeof(uint32_t));
}

static int finish_row(struct hist_run *r, struct atl_row *row, int err, struct atl_result_set *out)
{
  if (err && !(row->status == ATL_STATUS_OK && row->verified)) /* also auto's row, "ok" from its choice */
    atl__app_row_status(row, ATL_STATUS_ERROR, "%s", atl_errmsg(r->ctx));
  if (atl_result_set_add(out, row))
    return ATL_ENOMEM;
  return err == ATL_ENOMEM ? err : 0;
}

/* The input's two yardsticks (atl__app_yardsticks): rows INPUT/DIST/memcpy-ceiling and INPUT/DIST/read-ceiling. */
static int run_ceiling(struct hist_run *r, struct atl_result_set *out)
{
  char prefix[64];
  snprintf(prefix, sizeof prefix, "%s/%s", atl_hist_input_names[r->input], atl_hist_dist_names[r->dist]);
  return atl__app_yardsticks(&(struct atl__yardstick_call){r->ctx, r->bufs, "histogram", prefix, r->in, r->scratch,
                                                         r->host, r->p->bytes, r->p->wg_size, r->tm},
                             &r->yard, out);
}

/* Whether @p v's local memory is sized at launch, so it may use what a work-group can opt into. */
static int dynamic_local(enum atl_hist_variant v)
{
  return v == ATL_HIST_BYTE_LANES || v == ATL_HIST_BLOCK16;
}

/* Why @p v cannot run here, or NULL. */
static const char *unsupported(const struct hist_run *r, enum atl_hist_variant v, char *why, size_t len)
{
  const struct atl_device_info *d = atl_device_current(r->ctx);
  const int cuda = d->kernels_cuda_c; /* match-any exists in the CUDA C kernel only */
  const uint32_t wg = r->p->wg_size;
  if (v == ATL_HIST_MATCH_ANY && !cuda)
    return "match-any needs CUDA's __match_any_sync: OpenCL C has no equivalent";
  if ((v == ATL_HIST_WARP_PRIVATE || v == ATL_HIST_PACKED || v == ATL_HIST_MATCH_ANY) && wg % 32) {
    snprintf(why, len, "%s needs a work-group size that is a multiple of 32 (wg_size %u)",
             atl_hist_variant_names[v], wg);
    return why;
  }
  if (v == ATL_HIST_BYTE_LANES && r->input == ATL_HIST_U32)
    return "byte-lanes counts 8-bit keys and RGBA pixels only (input u8 or rgba): a key's byte is its address";
  const uint32_t vwg = variant_wg(d, v, wg);
  const uint64_t need = local_words(v, r->bins, vwg) * 4;
  const uint64_t have = dynamic_local(v) ? d->local_mem_optin : d->local_mem;
  if (need > have) {
    snprintf(why, len,
             "%s needs %llu bytes of local memory per work-group for %u bins at work-group size %u; the device "
             "has %llu",
             atl_hist_variant_names[v], (unsigned long long)need, r->bins, vwg, (unsigned long long)have);
    return why;
  }
  return NULL;
}

/*
 * The variant `auto` runs for an input (docs/design/histogram.md has the measurements
 * behind the rule): for 8-bit keys and RGBA pixels byte-lanes where a
 * work-group can have its 64 or 128 KiB, else per-lane columns wherever they
 * fit (up to 256 bins), else one
 * local histogram per work-group, else 16-bit counters in opt-in local
 * memory, else global atomics.
 */
enum atl_hist_variant atl_hist_auto_choice(const struct atl_device_info *d, enum atl_hist_input in, uint32_t bins,
                                           uint32_t wg)
{
  if (in != ATL_HIST_U32 && local_words(ATL_HIST_BYTE_LANES, bins, wg) * 4 <= d->local_mem_optin)
    return ATL_HIST_BYTE_LANES;
  if (local_words(ATL_HIST_PER_LANE, bins, variant_wg(d, ATL_HIST_PER_LANE, wg)) * 4 <= d->local_mem)
    return ATL_HIST_PER_LANE;
  if ((uint64_t)bins * 4 <= d->local_mem)
    return ATL_HIST_SHARED;
  if ((uint64_t)bins * 2 <= d->local_mem_optin)
    return ATL_HIST_BLOCK16;
  return ATL_HIST_GLOBAL;
}

/*
 * Work-groups of a variant with large local memory (per-lane, byte-lanes,
 * block16) that one compute unit holds by its local memory and threads.
 * CUDA reserves 1 KiB of shared memory per block (sm_80 on), and an SM has
 * about the opt-in maximum of one block plus that 1 KiB in all.
 */
static unsigned local_groups_per_cu(const struct atl_device_info *d, uint32_t bins, enum atl_hist_variant v,
                                    uint32_t wg)
{
  uint64_t per_cu = (d->local_mem_optin + 1024) / (local_words(v, bins, wg) * 4 + 1024);
  uint64_t by_threads = d->max_threads_per_cu ? d->max_threads_per_cu / wg : 1;
  if (per_cu > by_threads)
    per_cu = by_threads;
  return per_cu ? (unsigned)per_cu : 1;
}

/* Work-groups to launch over @p bytes: what the device holds resident, no more than the input fills. */
static size_t variant_groups(atl_context_t ctx, uint32_t bins, uint64_t bytes, enum atl_hist_variant v, void *kernel,
                             uint32_t wg)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  const struct atl_backend_ops *ops = atl__ops(ctx);
  const unsigned per_item = variant_unroll(v);
  size_t groups = atl__app_resident_threads(d, wg) / wg;
  unsigned est = 0;
  char method[160];
  if (v == ATL_HIST_PER_LANE && ops->occupancy_estimate &&
      ops->occupancy_estimate(atl__dev(ctx), kernel, wg, &est, method, sizeof method) == 0 && est > 0)
    groups = est; /* counts the 32 KiB of local memory (CUDA); OpenCL's estimate does not */
  if (dynamic_local(v))
    groups = (size_t)d->compute_units * local_groups_per_cu(d, bins, v, wg);
  const uint64_t n4 = bytes / 16, per_group = (uint64_t)wg * per_item;
  const size_t needed = (size_t)((n4 + per_group - 1) / per_group); /* no idle work-groups */
  return groups > needed ? needed : groups ? groups : 1;
}

int atl__hist_prepare(atl_context_t ctx, enum atl_hist_input input, uint32_t bins, enum atl_hist_variant v,
                      uint32_t wg_size, uint64_t bytes, void *in, void *hist, struct atl_row *row,
                      struct atl__hist_launch *h)
{
  const struct atl_device_info *d = atl_device_current(ctx);
  const uint32_t wg = variant_wg(d, v, wg_size);
  char defines[200], vname[32];
  /* Before a 16-bit counter can overflow: a group of 32 work-items adds at
   * most 32 x (keys per work-item per iteration) to one counter per iteration. */
  const unsigned keys_per_item = input == ATL_HIST_U8 ? 16 : 4;
  /* per-lane: one work-item adds at most PER_LANE_UNROLL x keys_per_item to its own 32-bit column
   * per iteration (inputs below 4 GiB never fill one: the flush at the end is the only one then) */
  const unsigned flush_every = v == ATL_HIST_PER_LANE   ? 0xffffffffu / (PER_LANE_UNROLL * keys_per_item)
                              : v == ATL_HIST_BYTE_LANES ? 0xffffffffu /* fewer than 2^32 keys: merged once */
                                                         : 65535u / (32u * keys_per_item);
  snprintf(vname, sizeof vname, "%s", atl_hist_variant_names[v]);
  for (char *c = vname; *c; c++)
    if (*c == '-')
      *c = '_';
  /* caps the registers so that the work-groups the local memory allows are resident together */
  const unsigned min_groups = v == ATL_HIST_PER_LANE || dynamic_local(v) ? local_groups_per_cu(d, bins, v, wg) : 1;
  snprintf(defines, sizeof defines, "INPUT_%s BINS=%u WG=%u VARIANT_%s FLUSH_EVERY=%u UNROLL=%u MIN_GROUPS=%u",
           atl_hist_input_names[input], bins, wg, vname, flush_every, variant_unroll(v), min_groups);
  h->kernel = NULL;
  int err = atl__app_build(ctx, "app_histogram", "histogram", defines, &h->kernel, row);
  const size_t groups = err ? 1 : variant_groups(ctx, bins, bytes, v, h->kernel, wg);
  h->args[0] = (struct atl_arg){ATL_ARG_BUFFER, in, 0};
  h->args[1] = (struct atl_arg){ATL_ARG_U32, NULL, bytes / 16};
  h->args[2] = (struct atl_arg){ATL_ARG_BUFFER, hist, 0};
  h->args[3] = (struct atl_arg){ATL_ARG_LOCAL, NULL, local_words(v, bins, wg) * 4};
  h->launch = (struct atl_launch){groups * wg, wg, h->args, dynamic_local(v) ? 4 : 3};
  return err;
}

static int run_variant(struct hist_run *r, enum atl_hist_variant v, struct atl_result_set *out)
{
  const struct atl_histogram_params *p = r->p;
  const struct atl_device_info *d = atl_device_current(r->ctx);
  struct atl_row row;
  char why[256];
  const char *no;
  row_name(&row, r, v);
  if (v == ATL_HIST_AUTO) { /* runs its choice under its own name */
    v = atl_hist_auto_choice(d, r->input, r->bins, p->wg_size);
    atl__app_row_status(&row, ATL_STATUS_OK, "auto chose %s", atl_hist_variant_names[v]);
  }
  if ((no = unsupported(r, v, why, sizeof why)) != NULL) {
    atl__app_row_status(&row, ATL_STATUS_UNSUPPORTED, "%s", no);
    add_throughput(&row, r);
    return finish_row(r, &row, 0, out);
  }
  struct atl__hist_launch h;
  int err = atl__hist_prepare(r->ctx, r->input, r->bins, v, p->wg_size, p->bytes, r->in, r->hist, &row, &h);
  if (!err)
    err = atl__app_time(r->ctx, h.kernel, &h.launch, reset_hist, r, r->tm, &row);
  if (!err && (err = check_bins(r, r->hist, &row)) == 0) {
    add_throughput(&row, r);
    atl_row_metric_set(&row, "wg_size", h.launch.local);
    atl_row_metric_set(&row, "work_groups", (double)(h.launch.global / h.launch.local));
  }
  return finish_row(r, &row, err, out);
}

/* One call of CUB's histogram of the input, @p reps timed runs (atl__app_cub_time samples it). */
static int cub_histogram(void *arg, unsigned reps, float *times, char *why, size_t len)
{
  const struct atl__cub_call *c = arg;
  const struct hist_run *r = c->run;
  const uint64_t in = (uint64_t)(uintptr_t)r->in, hist = (uint64_t)(uintptr_t)r->hist, n = r->p->bytes;
  return r->input == ATL_HIST_U8     ? c->cub->histogram_u8(c->ordinal, in, n, hist, reps, times, why, len)
         : r->input == ATL_HIST_RGBA ? c->cub->histogram_rgba(c->ordinal, in, n / 4, hist, reps, times, why, len)
                                     : c->cub->histogram_u32(c->ordinal, in, n / 4, r->bins, hist, reps, times, why,
                                                             len);
}

static int run_cub(struct hist_run *r, struct atl_result_set *out)
{
  struct atl_row row;
  char why[256];
  row_name(&row, r, ATL_HIST_CUB);
  add_throughput(&row, r);
  int ordinal;
  const struct atl__cub *cub = atl__app_cub_for(r->ctx, &row, &ordinal);
  if (cub == NULL)
    return finish_row(r, &row, 0, out);
  static const char *const algo[ATL_HIST_INPUT_COUNT] = {"HistogramEven", "MultiHistogramEven<4,4>",
                                                         "HistogramEven of key % bins"};
  snprintf(row.instructions, sizeof row.instructions, "cub::DeviceHistogram::%s, %s", algo[r->input], cub->info);
  int err = reset_hist(r->ctx, r), rc = 0;
  if (!err)
    rc = atl__app_cub_time(cub_histogram, &(struct atl__cub_call){cub, r, ordinal}, r->tm, &row, why, sizeof why);
  if (rc != 0) {
    atl__app_row_status(&row, ATL_STATUS_ERROR, "%s", why);
    return finish_row(r, &row, 0, out);
  }
  if (!err && (err = check_bins(r, r->hist, &row)) == 0)
    add_throughput(&row, r);
  return finish_row(r, &row, err, out);
}

/* Every row of one input and distribution gets its ratio to CUB's row where CUB ran and verified. */
static void add_cub_ratios(struct atl_result_set *out, size_t first)
{
  double cub = 0;
  for (size_t i = first; i < out->count; i++) {
    const struct atl_row *row = &out->rows[i];
    const char *variant = atl_row_config_or(row, "variant", "");
    size_t len = strlen(variant);
    if (len > 4 && strcmp(variant + len - 4, "/cub") == 0 && row->status == ATL_STATUS_OK && row->verified)
      cub = atl_row_metric(row, "gbps", 0);
  }
  for (size_t i = first; cub > 0 && i < out->count; i++) {
    double g = atl_row_metric(&out->rows[i], "gbps", 0);
    if (g > 0 && out->rows[i].status == ATL_STATUS_OK)
      atl_row_metric_set(&out->rows[i], "ratio_to_cub", g / cub);
  }
}

static int run_one(struct hist_run *r, uint8_t *host, struct atl_result_set *out)
{
  const struct atl_histogram_params *p = r->p;
  r->bins = r->input == ATL_HIST_U8 ? 256 : r->input == ATL_HIST_RGBA ? 1024 : p->u32_bins;
  if (r->dist == ATL_HIST_PHOTO)
    photo_input(r->input, &r->photo, host, p->bytes);
  else
    make_input(r->input, r->dist, p->seed, host, p->bytes);
  r->want_xor = host_histogram(r->input, r->bins, host, p->bytes, r->want);
  r->yard = (struct atl__yardsticks){0, 0};
  r->host = host;
  int err = atl__ops(r->ctx)->write(atl__dev(r->ctx), r->in, host, p->bytes);
  size_t first = out->count;
  if (!err)
    err = run_ceiling(r, out);
  for (int v = ATL_HIST_GLOBAL; v < ATL_HIST_CUB && ATL_APP_GO_ON(err); v++)
    if (p->variants & (1u << v))
      err = run_variant(r, (enum atl_hist_variant)v, out);
  if (!err && (p->variants & (1u << ATL_HIST_CUB)))
    err = run_cub(r, out);
  add_cub_ratios(out, first);
  return err;
}

int atl_app_histogram(atl_context_t ctx, const struct atl_histogram_params *p, const struct atl_app_timing *tm,
                      struct atl_result_set *out)
{
  struct atl__app_buffers bufs = {{0}, 0};
  struct hist_run r;
  uint8_t *host = NULL;
  int err = 0;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.p = p;
  r.tm = tm;
  r.bufs = &bufs;
  if ((err = atl__app_checked(ctx, &atl__app_histogram, p)) != 0)
    return err;
  host = malloc(p->bytes);
  r.want = malloc(65536 * sizeof *r.want);
  r.got = malloc(65536 * sizeof *r.got);
  if (host == NULL || r.want == NULL || r.got == NULL) {
    err = atl__seterr(ctx, ATL_ENOMEM, "histogram: out of host memory for %llu bytes", (unsigned long long)p->bytes);
    goto out;
  }
  if (p->dists & (1u << ATL_HIST_PHOTO)) {
    char why[512];
    if ((err = atl__photo_load(p->photo, &r.photo, why, sizeof why)) != 0) {
      err = atl__seterr(ctx, err, "%s", why);
      goto out;
    }
  }
  if ((err = atl__app_alloc(ctx, &bufs, p->bytes, &r.in)) ||
      (err = atl__app_alloc(ctx, &bufs, 65536 * sizeof(uint32_t), &r.hist)) ||
      (err = atl__app_alloc(ctx, &bufs, p->bytes, &r.scratch)))
    goto out;
  for (int in = 0; in < ATL_HIST_INPUT_COUNT && ATL_APP_GO_ON(err); in++)
    for (int dist = 0; dist < ATL_HIST_DIST_COUNT && ATL_APP_GO_ON(err); dist++)
      if ((p->inputs & (1u << in)) && (p->dists & (1u << dist))) {
        r.input = (enum atl_hist_input)in;
        r.dist = (enum atl_hist_dist)dist;
        err = run_one(&r, host, out);
      }
out:
  free(host);
  free(r.want);
  free(r.got);
  atl__photo_release(&r.photo);
  atl__app_free_all(ctx, &bufs);
  return err;
}

static void histogram_defaults(const struct atl_device_info *d, void *params)
{
  struct atl_histogram_params *p = params;
  atl__app_wg_default(d, &p->wg_size, 1);
  if (p->u32_bins == 0) /* 0 where a library user runs no u32 input: it needs none */
    p->u32_bins = 4096;
  if (p->bytes == 0) {
    /* GPUs: far beyond L2, so the read ceiling is DRAM's; CPUs: 1 MiB keeps PoCL's runs short. */
    uint64_t bytes = d->type == ATL_DEVICE_CPU ? 1ull << 20 : 1ull << 30;
    if (bytes > d->max_alloc / 2)
      bytes = d->max_alloc / 2 / 16 * 16;
    p->bytes = bytes < 16 ? 16 : bytes;
  }
}

/* Beyond the ranges of its options: powers of two, whole 16-byte loads, the device's allocation. */
static int histogram_check(const struct atl_device_info *d, const void *params, char *why, size_t len)
{
  const struct atl_histogram_params *p = params;
  if (atl__app_wg_check(d, p->wg_size, 1, NULL, why, len))
    return ATL_EINVAL;
  if (p->bytes < 16 || p->bytes % 16)
    return atl__app_why(why, len, "bytes %llu is not allowed: a multiple of 16 below 4 GiB (every work-item loads "
                        "16 bytes)", (unsigned long long)p->bytes);
  if (p->bytes > d->max_alloc)
    return atl__app_why(why, len, "bytes %llu exceeds the max allocation of %llu bytes on %s",
                        (unsigned long long)p->bytes, (unsigned long long)d->max_alloc, d->name);
  if ((p->inputs & (1u << ATL_HIST_U32)) && (p->u32_bins == 0 || (p->u32_bins & (p->u32_bins - 1))))
    return atl__app_why(why, len, "bins %u is not allowed: a power of two from 256 to 65536", p->u32_bins);
  return 0;
}

/*
 * What applies only with other options, and the photograph: "dist all"
 * (the default) means every distribution that can run here, so without the
 * photo it runs the others with a note; a photo named (--dist photo, --photo)
 * must run.
 */
static int histogram_prepare(atl_context_t ctx, atl_app_config_t cfg, char *why, size_t len)
{
  struct atl_histogram_params *p = atl_app_config_params(cfg);
  const char *dist = atl__app_config_given(cfg, "dist");
  (void)ctx;
  if (atl__app_config_given(cfg, "bins") && !(p->inputs & (1u << ATL_HIST_U32)))
    return atl__app_why(why, len, "bins applies to input u32 only (u8 has 256 bins, rgba 4 x 256)");
  if (p->photo && !(p->dists & (1u << ATL_HIST_PHOTO)))
    return atl__app_why(why, len, "photo applies to dist photo (or all) only");
  if (!(p->dists & (1u << ATL_HIST_PHOTO)) || atl_hist_photo_available(p->photo, why, len) == 0)
    return 0;
  if (p->photo || (dist && atl__app_list_has(dist, "photo")))
    return ATL_EINVAL; /* the reason names the photo and the package to install */
  atl__app_config_note(cfg, "dist all without photo: %s", why);
  p->dists &= ~(1u << ATL_HIST_PHOTO);
  return 0;
}

ATL__APP_RUN(histogram, atl_app_histogram)

#define P(field) .offset = offsetof(struct atl_histogram_params, field)
static const struct atl_app_option histogram_options[] = {
    ATL__APP_OPT_WG(struct atl_histogram_params, 65536, "work-items per work-group, a power of two"),
    {"input", ATL_APP_OPT_SET, P(inputs), .names = atl_hist_input_names, .nnames = ATL_HIST_INPUT_COUNT,
     .def = "u8", .arg = "LIST", .help = "u8, rgba, u32 or all (comma-separated)"},
    {"bins", ATL_APP_OPT_U32, P(u32_bins), .min = 256, .max = 65536, .arg = "N", .def_help = "4096",
     .help = "bins of the u32 input: a power of two, 256 to 65536"},
    {"dist", ATL_APP_OPT_SET, P(dists), .names = atl_hist_dist_names, .nnames = ATL_HIST_DIST_COUNT, .def = "all",
     .arg = "LIST",
     .help = "solid, uniform, skewed, photo or all (skewed: ~90% of keys in 4 hot values; photo: a JPEG "
             "photograph, repeated; all has photo where it can run)"},
    {"photo", ATL_APP_OPT_TEXT, P(photo), .arg = "FILE", .def_help = ATL_HIST_PHOTO_DEFAULT,
     .help = "the photo distribution's JPEG (Debian package " ATL_HIST_PHOTO_PACKAGE ")"},
    {"variants", ATL_APP_OPT_SET, P(variants), .min = ATL_HIST_GLOBAL, .names = atl_hist_variant_names,
     .nnames = ATL_HIST_VARIANT_COUNT, .def = "all", .arg = "LIST",
     .help = "global, shared, warp-private, match-any, packed, per-lane, byte-lanes (u8 only), block16, auto, cub "
             "or all (the vendor's copy and the read ceiling always run: the ratios need them)"},
    {"bytes", ATL_APP_OPT_U64, P(bytes), .min = 16, .max = 4294967280.0, .arg = "N",
     .def_help = "GPU: 1 GiB; CPU: 1 MiB", .help = "input bytes, a multiple of 16 below 4 GiB"},
    {"seed", ATL_APP_OPT_U64, P(seed), .max = 0x1p64, .def = "1", .arg = "N", .help = "input generator seed"},
    {"no-cub", ATL_APP_OPT_UNFLAG, P(variants), .bits = 1u << ATL_HIST_CUB, .help = "skip the CUB baseline"},
    {0}};
#undef P

/* What a run allocates (atl_app_info.bytes_needed): the input on the host and the device, the bins. */
static void histogram_bytes(const struct atl_device_info *d, const void *params, struct atl_app_bytes *need)
{
  const struct atl_histogram_params *p = params;
  (void)d;
  *need = (struct atl_app_bytes){p->bytes + 2 * 65536 * 8, p->bytes + 65536 * 4 + 16, "bytes"};
}

const struct atl_app_info atl__app_histogram = {
    .name = "histogram",
    .summary = "u8 / rgba / u32 histograms: global, shared, per-warp, match-any, packed, vs read and CUB",
    .description =
        "Histograms of 8-bit keys (256 bins), RGBA pixels (4 channels x 256 bins) and\n"
        "32-bit keys (bin = key % bins), one row per input x distribution x variant\n"
        "(variant column INPUT/DIST/VARIANT). Every histogram is compared bin for bin\n"
        "with the host's. Reports GB/s of input, the ratio to a read-only kernel over\n"
        "the same bytes in the same run (read-ceiling) and, on CUDA with the plugin,\n"
        "the ratio to CUB's DeviceHistogram (HistogramEven for u8 and u32,\n"
        "MultiHistogramEven<4,4> for rgba).",
    ATL__APP_ENTRY(struct atl_histogram_params, histogram),
    .prepare = histogram_prepare,
    .bytes_needed = histogram_bytes,
};
