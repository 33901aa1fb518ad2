/*
 * The runs of `atomlab profile`: ncu found, asked which metrics it offers,
 * run over the program with the model's metrics (shared-memory and L2), and
 * its report exported as CSV, all in a temporary folder that is gone when
 * this returns, within one time bound for every run together. The caller
 * parses the export and prints; this says what happened and shows nothing
 * itself (notes go through the caller's notify).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomlab/error.h"
#include "atomlab/file.h"
#include "atomlab/l2model.h"
#include "atomlab/model.h"
#include "atomlab/process.h"
#include "atomlab/stop.h"

int atl_ncu_find(const char *given, char *path, size_t len)
{
  if (given) {
    snprintf(path, len, "%s", given);
    return access(path, X_OK);
  }
  const char *env = getenv("NCU");
  if (env && *env) {
    snprintf(path, len, "%s", env);
    return access(path, X_OK);
  }
  const char *p = getenv("PATH");
  while (p && *p) {
    const char *end = strchr(p, ':');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    snprintf(path, len, "%.*s/ncu", (int)n, p);
    if (n && access(path, X_OK) == 0)
      return 0;
    p = end ? end + 1 : NULL;
  }
  snprintf(path, len, "/usr/local/cuda/bin/ncu");
  return access(path, X_OK);
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One profile in progress: its folder, its files and the deadline every run shares. */
struct run {
  const struct atl_ncu_profile *p;
  struct atl_ncu_profile_outcome *out;
  double deadline;
  char dir[4096];
};

/* Runs argv, stdout to @p out_name in the folder (NULL: inherited), stderr to @p err_name, within what is left of
 * the time bound; as atl_spawn returns. */
static int spawn(const struct run *r, char *const *argv, const char *out_name, const char *err_name)
{
  char out_path[4200], err_path[4200];
  double left = r->p->timeout > 0 ? r->deadline - now_s() : 0;
  if (r->p->timeout > 0 && left <= 0)
    return ATL_SPAWN_TIMEOUT;
  snprintf(out_path, sizeof out_path, "%s/%s", r->dir, out_name ? out_name : "");
  snprintf(err_path, sizeof err_path, "%s/%s", r->dir, err_name);
  return atl_spawn(argv[0], argv, &(struct atl_spawn_io){.out = out_name ? out_path : NULL, .err = err_path,
                                                         .timeout = left});
}

/* The text of @p name in the folder (at most @p limit bytes), or NULL. */
static char *read_back(const struct run *r, const char *name, size_t limit)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", r->dir, name);
  return atl_file_read_text(path, limit);
}

/* Whether a run stopped for a signal or the time bound; if so the outcome says so and during what. */
static int stopped(const struct run *r, int rc, const char *during)
{
  r->out->signal = atl_stop_requested();
  r->out->timed_out = !r->out->signal && rc == ATL_SPAWN_TIMEOUT;
  if (!r->out->signal && !r->out->timed_out)
    return 0;
  r->out->during = during;
  return 1;
}

/* A failed run: its exit status, what it was, and the last words of its stderr file @p err_name. */
static int failed(const struct run *r, int rc, const char *during, const char *err_name)
{
  r->out->rc = rc;
  r->out->during = during;
  char *text = read_back(r, err_name, (size_t)1 << 24);
  if (text) {
    size_t len = strlen(text);
    const char *start = len > 1500 ? text + len - 1500 : text;
    r->out->tail = malloc(strlen(start) + 2);
    if (r->out->tail)
      sprintf(r->out->tail, "%s%s", start, len && text[len - 1] != '\n' ? "\n" : "");
    free(text);
  }
  return ATL_EIO;
}

static void note(const struct run *r, enum atl_ncu_note kind, const char *text)
{
  if (r->p->notify)
    r->p->notify(r->p->arg, kind, text);
}

/* The L2 atomic model's counters (the library's list), appended to ncu's metric list where this ncu lists
 * them (all of them when the listing could not be read); the model says which are missing after the run. */
static void add_l2_metrics(const char *listing, char *metrics, size_t len)
{
  size_t n;
  const char *const *want = atl_l2_metric_names(&n);
  for (size_t i = 0; i < n; i++) {
    char base[64];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(want[i], "."), want[i]);
    size_t used = strlen(metrics);
    if ((listing == NULL || atl_ncu_listed(listing, base)) && strstr(metrics, want[i]) == NULL &&
        used + strlen(want[i]) + 2 < len)
      snprintf(metrics + used, len - used, "%s%s", used ? "," : "", want[i]);
  }
}

