/* atl_fleet_build (fleet.h): every node's result files read with the one reader, their rows turned into ops (one
 * rate of one configuration on one device model), and each op judged by the noise-aware band. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomlab.h"
#include "atomlab/fleet.h"

void atl_fleet_rule_init(struct atl_fleet_rule *rule)
{
  rule->k = ATL_FLEET_K;
  rule->noise_factor = ATL_FLEET_NOISE_FACTOR;
  rule->floor = ATL_FLEET_FLOOR;
}

static const char *const mark_names[ATL_FLEET_MARK_COUNT] = {"in", "slow", "fast", "failed", "unjudged", "none",
                                                              "missing"};

const char *atl_fleet_mark_name(enum atl_fleet_mark mark)
{
  return (unsigned)mark < ATL_FLEET_MARK_COUNT ? mark_names[mark] : "?";
}

int atl_fleet_mark_flagged(enum atl_fleet_mark mark)
{
  return mark == ATL_FLEET_SLOW || mark == ATL_FLEET_FAST || mark == ATL_FLEET_FAILED;
}

/* The measures of a row kind: a datasheet row holds two rates; the others' rate is taken from the first metric of
 * rates[] the row has, else the median time. */
struct measure {
  const char *kind, *metric, *noise; /* noise: the metric holding the rate's relative noise (NULL: the row's) */
};
static const struct measure datasheet_measures[] = {{"datasheet", "peak_gops", NULL},
                                                    {"datasheet", "same_address_gops", "same_address_noise"}};
static const char *const rates[] = {"gops", "gbps", "mkeys_per_s", "madds_per_s", "minserts_per_s", "mops_per_s"};

/* A row of a node that ran and failed, or did not run: it marks the node's cells of every op of its configuration
 * once all nodes are read (another node may give the op its measure later). */
struct pending {
  size_t node;
  enum atl_fleet_mark mark;
  char device[256], file[128], key[640];
};

struct build {
  struct atl_fleet *fl;
  struct pending *pending;
  size_t npending, cap;
  char *why;
  size_t why_len;
};

/* A name from a file into a field of its own length: cut where it is longer. */
static void copy(char *dst, size_t len, const char *src)
{
  snprintf(dst, len, "%.*s", (int)(len - 1), src);
}

static struct atl_fleet_op *find_op(struct atl_fleet *fl, const char *device, const char *file, const char *key,
                                    const char *measure)
{
  for (size_t i = 0; i < fl->nops; i++) {
    struct atl_fleet_op *op = &fl->ops[i];
    if (strcmp(op->key, key) == 0 && strcmp(op->file, file) == 0 && strcmp(op->device, device) == 0 &&
        (measure == NULL || strcmp(op->measure, measure) == 0))
      return op;
  }
  return NULL;
}

/* The op, added with every cell missing where it is new; NULL if out of memory. */
static struct atl_fleet_op *op_of(struct atl_fleet *fl, const char *device, const char *file, const char *key,
                                  const char *measure, int lower_better)
{
  struct atl_fleet_op *op = find_op(fl, device, file, key, measure);
  if (op)
    return op;
  if (fl->nops == fl->cap) {
    const size_t cap = fl->cap ? 2 * fl->cap : 64;
    struct atl_fleet_op *ops = realloc(fl->ops, cap * sizeof *ops);
    if (ops == NULL)
      return NULL;
    fl->ops = ops;
    fl->cap = cap;
  }
  op = &fl->ops[fl->nops];
  memset(op, 0, sizeof *op);
  if ((op->cells = calloc(fl->nnodes, sizeof *op->cells)) == NULL)
    return NULL;
  fl->nops++;
  for (size_t i = 0; i < fl->nnodes; i++)
    op->cells[i].mark = ATL_FLEET_MISSING;
  copy(op->device, sizeof op->device, device);
  copy(op->file, sizeof op->file, file);
  copy(op->key, sizeof op->key, key);
  copy(op->measure, sizeof op->measure, measure);
  op->lower_better = lower_better;
  return op;
}

