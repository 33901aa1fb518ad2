/*
 * Exact verification of a launch: the final value of every word, and the
 * values the atomics returned (folded per thread into a sink), against
 * closed forms that depend only on how often each word was updated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "patterns/patterns.h"

void atl__op_values(enum atl_op op, enum atl_type type, struct atl__op_values *v)
{
  const int wide = type == ATL_TYPE_U64, is_signed = type == ATL_TYPE_I32;
  v->init = wide ? 0x0123456789abcdefull : 0x12345678u;
  v->operand = wide ? 0x100000001ull : 3u; /* u64: carries into the upper half */
  switch (op) {
  case ATL_OP_FETCH_MIN: /* below the start value; i32 goes negative to tell signed from unsigned */
    v->init = wide ? 0x8000000000000000ull : is_signed ? 0u : 0x80000000u;
    v->operand = wide ? 0x100000007ull : is_signed ? 0xfffffff9u /* -7 */ : 7u;
    break;
  case ATL_OP_FETCH_MAX:
    v->init = wide ? 5u : is_signed ? 0xfffffffbu /* -5 */ : 5u;
    v->operand = wide ? 0x8000000100000000ull : is_signed ? 3u : 0x80000000u;
    break;
  case ATL_OP_AND:
    v->init = wide ? 0xffffffff00ff00ffull : 0xffff00ffu;
    v->operand = wide ? 0x0f0f0f0ff0f0f0f0ull : 0x0f0f0f0fu;
    break;
  case ATL_OP_OR:
    v->init = wide ? 0x100000100ull : 0x100u;
    v->operand = wide ? 0x8000000000000001ull : 0x80000001u;
    break;
  case ATL_OP_XOR:
    v->init = wide ? 0x5555555555555555ull : 0x55555555u;
    v->operand = wide ? 0xa5a5a5a5a5a5a5a5ull : 0xa5a5a5a5u;
    break;
  case ATL_OP_EXCHANGE:
    v->init = 0; /* no thread writes 0: every written value is gid + 1 */
    break;
  default:
    break;
  }
  if (atl_type_is_float(type)) {
    /* 0 + 1.0 + 1.0 ...: the sum counts updates exactly until it saturates
     * (docs/design/method.md), for every interleaving. */
    static const uint64_t one[ATL_TYPE_COUNT] = {
        [ATL_TYPE_F32] = 0x3f800000u, [ATL_TYPE_F64] = 0x3ff0000000000000ull,
        [ATL_TYPE_F16X2] = 0x3c003c00u, [ATL_TYPE_BF16X2] = 0x3f803f80u};
    v->init = 0;
    v->operand = one[type];
  }
}

uint64_t atl__exchange_value(enum atl_type type, uint64_t gid)
{
  uint64_t v = (gid + 1) & 0xffffffffu;
  return type == ATL_TYPE_U64 ? v * 0x100000001ull : v;
}

static uint64_t type_mask(enum atl_type t) { return atl_type_size(t) == 8 ? UINT64_MAX : 0xffffffffu; }

static uint64_t load_word(const void *words, enum atl_type t, uint64_t i)
{
  if (atl_type_size(t) == 8)
    return ((const uint64_t *)words)[i];
  return ((const uint32_t *)words)[i];
}

/* Floating-point layout of one lane: exponent bias and mantissa bits. */
struct float_lane {
  unsigned bias, mantissa_bits, lane_bits, lanes;
};

static struct float_lane float_lane(enum atl_type t)
{
  switch (t) {
  case ATL_TYPE_F64:
    return (struct float_lane){1023, 52, 64, 1};
  case ATL_TYPE_F16X2:
    return (struct float_lane){15, 10, 16, 2};
  case ATL_TYPE_BF16X2:
    return (struct float_lane){127, 7, 16, 2};
  default:
    return (struct float_lane){127, 23, 32, 1};
  }
}

