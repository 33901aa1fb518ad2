/*
 * Host-side checkers of the lock-free structures the apps build on the
 * device. Walks are bounded by the node count, so a cycle is reported, never
 * followed forever.
 */
#include <stdio.h>
#include <stdlib.h>

#include "app_internal.h"

int atl__list_check(const uint32_t *next, uint32_t nodes, uint32_t nheads, char *why, size_t why_len)
{
  uint8_t *seen = calloc(nodes ? nodes : 1, 1);
  uint64_t total = 0;
  int bad = 0;
  if (seen == NULL) {
    snprintf(why, why_len, "out of host memory");
    return -1;
  }
  for (uint32_t h = 0; h < nheads && !bad; h++) {
    uint32_t cur = next[nodes + h];
    for (uint64_t steps = 0; cur != ATL__NIL; steps++) {
      if (cur >= nodes) {
        snprintf(why, why_len, "list %u: link to %u, not a node", h, cur);
        bad = 1;
        break;
      }
      if (seen[cur]) {
        snprintf(why, why_len, "list %u: node %u reached twice (a cycle or a shared tail)", h, cur);
        bad = 1;
        break;
      }
      if (steps > nodes) {
        snprintf(why, why_len, "list %u: longer than %u nodes (a cycle)", h, nodes);
        bad = 1;
        break;
      }
      seen[cur] = 1;
      total++;
      cur = next[cur];
    }
  }
  if (!bad && total != nodes) {
    uint32_t missing = 0;
    while (missing < nodes && seen[missing])
      missing++;
    snprintf(why, why_len, "%llu of %u nodes are in the lists (node %u is missing)", (unsigned long long)total, nodes,
             missing);
    bad = 1;
  }
  free(seen);
  return bad ? -1 : 0;
}

/* Whether node a comes before node b: by key, then by index. */
static int before(const uint32_t *keys, uint32_t a, uint32_t b)
{
  return keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
}

int atl__skiplist_check(const uint32_t *next, const uint32_t *keys, const uint8_t *height, uint32_t nodes,
                        uint32_t levels, char *why, size_t why_len)
{
  uint8_t *seen = calloc(nodes ? nodes : 1, 1);
  int bad = 0;
  if (seen == NULL) {
    snprintf(why, why_len, "out of host memory");
    return -1;
  }
  for (uint32_t L = 0; L < levels && !bad; L++) {
    uint64_t expected = 0, count = 0;
    for (uint32_t x = 0; x < nodes; x++)
      expected += height[x] > L;
    uint32_t prev = ATL__NIL, cur = next[(uint64_t)nodes * levels + L];
    while (cur != ATL__NIL && !bad) {
      if (cur >= nodes)
        snprintf(why, why_len, "level %u: link to %u, not a node", L, cur), bad = 1;
      else if (count >= nodes)
        snprintf(why, why_len, "level %u: longer than %u nodes (a cycle)", L, nodes), bad = 1;
      else if (height[cur] <= L)
        snprintf(why, why_len, "level %u: node %u of height %u is linked here", L, cur, height[cur]), bad = 1;
      else if (prev != ATL__NIL && !before(keys, prev, cur))
        snprintf(why, why_len, "level %u: node %u (key %u) follows node %u (key %u): not sorted", L, cur, keys[cur],
                 prev, keys[prev]),
            bad = 1;
      else if (L == 0 && seen[cur])
        snprintf(why, why_len, "level 0: node %u reached twice", cur), bad = 1;
      if (bad)
        break;
      if (L == 0)
        seen[cur] = 1;
      count++;
      prev = cur;
      cur = next[(uint64_t)cur * levels + L];
    }
    if (!bad && count != expected)
      snprintf(why, why_len, "level %u holds %llu nodes, expected %llu", L, (unsigned long long)count,
               (unsigned long long)expected),
          bad = 1;
  }
  free(seen);
  return bad ? -1 : 0;
}
