/*
 * Whether recorded old values fit a serial order (app swatomic --op min, max,
 * and, or, xor): every update of a word is an edge old -> old op operand, and
 * the old values are right exactly when one walk from the word's initial
 * value takes every edge once, ending at the word's final value.
 *
 * min, max, and, or are monotone (a word that changes never returns), so a
 * greedy walk is exact: from the current value take every update that leaves
 * it unchanged, then the one that changes it; a second changing update with
 * the same old value is a wrong old value. xor's words do return to earlier
 * values (4 M updates of one word revisit thousands of the 2^32 values), and
 * there the greedy choice between two edges out of one value can strand the
 * walk where a valid order exists (it failed good H200 runs of the system
 * atomic), so xor gets the exact test: an Eulerian trail from the initial
 * value exists iff every value has as many updates out as in except that the
 * initial one may have one more out and one other value one more in (where
 * the trail ends), and every update lies in the initial value's connected
 * component.
 */
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "core/strategy_internal.h"
#include "core/verify.h"

/* The ops' names live here with their algebra (swop_apply), so this file
 * needs nothing of swatomic.c, which calls it. */
const char *const atl__swop_names[ATL_SWOP_COUNT] = {"add", "sub", "inc", "min", "max", "and", "or", "xor"};

const char *atl_swop_name(int op)
{
  return op >= 0 && op < ATL_SWOP_COUNT ? atl__swop_names[op] : NULL;
}

/* x op v: the device library's algebra, inc an add (of 1) */
static uint32_t swop_apply(int op, uint32_t x, uint32_t v)
{
  static const enum atl__opc opc[ATL_SWOP_COUNT] = {ATL__OPC_ADD, ATL__OPC_SUB, ATL__OPC_ADD, ATL__OPC_MIN,
                                                    ATL__OPC_MAX, ATL__OPC_AND, ATL__OPC_OR,  ATL__OPC_XOR};
  return atl__opc_apply(op >= 0 && op < ATL_SWOP_COUNT ? opc[op] : ATL__OPC_ADD, x, v);
}

static int cmp_update(const void *a, const void *b)
{
  const struct atl__sw_update *x = a, *y = b;
  if (x->word != y->word)
    return x->word < y->word ? -1 : 1;
  return x->old < y->old ? -1 : x->old > y->old;
}

