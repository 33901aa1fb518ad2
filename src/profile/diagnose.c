/*
 * The diagnosis pipeline (include/atomlab/diagnose.h): the launches of one export, each judged by the
 * shared-memory model (where a calibration table is given) and the L2 model, with the float and CAS shares
 * from the SASS, into rows of kind "diagnosis" whose advice is data: the strategy, the atomlab call that
 * realizes it, the predicted speedup or its floor. Printing is the caller's (atl_diagnosis_advice_text).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomlab/diagnose.h"
#include "atomlab/error.h"
#include "atomlab/row_layout.h"
#include "call_price.h"
#include "profile_internal.h"

/* The atomlab call for a user op (the NVTX range's op) by the access the counters show: the op's own call. The
 * scatters take auto on hot words too: it was faster than block on every key law measured (H200, 16.8 M float adds
 * on one key: auto 0.064 ms, block 1.65 ms; zipf keys 0.16 against 0.66 ms; uniform 0.20 against 3.41 ms:
 * results/reference/nvidia-h200/diagnose-prereg-measure/measured.json). */
static const struct op_call {
  const char *op;        /* a part of the op's name */
  const char *family;
  const char *hot, *spread; /* the call for hot words, for requests spread over the slices */
} op_calls[] = {
    {"scatter_reduce", "scatter_reduce", "atl_scatter_reduce", "atl_scatter_reduce"},
    {"amax", "scatter_reduce", "atl_scatter_reduce", "atl_scatter_reduce"},
    {"amin", "scatter_reduce", "atl_scatter_reduce", "atl_scatter_reduce"},
    {"bincount", "bincount", "atl_scatter_add bins", "atl_scatter_add bins"},
    {"histc", "histc", "atl_scatter_add bins", "atl_scatter_add bins"},
    {"index_add", "index_add", "atl_scatter_add auto", "atl_scatter_add auto"},
    {"scatter_add", "scatter_add", "atl_scatter_add auto", "atl_scatter_add auto"},
    {"index_put", "index_put", "atl_scatter_add auto", "atl_scatter_add auto"},
    {"embedding", "embedding_backward", "atl_scatter_add auto", "atl_scatter_add auto"},
};

static const struct op_call *op_of(const char *source)
{
  char op[128];
  snprintf(op, sizeof op, "%.*s", (int)strcspn(source, "@"), source);
  for (size_t i = 0; op[0] && i < sizeof op_calls / sizeof *op_calls; i++)
    if (strstr(op, op_calls[i].op))
      return &op_calls[i];
  return NULL;
}

static const char *call_of(const char *strategy, const struct op_call *op, int hot, const char *source)
{
  if (op) {
    if (strcmp(op->family, "scatter_reduce") == 0)
      return strstr(source, "amin") || strstr(source, "(min") ? "atl_scatter_reduce min" : "atl_scatter_reduce max";
    return hot ? op->hot : op->spread;
  }
  return atl_advice_call(strategy); /* where the op is not known: the strategy's own call */
}

/* What one launch's models said. */
struct judged {
  int l2, smem;                    /* each model ran on this launch */
  struct atl_l2_util u2;
  const struct atl_l2_counters *k2;
  struct atl_smem_kernel_util *ks;
  struct atl_smem_advice sa;
  const char *v2, *vs;
  int no_gain; /* the L2's units saturated, no strategy predicted faster (spread requests, one per update) */
  struct atl__call_price price; /* the op's atomlab call priced on the launch (priced 0: op or table unknown) */
  int slow_call;   /* a bottleneck whose atomlab call is predicted less than the faster margin */
  int call_faster; /* not a bottleneck, yet the op's call is predicted faster: the op is slow for other reasons */
};

static const char *l2_verdict(const struct atl_l2_util *u, double threshold)
{
  if (u->access == ATL_L2_NONE)
    return "no atomics";
  return u->u >= threshold ? "bottleneck" : "not a bottleneck";
}

static int is_bad(const char *v) { return v && (strcmp(v, "bottleneck") == 0 || strcmp(v, "bound") == 0); }