static int set_cell(struct atl_fleet *fl, size_t node, const char *device, const char *file, const char *key,
                    const char *measure, int lower_better, double value, double noise)
{
  struct atl_fleet_op *op = op_of(fl, device, file, key, measure, lower_better);
  if (op == NULL)
    return ATL_ENOMEM;
  struct atl_fleet_cell *c = &op->cells[node];
  if (c->mark != ATL_FLEET_MISSING) /* a repeated configuration: its first row stands for the node */
    return 0;
  c->mark = ATL_FLEET_IN;
  c->value = value;
  c->noise = noise > 0 && isfinite(noise) ? noise : 0;
  return 0;
}

/* The values of one ok, verified row. */
static int take_row(struct build *b, size_t node, const char *device, const char *file, const struct atl_row *row,
                    const char *key)
{
  if (strcmp(row->kind, "datasheet") == 0) {
    for (size_t i = 0; i < sizeof datasheet_measures / sizeof datasheet_measures[0]; i++) {
      const struct measure *m = &datasheet_measures[i];
      const double v = atl_row_metric(row, m->metric, 0);
      const double noise = m->noise ? atl_row_metric(row, m->noise, 0) : row->time_ms.noise;
      if (v > 0 && set_cell(b->fl, node, device, file, key, m->metric, 0, v, noise) != 0)
        return ATL_ENOMEM;
    }
    return 0;
  }
  for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
    const double v = atl_row_metric(row, rates[i], 0);
    if (v > 0)
      return set_cell(b->fl, node, device, file, key, rates[i], 0, v, row->time_ms.noise);
  }
  if (row->time_ms.median > 0)
    return set_cell(b->fl, node, device, file, key, "median_ms", 1, row->time_ms.median, row->time_ms.noise);
  return 0;
}

static int add_pending(struct build *b, size_t node, const char *device, const char *file, const char *key,
                       enum atl_fleet_mark mark)
{
  if (b->npending == b->cap) {
    const size_t cap = b->cap ? 2 * b->cap : 16;
    struct pending *p = realloc(b->pending, cap * sizeof *p);
    if (p == NULL)
      return ATL_ENOMEM;
    b->pending = p;
    b->cap = cap;
  }
  struct pending *p = &b->pending[b->npending++];
  p->node = node;
  p->mark = mark;
  copy(p->device, sizeof p->device, device);
  copy(p->file, sizeof p->file, file);
  copy(p->key, sizeof p->key, key);
  return 0;
}

/* The failed and not-run rows: each marks the node's cells of its configuration's ops (a new op where no node
 * measured it, so a configuration that failed everywhere is still shown). */
static int resolve_pending(struct build *b)
{
  struct atl_fleet *fl = b->fl;
  for (size_t i = 0; i < b->npending; i++) {
    const struct pending *p = &b->pending[i];
    if (find_op(fl, p->device, p->file, p->key, NULL) == NULL &&
        op_of(fl, p->device, p->file, p->key, "median_ms", 1) == NULL)
      return ATL_ENOMEM;
    for (size_t k = 0; k < fl->nops; k++) {
      struct atl_fleet_op *op = &fl->ops[k];
      if (strcmp(op->key, p->key) == 0 && strcmp(op->file, p->file) == 0 && strcmp(op->device, p->device) == 0 &&
          op->cells[p->node].mark == ATL_FLEET_MISSING)
        op->cells[p->node].mark = p->mark;
    }
  }
  return 0;
}

static int take_set(struct build *b, size_t node, const char *file, const struct atl_result_set *set)
{
  const char *device = set->meta.device.name;
  for (size_t r = 0; r < set->count; r++) {
    const struct atl_row *row = &set->rows[r];
    char key[640];
    atl_row_key(row, key, sizeof key);
    int rc;
    if (row->status == ATL_STATUS_OK && !atl_row_failed(row))
      rc = take_row(b, node, device, file, row, key);
    else
      rc = add_pending(b, node, device, file, key,
                       row->status == ATL_STATUS_UNSUPPORTED || row->status == ATL_STATUS_SKIPPED ? ATL_FLEET_NONE
                                                                                                  : ATL_FLEET_FAILED);
    if (rc != 0)
      return rc;
  }
  return 0;
}