/* The index of @p v in the sorted distinct values @p vals (it is there). */
static uint32_t value_index(const uint32_t *vals, uint32_t k, uint32_t v)
{
  uint32_t lo = 0, hi = k;
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (vals[mid] <= v)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static uint32_t find_root(uint32_t *parent, uint32_t i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/*
 * The exact test for xor on one word's @p n updates: 0 and the trail's end in
 * @p end if a serial order from @p init exists, 1 with the reason in @p why
 * if none does, -1 when out of host memory.
 */
static int xor_trail(uint32_t init, const struct atl__sw_update *u, size_t n, uint32_t *end, char *why, size_t len)
{
  const size_t m = 2 * n + 1;
  uint32_t *vals = malloc(m * sizeof *vals), *parent = NULL, *out = NULL, *in = NULL;
  int rc = -1;
  if (vals == NULL)
    return -1;
  for (size_t j = 0; j < n; j++) {
    vals[2 * j] = u[j].old;
    vals[2 * j + 1] = u[j].old ^ u[j].v;
  }
  vals[2 * n] = init;
  qsort(vals, m, sizeof *vals, atl__cmp_u32);
  uint32_t k = 0;
  for (size_t i = 0; i < m; i++)
    if (k == 0 || vals[i] != vals[k - 1])
      vals[k++] = vals[i];
  parent = calloc(3 * (size_t)k, sizeof *parent); /* one block: the union-find parents, then out and in */
  if (parent == NULL)
    goto done;
  out = parent + k; /* updates whose old value is value i */
  in = out + k;     /* updates that leave the word at value i */
  for (uint32_t i = 0; i < k; i++)
    parent[i] = i;
  for (size_t j = 0; j < n; j++) {
    const uint32_t a = value_index(vals, k, u[j].old), b = value_index(vals, k, u[j].old ^ u[j].v);
    out[a]++;
    in[b]++;
    parent[find_root(parent, a)] = find_root(parent, b);
  }
  const uint32_t start = value_index(vals, k, init), root = find_root(parent, start);
  rc = 1;
  for (uint32_t i = 0; i < k; i++) /* an update's values share its component: checking the values checks them all */
    if (out[i] + in[i] > 0 && find_root(parent, i) != root) {
      snprintf(why, len, "no order from 0x%x reaches value 0x%x, the old value of %u updates", init, vals[i], out[i]);
      goto done;
    }
  uint32_t last = start; /* where the trail ends: the value reached once more than left, else the start */
  for (uint32_t i = 0; i < k; i++) {
    const int64_t extra_out = (int64_t)out[i] - in[i];
    if (extra_out == 0 || (extra_out == 1 && i == start))
      continue;
    if (extra_out == -1 && last == start && out[start] == in[start] + 1u) {
      last = i;
      continue;
    }
    snprintf(why, len, "%u updates have old value 0x%x but %u leave the word there", out[i], vals[i], in[i]);
    goto done;
  }
  *end = vals[last];
  rc = 0;
done:
  free(vals);
  free(parent);
  return rc;
}

/*
 * The greedy walk of a monotone op over one word's @p n updates, sorted by old
 * value (see the top of the file): 0 and the walk's end in @p end if every
 * update is placed, else 1 with the reason in @p why.
 */
static int monotone_walk(int op, uint32_t init, const struct atl__sw_update *u, size_t n, unsigned char *used,
                         uint32_t *end, char *why, size_t len)
{
  uint32_t cur = init;
  for (size_t left = n; left > 0;) {
    size_t lo = 0, hi = n; /* the first update with old >= cur */
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (u[mid].old < cur)
        lo = mid + 1;
      else
        hi = mid;
    }
    size_t took = 0;
    for (size_t j = lo; j < n && u[j].old == cur; j++)
      if (!used[j] && swop_apply(op, cur, u[j].v) == cur) {
        used[j] = 1;
        took++;
      }
    for (size_t j = lo; j < n && u[j].old == cur; j++)
      if (!used[j]) {
        used[j] = 1;
        took++;
        cur = swop_apply(op, cur, u[j].v);
        break;
      }
    if (took == 0) {
      snprintf(why, len, "%zu of %zu placed, none of the rest found the word at 0x%x", n - left, n, cur);
      return 1;
    }
    left -= took;
  }
  *end = cur;
  return 0;
}

int atl__sw_check_serial(int op, uint32_t init, struct atl__sw_update *u, size_t n, const uint32_t *mem,
                         uint32_t words, char *why, size_t why_len)
{
  unsigned char *used = op == ATL_SWOP_XOR ? NULL : calloc(n ? n : 1, 1);
  int bad = 0;
  if (op != ATL_SWOP_XOR && used == NULL) {
    snprintf(why, why_len, "out of host memory");
    return 1;
  }
  qsort(u, n, sizeof *u, cmp_update);
  size_t i = 0;
  for (uint32_t w = 0; w < words && !bad; w++) {
    const size_t start = i;
    while (i < n && u[i].word == w)
      i++;
    uint32_t end = init, reduction = init;
    for (size_t j = start; j < i; j++)
      reduction = swop_apply(op, reduction, u[j].v);
    char detail[160] = "";
    const int rc = op == ATL_SWOP_XOR ? xor_trail(init, u + start, i - start, &end, detail, sizeof detail)
                                      : monotone_walk(op, init, u + start, i - start, used + start, &end, detail,
                                                      sizeof detail);
    if (rc < 0) {
      snprintf(why, why_len, "out of host memory");
      bad = 1;
    } else if (rc > 0) {
      snprintf(why, why_len, "word %u: the old values fit no serial order of the %s updates (%s)", w,
               atl_swop_name(op), detail);
      bad = 1;
    } else if (mem[w] != end || mem[w] != reduction) {
      snprintf(why, why_len, "word %u ended at 0x%x; the serial order ends at 0x%x, the %s of its operands is 0x%x",
               w, mem[w], end, atl_swop_name(op), reduction);
      bad = 1;
    }
  }
  free(used);
  return bad;
}