/*
 * The L2 advice of a bottleneck: the best priced strategy where the calibration prices them (atl_l2_predict);
 * else a floor: the hot slice's atomic time U of the launch shrinks at least by the lanes a request carries
 * (warp aggregation sends one request where the lanes on a word sent one each), the rest of the launch stays.
 */
static int l2_advice(const struct atl_l2_calibration *cal, const struct judged *j, struct atl_row *row)
{
  const struct atl_l2_counters *k = j->k2;
  struct atl_l2_prediction p = {0};
  const int hot = j->u2.access == ATL_L2_HOT;
  if (cal && hot)
    atl_l2_predict(cal, k, &j->u2, &p);
  const struct atl_l2_advice *advice = atl_l2_advice_of(j->u2.access);
  const char *strategy = advice ? advice->strategies[0]->name : "";
  double speedup;
  if (p.count) {
    strategy = p.s[0].name;
    speedup = p.s[0].speedup;
    atl_row_config_set(row, "speedup_kind", "predicted");
  } else {
    const double warp = k->warp_size > 0 ? k->warp_size : 32;
    double lanes = k->block_size > 0 && k->block_size < warp ? k->block_size : warp;
    if (k->l1_requests > 0 && k->l1_set_accesses > 0)
      lanes = fmin(fmax(k->l1_set_accesses / k->l1_requests, 1), warp);
    if (!hot) /* spread requests: privatization sends one flush per block and word; not counted: no reduction */
      lanes = 1;
    const double u = fmin(fmax(j->u2.u, 0), 1);
    speedup = 1 / ((1 - u) + u / lanes);
    if (!(speedup > 1)) /* no request saved: no strategy is predicted faster than the launch */
      return 0;
    atl_row_config_set(row, "speedup_kind", "floor");
  }
  atl_row_config_set(row, "strategy", strategy);
  const char *src = atl_row_config(row, "source");
  atl_row_config_set(row, "call", call_of(strategy, op_of(src ? src : ""), hot, src ? src : ""));
  atl_row_metric_set(row, "speedup", speedup);
  return 1;
}

static void smem_advice(const struct judged *j, struct atl_row *row)
{
  const char *src = atl_row_config(row, "source");
  atl_row_config_set(row, "strategy", j->sa.strategy ? j->sa.strategy : "");
  atl_row_config_set(row, "call", j->sa.strategy ? call_of(j->sa.strategy, op_of(src ? src : ""), 1, src ? src : "") : "");
  atl_row_config_set(row, "speedup_kind", "predicted");
  atl_row_metric_set(row, "speedup", j->sa.speedup);
}

/* The op's atomlab call priced on the launch; nothing priced where the op or the L2 counters are not known. */
static void price_of(const struct atl_diagnose_input *in, struct judged *j, const char *src, int smem_hot)
{
  const struct op_call *op = op_of(src);
  memset(&j->price, 0, sizeof j->price);
  if (op && j->k2)
    atl__call_price(NULL, NULL, call_of("", op, j->u2.access == ATL_L2_HOT, src), j->k2, &j->u2, smem_hot, in->l2,
                    &j->price);
}

static double price_speedup(const struct judged *j) { return j->k2->duration_ns / j->price.call_ns; }

/* A bottleneck's speedup: the launch's time over its call's price where priced, the strategy's figure kept beside. */
static void apply_price(struct atl_row *row, const struct judged *j)
{
  if (!j->price.priced)
    return;
  const char *k = atl_row_config(row, "speedup_kind");
  char kind[16];
  snprintf(kind, sizeof kind, "%s", k ? k : "");
  atl_row_metric_set(row, "strategy_speedup", atl_row_metric(row, "speedup", 0));
  atl_row_config_set(row, "strategy_speedup_kind", kind);
  atl_row_config_set(row, "speedup_kind", "predicted");
  atl_row_metric_set(row, "speedup", price_speedup(j));
  atl_row_metric_set(row, "call_us", j->price.call_ns / 1e3);
}

/* Not a bottleneck, yet the op's call is predicted faster by the margin on a launch whose atomics are its job: the
 * call is advised, the finding saying the op is slow for reasons other than the atomic units. */