/* Adding 1.0 to an integer-valued float is exact until 2^(mantissa bits + 1);
 * there x + 1 is a tie that round-to-nearest-even resolves back to x. */
static uint64_t float_saturation(struct float_lane f) { return 1ull << (f.mantissa_bits + 1); }

/* The bits of the whole number k (0 <= k <= saturation) in one lane. */
static uint64_t float_bits_of(struct float_lane f, uint64_t k)
{
  if (k == 0)
    return 0;
  unsigned e = 63 - (unsigned)__builtin_clzll(k);
  uint64_t mantissa = e <= f.mantissa_bits ? (k - (1ull << e)) << (f.mantissa_bits - e) : 0;
  return ((uint64_t)(e + f.bias) << f.mantissa_bits) | mantissa;
}

/* Replicates a lane value into every lane of the word. */
static uint64_t float_word(struct float_lane f, uint64_t lane)
{
  return f.lanes == 2 ? lane | (lane << f.lane_bits) : lane;
}

/* XOR of 0, 1, ..., n-1. */
static uint64_t xor_below(uint64_t n)
{
  uint64_t m = n - 1;
  if (n == 0)
    return 0;
  switch (m % 4) {
  case 0:
    return m;
  case 1:
    return 1;
  case 2:
    return m + 1;
  default:
    return 0;
  }
}

/* XOR of the bits of the whole numbers 0 .. n-1 (n <= saturation), one
 * binade at a time: within [2^e, 2^(e+1)) the exponent field is constant and
 * the mantissa is (k - 2^e) shifted, so each binade has a closed form. */
static uint64_t float_bits_xor_below(struct float_lane f, uint64_t n)
{
  uint64_t x = 0;
  for (unsigned e = 0; e <= f.mantissa_bits && (1ull << e) < n; e++) {
    uint64_t lo = 1ull << e, hi = lo << 1 < n ? lo << 1 : n, count = hi - lo;
    if (count % 2)
      x ^= (uint64_t)(e + f.bias) << f.mantissa_bits;
    x ^= xor_below(count) << (f.mantissa_bits - e);
  }
  return x;
}

/* The values h float updates returned, xor-folded: 0, 1, ..., then the saturated value. */
static uint64_t float_sink_xor(enum atl_type t, uint64_t h)
{
  struct float_lane f = float_lane(t);
  uint64_t sat = float_saturation(f), m = h < sat ? h : sat;
  uint64_t lane = float_bits_xor_below(f, m);
  if ((h - m) % 2)
    lane ^= float_bits_of(f, sat);
  return float_word(f, lane);
}

/* min/max in the type's own order. */
static int less_than(enum atl_type t, uint64_t a, uint64_t b)
{
  if (t == ATL_TYPE_I32)
    return (int32_t)(uint32_t)a < (int32_t)(uint32_t)b;
  return a < b;
}

/* h*(h-1)/2 modulo 2^64, dividing before multiplying so nothing is lost. */
static uint64_t triangle(uint64_t h) { return h == 0 ? 0 : (h % 2 == 0) ? (h / 2) * (h - 1) : h * ((h - 1) / 2); }

/* The value a word holds after h updates (exchange is checked separately). */
static uint64_t expected_word(enum atl_op op, enum atl_type t, const struct atl__op_values *v, uint64_t h)
{
  uint64_t x = v->init, o = v->operand, r = x;
  if (atl_type_is_float(t)) {
    struct float_lane f = float_lane(t);
    uint64_t sat = float_saturation(f);
    return float_word(f, float_bits_of(f, h < sat ? h : sat));
  }
  switch (op) {
  case ATL_OP_FETCH_ADD:
  case ATL_OP_PLAIN_ADD:
    r = x + h * o;
    break;
  case ATL_OP_FETCH_SUB:
    r = x - h * o;
    break;
  case ATL_OP_INC:
  case ATL_OP_CAS:
    r = x + h;
    break;
  case ATL_OP_DEC:
    r = x - h;
    break;
  case ATL_OP_FETCH_MIN:
    r = h && less_than(t, o, x) ? o : x;
    break;
  case ATL_OP_FETCH_MAX:
    r = h && less_than(t, x, o) ? o : x;
    break;
  case ATL_OP_AND:
    r = h ? x & o : x;
    break;
  case ATL_OP_OR:
    r = h ? x | o : x;
    break;
  case ATL_OP_XOR:
    r = h % 2 ? x ^ o : x;
    break;
  default:
    break;
  }
  return r & type_mask(t);
}

