/*
 * The serial-order check of app swatomic --op (src/apps/serial_order.c)
 * accepts the old values of a real serial order, however often an xor word
 * revisits a value, and rejects a wrong old value, a stranded update and a
 * wrong final word, for xor and for the monotone ops.
 */
#include <stdlib.h>
#include <string.h>

#include "apps/app_internal.h"
#include "check.h"

#define N 20000

static int fits(int op, uint32_t init, struct atl__sw_update *u, size_t n, const uint32_t *mem, uint32_t words)
{
  char why[256] = "";
  int rc = atl__sw_check_serial(op, init, u, n, mem, words, why, sizeof why);
  if (rc != 0)
    printf("  %s: rejected: %s\n", atl_swop_name(op), why);
  return rc == 0;
}

static uint32_t lcg(uint32_t *s)
{
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

/* Plays n updates of @p op on @p words words in a random serial order, then shuffles the records. */
static void play(int op, uint32_t init, struct atl__sw_update *u, size_t n, uint32_t *mem, uint32_t words,
                 uint32_t seed)
{
  for (uint32_t w = 0; w < words; w++)
    mem[w] = init;
  for (size_t j = 0; j < n; j++) {
    const uint32_t w = lcg(&seed) % words, r = lcg(&seed);
    /* xor: four odd operands, so a word wanders over a few values and revisits each thousands of times */
    const uint32_t v = op == ATL_SWOP_XOR ? 1u + 2u * (r & 3u) : op == ATL_SWOP_MIN ? r : ~(1u << (r & 31u));
    u[j] = (struct atl__sw_update){w, mem[w], v};
    mem[w] = op == ATL_SWOP_XOR ? mem[w] ^ v : op == ATL_SWOP_MIN ? (mem[w] < v ? mem[w] : v) : mem[w] & v;
  }
  for (size_t j = n; j > 1; j--) {
    const size_t k = lcg(&seed) % j;
    struct atl__sw_update t = u[j - 1];
    u[j - 1] = u[k];
    u[k] = t;
  }
}

static void test_op(int op, uint32_t init)
{
  static struct atl__sw_update u[N], c[N];
  uint32_t mem[3], bad_mem[3];
  play(op, init, u, N, mem, 3, 7u + (uint32_t)op);
  memcpy(c, u, sizeof u);
  CHECK(fits(op, init, c, N, mem, 3));
  CHECK(fits(op, init, c, 0, (uint32_t[3]){init, init, init}, 3)); /* no updates: words stay at init */

  memcpy(bad_mem, mem, sizeof mem);
  bad_mem[1] ^= 0x100u; /* a final word that no order reaches */
  memcpy(c, u, sizeof u);
  CHECK(!fits(op, init, c, N, bad_mem, 3));

  /* an old value word 2 never held, given to one of its updates */
  uint32_t never = 0xdeadbeefu;
  for (int again = 1; again;) {
    again = never == mem[2];
    for (size_t j = 0; j < N && !again; j++)
      again = u[j].word == 2 && u[j].old == never;
    never += again;
  }
  memcpy(c, u, sizeof u);
  for (size_t j = 0; j < N; j++)
    if (c[j].word == 2) {
      c[j].old = never;
      break;
    }
  CHECK(!fits(op, init, c, N, mem, 3));

  if (op == ATL_SWOP_XOR) { /* a lost xor update moves the reduction (min and and lose no-ops harmlessly) */
    memcpy(c, u, sizeof u);
    CHECK(!fits(op, init, c, N - 1, mem, 3));
  }
}

static void test_xor_revisits(void)
{
  /* 0 -> 1 -> 0 -> 2: two updates leave 0; a walk that takes 0 -> 2 first strands at 2 */
  struct atl__sw_update u[3] = {{0, 0, 2}, {0, 0, 1}, {0, 1, 1}};
  uint32_t mem = 2;
  CHECK(fits(ATL_SWOP_XOR, 0, u, 3, &mem, 1));
  struct atl__sw_update v[3] = {{0, 0, 1}, {0, 1, 1}, {0, 0, 2}};
  CHECK(fits(ATL_SWOP_XOR, 0, v, 3, &mem, 1));
  /* two updates from 0, one back: the order must end at 2 or 3, never at 0 */
  struct atl__sw_update w[3] = {{0, 0, 2}, {0, 0, 3}, {0, 3, 3}};
  uint32_t zero = 0;
  CHECK(!fits(ATL_SWOP_XOR, 0, w, 3, &zero, 1));
  /* an update that starts where the word never is: 0 -> 1, 5 -> 4 */
  struct atl__sw_update x[2] = {{0, 0, 1}, {0, 5, 1}};
  uint32_t four = 4;
  CHECK(!fits(ATL_SWOP_XOR, 0, x, 2, &four, 1));
  /* a cycle away from the start: 0 -> 1 and 6 -> 7 -> 6 is balanced but unreachable */
  struct atl__sw_update y[3] = {{0, 0, 1}, {0, 6, 1}, {0, 7, 1}};
  uint32_t one = 1;
  CHECK(!fits(ATL_SWOP_XOR, 0, y, 3, &one, 1));
}

int main(void)
{
  test_xor_revisits();
  test_op(ATL_SWOP_XOR, 0);
  test_op(ATL_SWOP_MIN, 0xffffffffu);
  test_op(ATL_SWOP_AND, 0xffffffffu);
  return check_exit("test_serial_order");
}