static void call_faster(struct atl_row *row, struct judged *j)
{
  if (!j->price.priced || !atl__call_launch_is_job(j->k2) || price_speedup(j) < j->price.faster)
    return;
  const char *src = atl_row_config(row, "source");
  atl_row_config_set(row, "finding", "call faster");
  atl_row_config_set(row, "call", call_of("", op_of(src ? src : ""), j->u2.access == ATL_L2_HOT, src ? src : ""));
  atl_row_config_set(row, "speedup_kind", "predicted");
  atl_row_metric_set(row, "speedup", price_speedup(j));
  atl_row_metric_set(row, "call_us", j->price.call_ns / 1e3);
  j->call_faster = 1;
}

/* The row's models, verdict and advice; the model whose bottleneck is the larger U speaks. */
static void judge_row(const struct atl_diagnose_input *in, const struct atl_smem_settings *st, struct judged *j,
                      struct atl_row *row)
{
  if (j->smem) {
    const struct atl_smem_unit *u = &j->ks->util.unit;
    atl_row_metric_set(row, "u_smem", u->u);
    atl_row_metric_set(row, "u_smem_low", u->u_lo);
    atl_row_metric_set(row, "u_smem_high", u->u_hi);
    j->vs = atl_smem_unit_verdict(u, st->threshold);
    atl_smem_advise(&j->ks->util, &j->ks->counters, st->variant, st->threshold, st->dram_achievable, &j->sa);
  }
  if (j->l2) {
    atl_row_metric_set(row, "u_l2", j->u2.u);
    atl_row_metric_set(row, "u_l2_low", j->u2.u_low);
    atl_row_metric_set(row, "u_l2_high", j->u2.u_high);
    atl_row_config_set(row, "access", atl_l2_access_name(j->u2.access));
    j->v2 = l2_verdict(&j->u2, st->threshold);
  }
  const int bad2 = is_bad(j->v2), bads = is_bad(j->vs);
  const int l2_speaks = bad2 && (!bads || j->u2.u >= j->ks->util.unit.u);
  const char *src = atl_row_config(row, "source");
  price_of(in, j, src ? src : "", !l2_speaks && bads);
  j->slow_call = (l2_speaks || bads) && j->price.priced && price_speedup(j) < j->price.faster;
  if (j->slow_call) { /* a verdict names a bottleneck a call removes: the op's call is predicted no faster */
    atl_row_config_set(row, "verdict", "not a bottleneck");
    atl_row_config_set(row, "model", l2_speaks ? "l2" : "smem");
  } else if (l2_speaks && l2_advice(in->l2, j, row)) {
    atl_row_config_set(row, "verdict", j->v2);
    atl_row_config_set(row, "model", "l2");
    apply_price(row, j);
  } else if (l2_speaks) { /* saturated, yet no fix is predicted: a verdict names a bottleneck a call removes */
    atl_row_config_set(row, "verdict", "not a bottleneck");
    atl_row_config_set(row, "model", "l2");
    j->no_gain = 1;
    call_faster(row, j);
  } else if (bads) {
    atl_row_config_set(row, "verdict", j->vs);
    atl_row_config_set(row, "model", "smem");
    smem_advice(j, row);
    apply_price(row, j);
  } else {
    const int any = (j->v2 && strcmp(j->v2, "no atomics") != 0) || (j->vs && j->ks->util.jobs > 0);
    atl_row_config_set(row, "verdict", any ? "not a bottleneck" : "no atomics");
    atl_row_config_set(row, "model", j->l2 ? "l2" : j->smem ? "smem" : "");
    if (any)
      call_faster(row, j);
  }
}

/* The row's launch, source, device and instruction shares. */
static void start_row(struct atl_row *row, const struct atl__launch *l, const struct atl_sass_atomics *sa, int have_sass)
{
  atl_row_init(row, "diagnosis");
  row->status = ATL_STATUS_OK;
  atl_row_config_set(row, "id", l->id);
  atl_row_config_set(row, "kernel", l->kernel);
  atl_row_config_set(row, "source", l->nvtx);
  const struct op_call *op = op_of(l->nvtx);
  atl_row_config_set(row, "op", op ? op->family : "");
  atl_row_config_set(row, "device", l->device_name[0] ? l->device_name : l->device);
  if (have_sass && sa->global) {
    atl_row_metric_set(row, "f32_share", (double)sa->f32_add / sa->global);
    atl_row_metric_set(row, "cas_share", (double)sa->cas / sa->global);
  }
}

