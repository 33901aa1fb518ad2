/*
 * The host-side checkers of the lock-free list and skiplist apps accept a
 * sound structure and reject every kind of broken one (lost node, duplicate,
 * cycle, bad link, unsorted level, incomplete upper level), so an app's
 * "verified" can fail.
 */
#include <string.h>

#include "apps/app_internal.h"
#include "check.h"

#define NIL ATL__NIL

static int list_ok(const uint32_t *next, uint32_t nodes, uint32_t heads)
{
  char why[256] = "";
  int rc = atl__list_check(next, nodes, heads, why, sizeof why);
  if (rc != 0)
    printf("  list rejected: %s\n", why);
  return rc == 0;
}

static void test_list(void)
{
  /* 4 nodes, head is index 4: head -> 2 -> 0 -> 3 -> 1 -> NIL */
  uint32_t good[5] = {3, NIL, 0, 1, 2};
  CHECK(list_ok(good, 4, 1));
  uint32_t lost[5] = {3, NIL, 0, NIL, 2}; /* node 1 unreachable */
  CHECK(!list_ok(lost, 4, 1));
  uint32_t cycle[5] = {3, 2, 0, 1, 2}; /* 1 -> 2 -> 0 -> 3 -> 1 */
  CHECK(!list_ok(cycle, 4, 1));
  uint32_t self[5] = {0, NIL, 0, 1, 2}; /* 0 -> 0 */
  CHECK(!list_ok(self, 4, 1));
  uint32_t wild[5] = {3, 7, 0, 1, 2}; /* link past the nodes */
  CHECK(!list_ok(wild, 4, 1));
  uint32_t empty[5] = {NIL, NIL, NIL, NIL, NIL};
  CHECK(!list_ok(empty, 4, 1));
  /* two heads (indices 4 and 5): 4 -> 0 -> 2, 5 -> 1 -> 3 */
  uint32_t two[6] = {2, 3, NIL, NIL, 0, 1};
  CHECK(list_ok(two, 4, 2));
  uint32_t shared[6] = {2, 2, NIL, NIL, 0, 1}; /* both lists end in node 2; node 3 lost */
  CHECK(!list_ok(shared, 4, 2));
}

enum { LV = 3 };

static int skip_ok(const uint32_t *next, const uint32_t *keys, const uint8_t *h, uint32_t n)
{
  char why[256] = "";
  int rc = atl__skiplist_check(next, keys, h, n, LV, why, sizeof why);
  if (rc != 0)
    printf("  skiplist rejected: %s\n", why);
  return rc == 0;
}

static void test_skiplist(void)
{
  /* keys of nodes 0..3: 30 10 20 10; sorted order by (key, index): 1 3 2 0.
   * heights: 1 2 1 3; head is node 4. */
  uint32_t keys[4] = {30, 10, 20, 10};
  uint8_t h[4] = {1, 2, 1, 3};
  uint32_t next[5 * LV];
  memset(next, 0xff, sizeof next);
#define LINK(a, L, b) next[(a) * LV + (L)] = (b)
  LINK(4, 0, 1); LINK(1, 0, 3); LINK(3, 0, 2); LINK(2, 0, 0); /* level 0: 1 3 2 0 */
  LINK(4, 1, 1); LINK(1, 1, 3);                               /* level 1: 1 3 */
  LINK(4, 2, 3);                                              /* level 2: 3 */
  CHECK(skip_ok(next, keys, h, 4));

  uint32_t bad[5 * LV];
  memcpy(bad, next, sizeof bad);
  bad[3 * LV + 0] = 0; bad[0 * LV + 0] = 2; bad[2 * LV + 0] = NIL; /* level 0: 1 3 0 2: unsorted */
  CHECK(!skip_ok(bad, keys, h, 4));

  memcpy(bad, next, sizeof bad);
  bad[2 * LV + 0] = NIL; /* node 0 lost at level 0 */
  CHECK(!skip_ok(bad, keys, h, 4));

  memcpy(bad, next, sizeof bad);
  bad[0 * LV + 0] = 1; /* cycle at level 0: ... 0 -> 1 */
  CHECK(!skip_ok(bad, keys, h, 4));

  memcpy(bad, next, sizeof bad);
  bad[4 * LV + 2] = NIL; /* node 3 (height 3) missing from level 2 */
  CHECK(!skip_ok(bad, keys, h, 4));

  memcpy(bad, next, sizeof bad);
  bad[3 * LV + 1] = 2; /* node 2 (height 1) linked at level 1 */
  CHECK(!skip_ok(bad, keys, h, 4));

  uint32_t tie[4] = {30, 10, 20, 10};
  memcpy(bad, next, sizeof bad);
  bad[4 * LV + 0] = 3; bad[3 * LV + 0] = 1; bad[1 * LV + 0] = 2; /* equal keys out of index order: 3 before 1 */
  CHECK(!skip_ok(bad, tie, h, 4));
}

int main(void)
{
  test_list();
  test_skiplist();
  return check_exit("test_list_check");
}