/* Sum of the values h updates returned: the old values form a known sequence. */
static uint64_t expected_sink_sum(enum atl_op op, enum atl_type t, const struct atl__op_values *v, uint64_t h)
{
  uint64_t x = v->init, o = v->operand;
  if (h == 0)
    return 0;
  switch (op) {
  case ATL_OP_FETCH_ADD:
  case ATL_OP_PLAIN_ADD:
    return h * x + o * triangle(h);
  case ATL_OP_INC:
  case ATL_OP_CAS:
    return h * x + triangle(h);
  case ATL_OP_FETCH_SUB:
    return h * x - o * triangle(h);
  case ATL_OP_DEC:
    return h * x - triangle(h);
  case ATL_OP_CAS_FAIL:
    return h * x;
  case ATL_OP_XOR: /* old values alternate x, x^o, x, ... */
    return ((h + 1) / 2) * x + (h / 2) * ((x ^ o) & type_mask(t));
  default: /* min, max, and, or: the first update sees x, every later one the settled value */
    return x + (h - 1) * expected_word(op, t, v, 1);
  }
}

/* Exchange: the final value must have been written by a thread that targets this word. */
static int exchange_writer_ok(const struct atl__verify_input *in, uint64_t domain, uint64_t word, uint64_t value)
{
  const struct atl_spec *s = in->spec;
  const uint64_t dt = atl_spec_domain_threads(s);
  uint64_t lo = value & 0xffffffffu;
  if (s->type == ATL_TYPE_U64 && (value >> 32) != lo)
    return 0;
  if (lo == 0)
    return 0;
  uint64_t gid = lo - 1;
  if (gid < domain * dt || gid >= (domain + 1) * dt || !atl__pattern_active(s, gid))
    return 0;
  uint32_t target = in->targets[gid];
  if (s->pattern != ATL_PATTERN_RANDOM)
    return target == word;
  if (word % s->padding != 0)
    return 0;
  return atl__walk_visits((uint32_t)atl_spec_slots(s), target, in->iters, (uint32_t)(word / s->padding));
}

static int hit_word_order(const void *a, const void *b)
{
  const uint64_t x = ((const struct atl__hit *)a)->word, y = ((const struct atl__hit *)b)->word;
  return (x > y) - (x < y);
}

int atl__hit_list(const struct atl_spec *s, uint64_t first_tid, const uint32_t *target, uint32_t iters,
                  struct atl__hit *hits, uint64_t *n)
{
  const uint64_t threads = atl_spec_domain_threads(s);
  uint64_t m = 0;
  if (s->pattern == ATL_PATTERN_RANDOM) {
    const uint32_t slots = (uint32_t)atl_spec_slots(s);
    uint64_t *slot_counts = malloc(slots * sizeof *slot_counts);
    if (slot_counts == NULL)
      return ATL_ENOMEM;
    int err = atl__walk_counts(slots, target, threads, iters, slot_counts);
    for (uint32_t k = 0; !err && k < slots; k++)
      if (slot_counts[k])
        hits[m++] = (struct atl__hit){(uint64_t)k * s->padding, slot_counts[k]};
    free(slot_counts);
    *n = m;
    return err;
  }
  int sorted = 1;
  for (uint64_t t = 0; t < threads; t++)
    if (atl__pattern_active(s, first_tid + t)) {
      hits[m] = (struct atl__hit){target[t], iters};
      sorted &= m == 0 || hits[m - 1].word <= hits[m].word;
      m++;
    }
  if (!sorted) /* cross-warp wraps around the array */
    qsort(hits, m, sizeof *hits, hit_word_order);
  uint64_t u = 0; /* merge the threads that share a word */
  for (uint64_t i = 0; i < m; i++) {
    if (u > 0 && hits[u - 1].word == hits[i].word)
      hits[u - 1].count += hits[i].count;
    else
      hits[u++] = hits[i];
  }
  *n = u;
  return 0;
}