/* How a hot launch's float adds were priced where the device has no f32 same-word calibration: never the integer
 * cost without saying so ("" where no float adds on hot words, or the f32 calibration priced them). */
static void float_note(const struct atl_l2_calibration *cal, const struct judged *j, char *buf, size_t len)
{
  buf[0] = '\0';
  if (!cal || !j->k2 || j->u2.access != ATL_L2_HOT || !(j->k2->f32_share > 0) ||
      (cal->s_same_f32[ATL_L2_ATOM] > 0 && cal->s_same_f32[ATL_L2_RED] > 0))
    return;
  if (atl_l2_f32_ratio_priced(cal, j->k2, &j->u2))
    snprintf(buf, len, "float adds priced from %.200s, no f32 calibration of this device", cal->f32_rule);
  else
    snprintf(buf, len, "float adds priced as integer adds, no f32 calibration of this device: %.200s",
             cal->f32_rule[0] ? cal->f32_rule : "no ratio looked up");
}

/* What the call's price did to the verdict, in words ("" where nothing). */
static void verdict_note(const struct judged *j, char *buf, size_t len)
{
  const int smem = is_bad(j->vs) && !(is_bad(j->v2) && j->u2.u >= j->ks->util.unit.u);
  if (j->slow_call)
    snprintf(buf, len, "the atomic units are busy (U %.2f), but atomlab's call is predicted only %.2fx (under %gx): "
             "not a bottleneck a call removes", smem ? j->ks->util.unit.u : j->u2.u, price_speedup(j), j->price.faster);
  else if (j->call_faster)
    snprintf(buf, len, "not the atomic units (U %.2f): the op is slow for other reasons; atomlab's call is predicted "
             "%.2fx faster", j->u2.u, price_speedup(j));
}

struct parsed {
  struct atl__launch *launches;
  size_t count;
  struct atl_l2_report l2;
  int have_l2;
  struct atl_ncu_report rep;
  struct atl_smem_util_set set;
  int have_smem;
};

static void parsed_release(struct parsed *p)
{
  free(p->launches);
  if (p->have_l2)
    atl_l2_report_release(&p->l2);
  if (p->have_smem) {
    atl_smem_util_set_release(&p->set);
    atl_ncu_report_release(&p->rep);
  }
}

/* Both models' readers and the launches' on the one parsed export; a model that cannot read it leaves a note. */
static int parse(const struct atl_diagnose_input *in, const struct atl_ncu_export *e, const struct atl_smem_settings *st,
                 struct parsed *p, char *note, size_t note_len, char *why, size_t why_len)
{
  memset(p, 0, sizeof *p);
  int err = atl__launches_from_export(e, &p->launches, &p->count, why, why_len);
  if (err)
    return err;
  char w[300];
  p->have_l2 = atl_l2_report_from_export(e, &p->l2, w, sizeof w) == 0;
  if (!p->have_l2)
    snprintf(note, note_len, "no L2 model: %.150s", w);
  else if (in->types && (err = atl_l2_types_apply(&p->l2, in->types, "types", why, why_len)) != 0)
    return err;
  if (!in->table) {
    size_t n = strlen(note);
    snprintf(note + n, note_len - n, "%sno shared-memory table: the shared-memory model was skipped", n ? "; " : "");
    return 0;
  }
  if (atl_ncu_report_from_export(e, st->warps_per_sm, st->sm_count, &p->rep, w, sizeof w) != 0) {
    size_t n = strlen(note);
    snprintf(note + n, note_len - n, "%sno shared-memory model: %.150s", n ? "; " : "", w);
    return 0;
  }
  if (atl_smem_util_derive(in->table, st, &p->rep, &p->set) != 0) {
    atl_ncu_report_release(&p->rep);
    snprintf(why, why_len, "out of memory");
    return ATL_ENOMEM;
  }
  p->have_smem = 1;
  return 0;
}

