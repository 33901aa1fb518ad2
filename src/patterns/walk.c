/*
 * Exact visit counts of the random pattern without replaying every step.
 *
 * All walkers apply the same map f(x) = (x * 1664525 + 1013904223) % slots,
 * so the map is a functional graph: every walk runs down a tail into a
 * cycle. A walker's visits are its tail nodes, then whole laps of its cycle,
 * then a partial arc; laps are counted per cycle and arcs with a difference
 * array over the cycle's order, so a walk costs its tail length, not iters.
 */
#include <stdlib.h>
#include <string.h>

#include "patterns.h"

struct walk_graph {
  uint32_t slots;
  uint32_t *next;     /* f(x) */
  uint32_t *cycle;    /* cycle id of x, or UINT32_MAX for tail nodes */
  uint32_t *pos;      /* position of x in its cycle */
  uint32_t *order;    /* cycle nodes, cycle by cycle */
  uint32_t *base;     /* first index in order[] of each cycle (ncycles + 1 entries) */
  uint32_t ncycles;
};

static void graph_release(struct walk_graph *g)
{
  free(g->next);
  free(g->cycle);
  free(g->pos);
  free(g->order);
  free(g->base);
}

static int graph_build(uint32_t slots, struct walk_graph *g)
{
  memset(g, 0, sizeof *g);
  g->slots = slots;
  g->next = malloc(slots * sizeof *g->next);
  g->cycle = malloc(slots * sizeof *g->cycle);
  g->pos = calloc(slots, sizeof *g->pos);
  g->order = malloc(slots * sizeof *g->order);
  g->base = malloc((slots + 1) * sizeof *g->base);
  uint32_t *stamp = calloc(slots, sizeof *stamp); /* 0 unseen, else walk number */
  if (!g->next || !g->cycle || !g->pos || !g->order || !g->base || !stamp) {
    free(stamp);
    graph_release(g);
    return ATL_ENOMEM;
  }
  for (uint32_t x = 0; x < slots; x++) {
    g->next[x] = atl__lcg_next(x, slots);
    g->cycle[x] = UINT32_MAX;
  }
  uint32_t placed = 0;
  for (uint32_t x = 0; x < slots; x++) {
    if (stamp[x])
      continue;
    uint32_t y = x, walk = x + 1;
    while (!stamp[y]) {
      stamp[y] = walk;
      y = g->next[y];
    }
    if (stamp[y] != walk)
      continue; /* ran into an earlier walk: no new cycle */
    /* y is on a new cycle: record its nodes in order. */
    g->base[g->ncycles] = placed;
    uint32_t z = y, p = 0;
    do {
      g->cycle[z] = g->ncycles;
      g->pos[z] = p++;
      g->order[placed++] = z;
      z = g->next[z];
    } while (z != y);
    g->ncycles++;
  }
  g->base[g->ncycles] = placed;
  free(stamp);
  return 0;
}

static uint32_t cycle_len(const struct walk_graph *g, uint32_t c) { return g->base[c + 1] - g->base[c]; }

int atl__walk_counts(uint32_t slots, const uint32_t *seeds, uint64_t nthreads, uint32_t iters, uint64_t *slot_counts)
{
  struct walk_graph g;
  int err = graph_build(slots, &g);
  if (err)
    return err;
  uint64_t *starts = calloc(slots, sizeof *starts);
  uint64_t *laps = calloc(g.ncycles, sizeof *laps);
  /* one difference slot per cycle node plus one past each cycle's end */
  int64_t *diff = calloc((size_t)slots + g.ncycles + 1, sizeof *diff);
  if (!starts || !laps || !diff) {
    err = ATL_ENOMEM;
    goto out;
  }
  memset(slot_counts, 0, slots * sizeof *slot_counts);
  for (uint64_t t = 0; t < nthreads; t++)
    starts[atl__lcg_next(seeds[t], slots)]++;
  for (uint32_t x = 0; x < slots; x++) {
    uint64_t m = starts[x];
    if (m == 0)
      continue;
    uint32_t y = x;
    uint64_t left = iters;
    while (left > 0 && g.cycle[y] == UINT32_MAX) {
      slot_counts[y] += m;
      y = g.next[y];
      left--;
    }
    if (left == 0)
      continue;
    uint32_t c = g.cycle[y], len = cycle_len(&g, c);
    laps[c] += m * (left / len);
    uint64_t arc = left % len;
    size_t d0 = (size_t)g.base[c] + c; /* this cycle's slice of diff[] */
    uint32_t p = g.pos[y];
    diff[d0 + p] += (int64_t)m;
    if (p + arc <= len) {
      diff[d0 + p + arc] -= (int64_t)m;
    } else {
      diff[d0 + len] -= (int64_t)m;
      diff[d0] += (int64_t)m;
      diff[d0 + (p + arc - len)] -= (int64_t)m;
    }
  }
  for (uint32_t c = 0; c < g.ncycles; c++) {
    size_t d0 = (size_t)g.base[c] + c;
    int64_t run = 0;
    for (uint32_t p = 0; p < cycle_len(&g, c); p++) {
      run += diff[d0 + p];
      slot_counts[g.order[g.base[c] + p]] += laps[c] + (uint64_t)run;
    }
  }
out:
  free(starts);
  free(laps);
  free(diff);
  graph_release(&g);
  return err;
}

int atl__walk_visits(uint32_t slots, uint32_t seed, uint32_t iters, uint32_t slot)
{
  /* Visits are periodic after at most `slots` steps, so walking
   * min(iters, 2 * slots) steps decides the question. */
  uint64_t steps = iters < 2ull * slots ? iters : 2ull * slots;
  uint32_t x = seed;
  for (uint64_t i = 0; i < steps; i++) {
    x = atl__lcg_next(x, slots);
    if (x == slot)
      return 1;
  }
  return 0;
}