static int is_json_file(const struct dirent *e)
{
  const size_t n = strlen(e->d_name);
  return n > 5 && e->d_name[0] != '.' && strcmp(e->d_name + n - 5, ".json") == 0;
}

/* The result files of folder @p dir in name order; how many, or -1 where it cannot be read. */
static int list_json(const char *dir, struct dirent ***names)
{
  return scandir(dir, names, is_json_file, alphasort);
}

static void free_names(struct dirent **names, int n)
{
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

static int read_node(struct build *b, size_t node, const char *dir)
{
  struct atl_fleet_node *nd = &b->fl->nodes[node];
  char folder[4200];
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(b->why, b->why_len, "'%s' is not a folder (one folder of result files per node)", dir);
    return ATL_EINVAL;
  }
  struct dirent **names = NULL;
  snprintf(folder, sizeof folder, "%s", dir);
  int n = list_json(folder, &names);
  if (n == 0) { /* a report folder keeps its files in data/ */
    free_names(names, n);
    names = NULL;
    snprintf(folder, sizeof folder, "%s/data", dir);
    n = stat(folder, &st) == 0 && S_ISDIR(st.st_mode) ? list_json(folder, &names) : 0;
  }
  if (n <= 0) {
    free_names(names, n > 0 ? n : 0);
    snprintf(b->why, b->why_len, "'%s' holds no result files (*.json, or data/*.json of a report folder)", dir);
    return ATL_EINVAL;
  }
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    char path[4500], why[1200];
    snprintf(path, sizeof path, "%s/%s", folder, names[i]->d_name);
    struct atl_result_set set;
    if (atl_read_json(path, &set, why, sizeof why) != 0) {
      snprintf(b->why, b->why_len, "%s", why);
      rc = ATL_EINVAL;
      break;
    }
    if (nd->files++ == 0)
      copy(nd->device, sizeof nd->device, set.meta.device.name);
    nd->rows += set.count;
    rc = take_set(b, node, names[i]->d_name, &set);
    atl_result_set_release(&set);
    if (rc == ATL_ENOMEM)
      snprintf(b->why, b->why_len, "out of memory");
  }
  free_names(names, n);
  return rc;
}