int atl_diagnose_export(const struct atl_diagnose_input *in, const struct atl_ncu_export *counters,
                        struct atl_result_set *out, char *why, size_t why_len)
{
  struct atl_smem_settings st;
  atl_smem_settings_init(&st);
  if (in->settings)
    st = *in->settings;
  char note[384] = "";
  struct parsed p;
  int err = parse(in, counters, &st, &p, note, sizeof note, why, why_len);
  for (size_t i = 0; err == 0 && i < p.count; i++) {
    const struct atl__launch *l = &p.launches[i];
    struct judged j = {0};
    struct atl_l2_counters *k2 = NULL;
    for (size_t k = 0; p.have_l2 && k < p.l2.count && !k2; k++)
      if (strcmp(p.l2.kernels[k].id, l->id) == 0)
        k2 = &p.l2.kernels[k];
    j.k2 = k2;
    for (size_t k = 0; p.have_smem && k < p.set.count && !j.ks; k++)
      if (strcmp(p.set.kernels[k].counters.id, l->id) == 0 && p.set.kernels[k].err == 0)
        j.ks = &p.set.kernels[k];
    /* the float share by the rule the L2 table's launches take too (atl_diagnose_float_shares) */
    struct atl_float_share fs;
    memset(&fs, 0, sizeof fs);
    if (k2)
      atl_diagnose_float_share(k2, in->sass, in->types != NULL, in->l2, st.threshold, &fs);
    else if (in->sass)
      fs.have_sass = atl_sass_atomics_of(in->sass, l->kernel, &fs.sass);
    struct atl_row row;
    start_row(&row, l, &fs.sass, fs.have_sass);
    char assumed[160] = "";
    if (j.k2) {
      j.u2 = fs.u;
      if (fs.source == ATL_FLOAT_TIME)
        snprintf(assumed, sizeof assumed, "type not known (no --sass, no --types): float adds assumed, the launch's "
                 "time holds their price (U %.2f; integer adds %.2f)", j.u2.u, fs.u_integer);
      atl_row_metric_set(&row, "duration_us", j.k2->duration_ns / 1e3);
      atl_row_metric_set(&row, "f32_share", j.k2->f32_share);
    }
    j.l2 = j.k2 != NULL;
    j.smem = j.ks != NULL;
    judge_row(in, &st, &j, &row);
    const struct op_call *op = op_of(l->nvtx);
    if (op) /* the family's own call whatever the verdict: what a "not a bottleneck" is checked against */
      atl_row_config_set(&row, "op_call", call_of("", op, j.l2 && j.u2.access == ATL_L2_HOT, l->nvtx));
    char floats[384];
    float_note(in->l2, &j, floats, sizeof floats);
    char gain[160] = "";
    if (j.no_gain && !j.call_faster)
      snprintf(gain, sizeof gain, "the L2's atomic units are saturated (U %.2f, %s), but no strategy sends fewer "
               "requests: none is predicted faster", j.u2.u, atl_l2_access_name(j.u2.access));
    verdict_note(&j, gain, sizeof gain);
    const int bad = is_bad(atl_row_config(&row, "verdict"));
    const char *priced = bad || j.slow_call || j.call_faster ? j.price.note : "";
    const char *const parts[] = {gain, priced, assumed, floats,
                                 !in->l2 && j.l2 ? "no L2 calibration: U is the atomic input's share" : "",
                                 note}; /* the launch's own first: the reason is cut at its length */
    for (size_t p = 0, n = 0; p < sizeof parts / sizeof *parts; p++)
      if (parts[p][0] && n + 3 < sizeof row.reason)
        n += (size_t)snprintf(row.reason + n, sizeof row.reason - n, "%s%s", n ? "; " : "", parts[p]);
    if ((err = atl_result_set_add(out, &row)) != 0)
      snprintf(why, why_len, "out of memory");
  }
  parsed_release(&p);
  return err;
}

