/* Two sets of rows paired by configuration, with a verdict that does not
 * read noise as change (compare.h; docs/design/decisions.md says why). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "atomlab/compare.h"

static const char *const verdict_names[ATL_VERDICT_COUNT] = {"same", "faster", "slower", "unclear", "n/a"};

const char *atl_verdict_name(enum atl_verdict v) { return (unsigned)v < ATL_VERDICT_COUNT ? verdict_names[v] : "?"; }

void atl_row_times(const struct atl_row *r, struct atl_row_times *t)
{
  memset(t, 0, sizeof *t);
  t->median = r->time_ms.median;
  t->q1 = r->time_ms.q1 > 0 ? r->time_ms.q1 : t->median;
  t->q3 = r->time_ms.q3 > 0 ? r->time_ms.q3 : t->median;
  /* The raw samples, where recorded, decide (the summary could be rounded or stale). */
  if (r->samples_ms && r->time_ms.samples) {
    struct atl_stats st;
    atl_stats_compute(r->samples_ms, r->time_ms.samples, &st);
    t->median = st.median;
    t->q1 = st.q1;
    t->q3 = st.q3;
    t->samples = r->time_ms.samples;
  }
  t->timed = r->status == ATL_STATUS_OK && t->median > 0 && t->q1 > 0 && t->q3 >= t->q1;
  t->spread = atl_row_metric(r, "repeat_spread", 0);
}

/* A difference beyond the threshold counts only where the IQR intervals are
 * apart and it exceeds the spread between repeats of either run (--repeat),
 * so neither noise within a row nor drift between passes reads as a change. */
static enum atl_verdict decide(const struct atl_row_times *a, const struct atl_row_times *b, double threshold,
                               double *ratio)
{
  *ratio = 0;
  if (!a->timed || !b->timed)
    return ATL_VERDICT_NA;
  *ratio = b->median / a->median;
  if (fabs(*ratio - 1) <= threshold)
    return ATL_VERDICT_SAME;
  if (fabs(*ratio - 1) <= (a->spread > b->spread ? a->spread : b->spread))
    return ATL_VERDICT_UNCLEAR;
  if (b->q3 < a->q1)
    return ATL_VERDICT_FASTER;
  if (b->q1 > a->q3)
    return ATL_VERDICT_SLOWER;
  return ATL_VERDICT_UNCLEAR;
}

static void add_flags(char *flags, size_t len, const char *side, const struct atl_row *r)
{
  size_t used = strlen(flags);
  if (r->status != ATL_STATUS_OK)
    snprintf(flags + used, len - used, "%s%s:%s", used ? "," : "", side, atl_status_name(r->status));
  else if (!r->verified)
    snprintf(flags + used, len - used, "%s%s:not-verified", used ? "," : "", side);
}

/* Whether two rows' atomic instructions differ, their counts aside ("REDG.E.ADD x5, ATOMG.E.CAS x1"):
 * what decides whether two backends or builds ran the same code. Unknown on either side is no difference. */
static int instructions_differ(const char *a, const char *b)
{
  if (!a[0] || !b[0] || strncmp(a, "unknown", 7) == 0 || strncmp(b, "unknown", 7) == 0)
    return 0;
  /* Vulkan rows name SPIR-V instructions (OpAtomicIAdd...), the driver's input, not its machine code: against
   * SASS they are two levels of one program, never a difference. */
  if ((strncmp(a, "OpAtomic", 8) == 0) != (strncmp(b, "OpAtomic", 8) == 0))
    return 0;
  for (int side = 0; side < 2; side++) /* every mnemonic of one is among the other's */
    for (const char *p = side ? b : a, *other = side ? a : b; *p;) {
      size_t n = strcspn(p, ","), m = n;
      while (m > 0 && p[m - 1] != 'x' && p[m - 1] != ' ')
        m--; /* " xN" off the end */
      m = m > 1 && p[m - 1] == 'x' && p[m - 2] == ' ' ? m - 2 : n;
      int found = 0;
      for (const char *q = other; *q && !found; q += strcspn(q, ","), q += *q == ',', q += *q == ' ')
        found = strncmp(q, p, m) == 0 && (q[m] == ' ' || q[m] == ',' || q[m] == '\0');
      if (!found)
        return 1;
      p += n;
      p += *p == ',';
      p += *p == ' ';
    }
  return 0;
}

/* The notes of a matched pair: each backend (or run) calibrates its own iteration count, and for some
 * patterns the count changes the experiment (docs/design/crosscheck.md): more than 25% apart is other work. */