/* The metrics to ask for, from what `ncu --query-metrics` lists (all first candidates where it could not say). */
static int pick_metrics(struct run *r, char *metrics, size_t len, char *why, size_t why_len)
{
  char *qargv[] = {(char *)r->p->ncu, "--query-metrics", NULL};
  int rc = spawn(r, qargv, "query.txt", "query.err");
  if (stopped(r, rc, "'ncu --query-metrics'"))
    return ATL_EINTR;
  char *listing = rc == 0 ? read_back(r, "query.txt", (size_t)1 << 26) : NULL;
  if (listing && !atl_ncu_listed(listing, "sm__cycles_active")) {
    /* a listing that lacks even this basic metric is in a form we do not read: ask for the first candidates */
    note(r, ATL_NCU_NOTE, "'ncu --query-metrics' lists no sm__cycles_active: asking for the first candidate metrics");
    free(listing);
    listing = NULL;
  }
  enum atl_ncu_quantity missing;
  int err = atl_ncu_select_metrics(listing, metrics, len, &missing);
  if (err == ATL_ENOTSUP)
    snprintf(why, why_len, "ncu does not offer %s on this GPU (tried %s)", atl_ncu_quantity_name(missing),
             atl_ncu_candidates(missing)[0].name);
  else if (err)
    snprintf(why, why_len, "the metric list for ncu is longer than %zu bytes", len);
  if (!err && rc != 0) {
    char text[160];
    snprintf(text, sizeof text, "'ncu --query-metrics' failed (exit %d): asking for the first candidate metrics", rc);
    note(r, ATL_NCU_NOTE, text);
  }
  if (!err)
    add_l2_metrics(listing, metrics, len);
  free(listing);
  if (!err && r->p->extra && strlen(metrics) + strlen(r->p->extra) + 2 < len)
    snprintf(metrics + strlen(metrics), len - strlen(metrics), ",%s", r->p->extra);
  return err;
}

/* ncu over the program, its report exported as CSV into the outcome. */
static int profile(struct run *r, const char *metrics)
{
  const struct atl_ncu_profile *p = r->p;
  char kernel_filter[600], report_base[4200], report[4200];
  snprintf(kernel_filter, sizeof kernel_filter, "regex:%s", p->kernel ? p->kernel : "");
  snprintf(report_base, sizeof report_base, "%s/profile", r->dir);
  snprintf(report, sizeof report, "%s/profile.ncu-rep", r->dir);
  char *pargv[] = {(char *)p->ncu, "--clock-control", "none", "--metrics", (char *)metrics, "--force-overwrite",
                   "--nvtx", "-o", report_base, "--kernel-name", kernel_filter, "--"};
  size_t np = sizeof pargv / sizeof *pargv, nprog = 0;
  if (!p->kernel) /* no filter: drop --kernel-name and its value, keep "--" */
    pargv[np - 3] = "--", np -= 2;
  while (p->program[nprog])
    nprog++;
  char **full = malloc((np + nprog + 1) * sizeof *full);
  if (full == NULL)
    return ATL_ENOMEM;
  memcpy(full, pargv, np * sizeof *full);
  memcpy(full + np, p->program, (nprog + 1) * sizeof *full);
  char line[4800];
  snprintf(line, sizeof line, "%s --clock-control none --metrics %s --nvtx -- %s ...", p->ncu, metrics, p->program[0]);
  note(r, ATL_NCU_RUNNING, line);
  int rc = spawn(r, full, NULL, "ncu.err"); /* the program's output stays on the terminal; ncu's notes go to a file */
  free(full);
  const int stop = stopped(r, rc, "ncu's run of the program");
  r->out->no_report = access(report, R_OK) != 0;
  if (stop || rc != 0 || r->out->no_report) { /* what ncu said comes back either way */
    failed(r, rc, "ncu's run of the program", "ncu.err");
    return stop ? ATL_EINTR : ATL_EIO;
  }
  char *iargv[] = {(char *)p->ncu, "--import", report, "--csv", "--page", "raw", "--print-units", "base", NULL};
  rc = spawn(r, iargv, "counters.csv", "import.err");
  if (stopped(r, rc, "'ncu --import'"))
    return ATL_EINTR;
  r->out->text = rc == 0 ? read_back(r, "counters.csv", (size_t)1 << 28) : NULL;
  return r->out->text ? 0 : failed(r, rc, "'ncu --import'", "import.err");
}

int atl_ncu_profile_run(const struct atl_ncu_profile *p, struct atl_ncu_profile_outcome *out, char *why,
                        size_t why_len)
{
  struct run r = {p, out, 0, ""};
  memset(out, 0, sizeof *out);
  why[0] = '\0';
  const char *tmp = getenv("TMPDIR");
  snprintf(r.dir, sizeof r.dir, "%s/atomlab-profile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(r.dir) == NULL) {
    snprintf(why, why_len, "unable to create a temporary folder in '%s': %s", tmp && *tmp ? tmp : "/tmp",
             strerror(errno));
    return ATL_EIO;
  }
  r.deadline = now_s() + p->timeout;
  char metrics[4096];
  int err = pick_metrics(&r, metrics, sizeof metrics, why, why_len);
  if (!err)
    err = profile(&r, metrics);
  if (atl_remove_tree(r.dir) != 0)
    snprintf(out->warning, sizeof out->warning, "unable to remove the temporary folder '%s': %s", r.dir,
             strerror(errno));
  return err;
}

void atl_ncu_profile_release(struct atl_ncu_profile_outcome *out)
{
  free(out->text);
  free(out->tail);
  out->text = out->tail = NULL;
}