char *atl_diagnosis_advice_text(const struct atl_row *row, char *buf, size_t len)
{
  const char *strategy = atl_row_config(row, "strategy"), *call = atl_row_config(row, "call");
  const char *src = atl_row_config(row, "source"), *kind = atl_row_config(row, "speedup_kind");
  const char *kernel = atl_row_config(row, "kernel");
  const char *finding = atl_row_config(row, "finding");
  const int faster = finding && strcmp(finding, "call faster") == 0 && call && call[0];
  if (len)
    buf[0] = '\0';
  if ((!strategy || !strategy[0]) && !faster)
    return buf;
  char where[160];
  const char *at = src ? strchr(src, '@') : NULL;
  if (at)
    snprintf(where, sizeof where, "%.*s at %s", (int)(at - src), src, at + 1);
  else
    snprintf(where, sizeof where, "%.60s", kernel ? kernel : "?");
  const double s = atl_row_metric(row, "speedup", 0);
  const int floor = kind && strcmp(kind, "floor") == 0;
  if (faster) {
    snprintf(buf, len, "%s -> atomlab %s (not the atomic units: the op is slow for other reasons; predicted %.3gx)",
             where, call, s);
    return buf;
  }
  snprintf(buf, len, "%s -> atomlab %s (%s; %s %.3gx)", where, call && call[0] ? call : strategy, strategy,
           floor ? "floor: at least" : "predicted", s);
  return buf;
}

int atl_diagnose(const struct atl_diagnose_input *in, struct atl_result_set *out, char *why, size_t why_len)
{
  struct atl_ncu_export *e;
  int err = atl_ncu_export_parse(in->counters, in->name ? in->name : "ncu export", &e, why, why_len);
  if (err == 0)
    err = atl_diagnose_export(in, e, out, why, why_len);
  atl_ncu_export_free(e);
  return err;
}

int atl_diagnose_device_of(const struct atl_ncu_export *counters, char *name, size_t len)
{
  struct atl__launch *l = NULL;
  size_t n = 0;
  char why[256];
  const int err = atl__launches_from_export(counters, &l, &n, why, sizeof why);
  if (len)
    snprintf(name, len, "%s", err == 0 && n ? l[0].device_name : "");
  free(l);
  return err;
}

int atl_diagnose_device(const char *counters, char *name, size_t len)
{
  struct atl_ncu_export *e;
  char why[256];
  int err = atl_ncu_export_parse(counters, "ncu export", &e, why, sizeof why);
  if (err == 0)
    err = atl_diagnose_device_of(e, name, len);
  else if (len)
    name[0] = '\0';
  atl_ncu_export_free(e);
  return err;
}

int atl_diagnose_table_for(const char *device_name, char *path, size_t len)
{
  struct atl_device_info info;
  memset(&info, 0, sizeof info);
  snprintf(info.name, sizeof info.name, "%s", device_name ? device_name : "");
  char slug[160];
  atl_device_slug(&info, slug, sizeof slug);
  return slug[0] ? atl_smem_table_find(slug, path, len) : ATL_EINVAL;
}

static int is_file(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int atl_diagnose_l2_file_for(const char *device_name, const char *file, char *path, size_t len)
{
  struct atl_device_info info;
  memset(&info, 0, sizeof info);
  snprintf(info.name, sizeof info.name, "%s", device_name ? device_name : "");
  char slug[160], dir[4096];
  atl_device_slug(&info, slug, sizeof slug);
  int n = -1;
  if (slug[0] && atl_cache_dir(slug, dir, sizeof dir) == 0)
    n = snprintf(path, len, "%s/%s", dir, file);
  if (n > 0 && (size_t)n < len && is_file(path))
    return 0;
  if (slug[0] && atl_smem_table_find(slug, dir, sizeof dir) == 0) { /* the shipped folder of the device's table */
    char *slash = strrchr(dir, '/');
    n = slash ? snprintf(path, len, "%.*s/%s", (int)(slash - dir), dir, file) : -1;
    if (n > 0 && (size_t)n < len && is_file(path))
      return 0;
  }
  if (len)
    *path = '\0';
  return ATL_EINVAL;
}