static int cmp_double(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of @p n values, sorting them. */
static double median_of(double *v, size_t n)
{
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median and MAD of the op's values, then each value against its band. */
static void judge(struct atl_fleet *fl, struct atl_fleet_op *op, double *scratch)
{
  const struct atl_fleet_rule *r = &fl->rule;
  size_t n = 0;
  for (size_t i = 0; i < fl->nnodes; i++)
    if (op->cells[i].mark == ATL_FLEET_IN)
      scratch[n++] = op->cells[i].value;
  op->values = n;
  if (n > 0) {
    op->median = median_of(scratch, n);
    for (size_t i = 0; i < n; i++)
      scratch[i] = fabs(scratch[i] - op->median);
    op->mad = median_of(scratch, n);
  }
  const double m = op->median;
  for (size_t i = 0; i < fl->nnodes; i++) {
    struct atl_fleet_cell *c = &op->cells[i];
    if (c->mark != ATL_FLEET_IN)
      continue;
    c->deviation = m > 0 ? (c->value - m) / m : 0;
    if (n < ATL_FLEET_MIN_NODES || !(m > 0)) {
      c->mark = ATL_FLEET_UNJUDGED;
      continue;
    }
    c->band = fmax(r->k * 1.4826 * op->mad / m, fmax(r->noise_factor * c->noise, r->floor));
    if (fabs(c->deviation) > c->band)
      c->mark = (c->deviation < 0) != (op->lower_better != 0) ? ATL_FLEET_SLOW : ATL_FLEET_FAST;
  }
  for (size_t i = 0; i < fl->nnodes; i++) {
    const struct atl_fleet_cell *c = &op->cells[i];
    if (!atl_fleet_mark_flagged(c->mark))
      continue;
    op->flagged++;
    fl->flagged++;
    struct atl_fleet_node *nd = &fl->nodes[i];
    nd->flagged++;
    if (c->mark != ATL_FLEET_FAILED && fabs(c->deviation) > fabs(nd->worst))
      nd->worst = c->deviation;
  }
}

/* The folder's last component, trailing slashes left out. */
static void base_name(const char *dir, char *out, size_t len)
{
  size_t end = strlen(dir), start;
  while (end > 1 && dir[end - 1] == '/')
    end--;
  for (start = end; start > 0 && dir[start - 1] != '/';)
    start--;
  snprintf(out, len, "%.*s", (int)(end - start), dir + start);
}

static int start_nodes(struct atl_fleet *fl, const char *const *dirs, size_t ndirs, char *why, size_t why_len)
{
  if ((fl->nodes = calloc(ndirs, sizeof *fl->nodes)) == NULL) {
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  fl->nnodes = ndirs;
  for (size_t i = 0; i < ndirs; i++) {
    snprintf(fl->nodes[i].dir, sizeof fl->nodes[i].dir, "%s", dirs[i]);
    base_name(dirs[i], fl->nodes[i].name, sizeof fl->nodes[i].name);
    for (size_t j = 0; j < i; j++)
      if (strcmp(fl->nodes[i].name, fl->nodes[j].name) == 0) {
        snprintf(why, why_len, "'%s' and '%s' both name node '%s' (a node is its folder's name)", dirs[j], dirs[i],
                 fl->nodes[i].name);
        return ATL_EINVAL;
      }
  }
  return 0;
}

int atl_fleet_build(const char *const *dirs, size_t ndirs, const struct atl_fleet_rule *rule, struct atl_fleet *out,
                    char *why, size_t why_len)
{
  memset(out, 0, sizeof *out);
  if (rule)
    out->rule = *rule;
  else
    atl_fleet_rule_init(&out->rule);
  if (ndirs == 0) {
    snprintf(why, why_len, "no node folders: give one folder of result files per node");
    return ATL_EINVAL;
  }
  struct build b = {.fl = out, .why = why, .why_len = why_len};
  int rc = start_nodes(out, dirs, ndirs, why, why_len);
  for (size_t i = 0; i < ndirs && rc == 0; i++)
    rc = read_node(&b, i, dirs[i]);
  if (rc == 0 && (rc = resolve_pending(&b)) != 0)
    snprintf(why, why_len, "out of memory");
  free(b.pending);
  double *scratch = rc == 0 ? malloc(ndirs * sizeof *scratch) : NULL;
  if (rc == 0 && scratch == NULL) {
    snprintf(why, why_len, "out of memory");
    rc = ATL_ENOMEM;
  }
  for (size_t i = 0; i < out->nops && rc == 0; i++)
    judge(out, &out->ops[i], scratch);
  free(scratch);
  for (size_t i = 0; i < out->nnodes && rc == 0; i++) {
    int seen = 0;
    for (size_t j = 0; j < i && !seen; j++)
      seen = strcmp(out->nodes[i].device, out->nodes[j].device) == 0;
    out->devices += !seen;
    out->flagged_nodes += out->nodes[i].flagged > 0;
  }
  if (rc != 0)
    atl_fleet_release(out);
  return rc;
}

void atl_fleet_release(struct atl_fleet *fleet)
{
  for (size_t i = 0; i < fleet->nops; i++)
    free(fleet->ops[i].cells);
  free(fleet->ops);
  free(fleet->nodes);
  memset(fleet, 0, sizeof *fleet);
}