int atl__hit_counts(const struct atl_spec *s, uint64_t first_tid, const uint32_t *target, uint32_t iters,
                    uint64_t *counts)
{
  const uint64_t threads = atl_spec_domain_threads(s), words = atl_spec_domain_words(s);
  struct atl__hit *hits = malloc((threads ? threads : 1) * sizeof *hits);
  uint64_t n = 0;
  if (hits == NULL)
    return ATL_ENOMEM;
  memset(counts, 0, words * sizeof *counts);
  int err = atl__hit_list(s, first_tid, target, iters, hits, &n);
  for (uint64_t i = 0; !err && i < n; i++)
    counts[hits[i].word] = hits[i].count;
  free(hits);
  return err;
}

/* Running state of one verification. */
struct verify_state {
  const struct atl__verify_input *in;
  struct atl__verify_output *out;
  struct atl__op_values v;
  uint64_t mask, untouched;
  int untouched_fast;     /* untouched words add nothing to the folded return values */
  uint64_t sink_expected; /* sum (or xor for exchange and floats) over every word */
};

static void check_word(struct verify_state *st, uint64_t d, uint64_t w, uint64_t count)
{
  const struct atl_spec *s = st->in->spec;
  const uint64_t words = atl_spec_domain_words(s);
  uint64_t got = load_word(st->in->words, s->type, d * words + w), want;
  int ok;
  if (atl_type_is_float(s->type)) {
    want = expected_word(s->op, s->type, &st->v, count);
    ok = got == want;
    st->sink_expected ^= float_sink_xor(s->type, count);
  } else if (s->op == ATL_OP_EXCHANGE) {
    want = count ? 0 : st->v.init;
    ok = count ? exchange_writer_ok(st->in, d, w, got) : got == st->v.init;
    if (count)
      st->sink_expected ^= (st->v.init ^ got) & st->mask;
  } else {
    want = expected_word(s->op, s->type, &st->v, count);
    ok = got == want;
    st->sink_expected += expected_sink_sum(s->op, s->type, &st->v, count);
  }
  if (!ok && st->out->wrong_words++ == 0)
    snprintf(st->out->first_error, sizeof st->out->first_error,
             "domain %llu word %llu: got 0x%llx, expected 0x%llx after %llu updates", (unsigned long long)d,
             (unsigned long long)w, (unsigned long long)got, (unsigned long long)want, (unsigned long long)count);
}

/* Words [from, to) of domain d received no update. Most words of a padded
 * array are like that: one compare each, or a 1 GiB array takes seconds. */