static void add_notes(struct atl_compare_pair *p)
{
  const double ia = atl_row_metric(p->a, "iters", 0), ib = atl_row_metric(p->b, "iters", 0);
  if (instructions_differ(p->a->instructions, p->b->instructions))
    p->notes |= ATL_COMPARE_INSTRUCTIONS;
  if (ia > 0 && ib > 0 && (ia / ib > 1.25 || ib / ia > 1.25))
    p->notes |= ATL_COMPARE_ITERS;
  if ((p->a->status == ATL_STATUS_OK && p->a->time_ms.noisy) || (p->b->status == ATL_STATUS_OK && p->b->time_ms.noisy))
    p->notes |= ATL_COMPARE_NOISY;
  size_t used = strlen(p->flags);
  if (p->notes & ATL_COMPARE_INSTRUCTIONS)
    used += (size_t)snprintf(p->flags + used, sizeof p->flags - used, "%sinstructions-differ", used ? "," : "");
  if (p->notes & ATL_COMPARE_ITERS)
    used += (size_t)snprintf(p->flags + used, sizeof p->flags - used, "%siters-differ", used ? "," : "");
  if (p->notes & ATL_COMPARE_NOISY)
    snprintf(p->flags + used, sizeof p->flags - used, "%snoisy", used ? "," : "");
}

/* Whether the comma list @p list names @p name. */
static int list_has(const char *list, const char *name)
{
  const size_t len = strlen(name);
  for (const char *p = list; p && *p; p += *p == ',') {
    const size_t n = strcspn(p, ",");
    if (n == len && strncmp(p, name, n) == 0)
      return 1;
    p += n;
  }
  return 0;
}

/* The row's configuration key without the fields @p ignore names. */
static void match_key(const struct atl_row *r, const char *ignore, char *out, size_t len)
{
  struct atl_row kept = {0};
  for (unsigned i = 0; i < r->nconfig; i++)
    if (!list_has(ignore, r->config[i].name))
      kept.config[kept.nconfig++] = r->config[i];
  atl_row_key(&kept, out, len);
}

static void summarize(struct atl_comparison *c)
{
  double logsum = 0;
  for (size_t i = 0; i < c->count; i++) {
    const struct atl_compare_pair *p = &c->pairs[i];
    if (!p->b)
      c->only_a++;
    else if (!p->a)
      c->only_b++;
    else {
      c->counts[p->verdict]++;
      c->flagged += p->flagged;
      c->instructions_differ += (p->notes & ATL_COMPARE_INSTRUCTIONS) != 0;
      c->iters_differ += (p->notes & ATL_COMPARE_ITERS) != 0;
      c->noisy += (p->notes & ATL_COMPARE_NOISY) != 0;
      if (p->ta.timed && p->tb.timed) {
        logsum += log(p->ratio);
        c->timed++;
      }
    }
  }
  c->geomean = c->timed ? exp(logsum / (double)c->timed) : 0;
}

int atl_compare(const struct atl_result_set *a, const struct atl_result_set *b, double threshold, const char *ignore,
                struct atl_comparison *out)
{
  memset(out, 0, sizeof *out);
  out->threshold = threshold;
  out->pairs = calloc(a->count + b->count + 1, sizeof *out->pairs);
  char *taken = calloc(b->count + 1, 1);
  char(*keys)[640] = malloc((b->count + 1) * sizeof *keys);
  if (out->pairs == NULL || taken == NULL || keys == NULL) {
    free(taken);
    free(keys);
    atl_comparison_release(out);
    return ATL_ENOMEM;
  }
  for (size_t j = 0; j < b->count; j++)
    match_key(&b->rows[j], ignore, keys[j], sizeof keys[j]);
  for (size_t i = 0; i < a->count; i++) {
    struct atl_compare_pair *p = &out->pairs[out->count++];
    char key[640];
    p->a = &a->rows[i];
    atl_row_times(p->a, &p->ta);
    match_key(p->a, ignore, key, sizeof key);
    for (size_t j = 0; j < b->count && !p->b; j++)
      if (!taken[j] && strcmp(key, keys[j]) == 0) {
        taken[j] = 1;
        p->b = &b->rows[j];
      }
    if (p->b) {
      atl_row_times(p->b, &p->tb);
      p->verdict = decide(&p->ta, &p->tb, threshold, &p->ratio);
      /* two rows with no time and one status (unsupported against unsupported, or a model's derived row
       * against itself): the outcome did not change */
      if (!p->ta.timed && !p->tb.timed && p->a->status == p->b->status)
        p->verdict = ATL_VERDICT_SAME;
      add_flags(p->flags, sizeof p->flags, "A", p->a);
      add_flags(p->flags, sizeof p->flags, "B", p->b);
      p->flagged = p->flags[0] != '\0';
      add_notes(p);
    }
  }
  for (size_t j = 0; j < b->count; j++)
    if (!taken[j]) {
      struct atl_compare_pair *p = &out->pairs[out->count++];
      p->b = &b->rows[j];
      atl_row_times(p->b, &p->tb);
    }
  free(taken);
  free(keys);
  summarize(out);
  return 0;
}

void atl_comparison_release(struct atl_comparison *c)
{
  free(c->pairs);
  c->pairs = NULL;
  c->count = 0;
}