static void check_untouched(struct verify_state *st, uint64_t d, uint64_t from, uint64_t to)
{
  const struct atl_spec *s = st->in->spec;
  const uint64_t base = d * atl_spec_domain_words(s);
  if (!st->untouched_fast) {
    for (uint64_t w = from; w < to; w++)
      check_word(st, d, w, 0);
    return;
  }
  /* The word size once, not per word (atl_type_size is another file's function): a 1 GiB array is read at
   * memory speed, which keeps the verification of every visit of a sweep (--rounds) affordable. */
  uint64_t w = from;
  if (atl_type_size(s->type) == 4) {
    const uint32_t *p = (const uint32_t *)st->in->words + base, want = (uint32_t)st->untouched;
    for (uint32_t diff = 0; diff == 0 && to - w >= 4096; w += diff ? 0 : 4096) /* blocks, vectorised */
      for (uint64_t k = w; k < w + 4096; k++)
        diff |= p[k] ^ want;
    while (w < to && p[w] == want)
      w++;
  } else {
    const uint64_t *p = (const uint64_t *)st->in->words + base;
    while (w < to && p[w] == st->untouched)
      w++;
  }
  for (; w < to; w++) { /* from the first wrong word on: one by one, counted */
    uint64_t got = load_word(st->in->words, s->type, base + w);
    if (got != st->untouched && st->out->wrong_words++ == 0)
      snprintf(st->out->first_error, sizeof st->out->first_error,
               "domain %llu word %llu: got 0x%llx, expected 0x%llx after 0 updates", (unsigned long long)d,
               (unsigned long long)w, (unsigned long long)got, (unsigned long long)st->untouched);
  }
}

int atl__verify(const struct atl__verify_input *in, struct atl__verify_output *out)
{
  const struct atl_spec *s = in->spec;
  const uint64_t words = atl_spec_domain_words(s), dt = atl_spec_domain_threads(s);
  const uint64_t domains = atl_spec_domains(s);
  struct verify_state st = {.in = in, .out = out, .mask = type_mask(s->type)};
  atl__op_values(s->op, s->type, &st.v);
  memset(out, 0, sizeof *out);
  struct atl__hit *owned = in->hits ? NULL : malloc((dt ? dt : 1) * sizeof *owned);
  struct atl__hit *hits = in->hits ? in->hits : owned;
  if (hits == NULL)
    return ATL_ENOMEM;
  st.untouched = expected_word(s->op, s->type, &st.v, 0);
  st.untouched_fast = s->op == ATL_OP_EXCHANGE ? st.untouched == st.v.init
                      : atl_type_is_float(s->type) ? float_sink_xor(s->type, 0) == 0
                                                   : expected_sink_sum(s->op, s->type, &st.v, 0) == 0;
  for (uint64_t d = 0; d < domains; d++) {
    uint64_t n = 0, next = 0;
    int err = atl__hit_list(s, d * dt, in->targets + d * dt, in->iters, hits, &n);
    if (err) {
      free(owned);
      return err;
    }
    for (uint64_t i = 0; i < n; i++) {
      check_untouched(&st, d, next, hits[i].word);
      check_word(&st, d, hits[i].word, hits[i].count);
      next = hits[i].word + 1;
    }
    check_untouched(&st, d, next, words);
  }
  uint64_t sink_expected = st.sink_expected;
  const uint64_t mask = st.mask;
  free(owned);
  out->sink_ok = 1;
  if (in->sink == NULL)
    return 0;
  out->sink_checked = 1;
  const uint64_t threads = (uint64_t)s->wg_size * s->workgroups;
  uint64_t folded = 0;
  for (uint64_t t = 0; t < threads; t++) {
    uint64_t x = load_word(in->sink, s->type, t);
    if (atl_type_is_float(s->type)) {
      folded ^= x; /* float kernels xor the bits of the returned values */
    } else if (s->op == ATL_OP_EXCHANGE) {
      folded ^= x;
      /* every written value except the last on each word comes back once */
      if (atl__pattern_active(s, t) && in->iters % 2)
        sink_expected ^= atl__exchange_value(s->type, t);
    } else {
      folded += x;
    }
  }
  out->sink_ok = (folded & mask) == (sink_expected & mask);
  if (!out->sink_ok && out->first_error[0] == '\0')
    snprintf(out->first_error, sizeof out->first_error, "returned values fold to 0x%llx, expected 0x%llx",
             (unsigned long long)(folded & mask), (unsigned long long)(sink_expected & mask));
  return 0;
}

int atl__cmp_u32(const void *a, const void *b)
{
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}
