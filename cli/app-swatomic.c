/* atomlab app swatomic: seed 000's software atomic add (src/apps/swatomic.c). */
#include <stdlib.h>
#include <string.h>

#include "app.h"

static const char usage[] =
    "usage: atomlab app swatomic [options]\n\n"
    "Seed 000's micro-benchmark 1 (atomic only): every work-item adds 1 (--op) to\n"
    "one of --targets words --iters times through the system atomic, warp\n"
    "aggregation (OpenCL: groups of 32 in local memory) and the software atomic,\n"
    "whose last work-group is a coordinator that applies every wavefront's sum.\n"
    "The coordinator idles in the other variants, so all do the same work. Every\n"
    "row is verified: add, sub, inc: the old values per word are exactly those of\n"
    "the n updates in some order and the words end at the n-th; min, max, and, or,\n"
    "xor (hashed operands): the old values fit a serial order of the word's\n"
    "updates and the words end at the op-reduction of the operands. The software\n"
    "atomic needs a co-resident grid: counts above what occupancy discovery\n"
    "finds are refused (exit 2). Waits are bounded\n"
    "(--spin-bound; CPU default 2^26) and report status deadlock.\n\n"
    "  --workgroups LIST  grids incl. the coordinator, e.g. 8,16,32,max (max: the\n"
    "                     co-resident count) or an axis LO:HI:x2 (8:max:x2 = 8, 16,\n"
    "                     ... below max, and max)  [8:max:x2; CPU: max]\n"
    "  --groups LIST      the same as --workgroups\n"
    "  --experiment       the seed's experiments per grid: also the memory transaction\n"
    "                     alone (mem: each iteration copies one word) and with each\n"
    "                     atomic (VARIANT+mem: Figure 3's copy kernel, micro-benchmark\n"
    "                     2) with the ideal sum; the speedup model (t_fast, t_l,\n"
    "                     t_comp measured, equations (1)-(4) predicted against the\n"
    "                     measured speedup) and each kernel's instruction counts\n"
    "  --targets N        words the work-items spread over (gid %% N)  [1]\n"
    "  --iters N          atomics per work-item  [GPU: 16; CPU: 2]\n"
    "  --divergent        every work-item with gid %% 3 == 1 sits out\n"
    "  --variants LIST    of system, warp, software  [all]\n"
    "  --op OP            add, sub, inc (operand 1), min, max, and, or, xor (operands\n"
    "                     hashed from the update's index)  [add]\n\n";

enum { O_WGS = APP_OPT_FIRST, O_TARGETS, O_ITERS, O_DIVERGENT, O_VARIANTS, O_EXPERIMENT, O_OP };

#define MAX_GRIDS 32

struct sw_cli {
  struct atl_swatomic_params p;
  uint32_t groups[MAX_GRIDS];
  const char *groups_opt; /* the spelling used, for the messages */
  uint32_t double_from;   /* LO of "LO:max:x2", 0 if none */
};

static void parse_list(const char *opt, const char *arg, struct sw_cli *c)
{
  char *copy = strdup(arg), *save = NULL;
  if (copy == NULL)
    die("out of memory");
  c->p.ngroups = 0;
  c->double_from = 0;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *colon = strchr(tok, ':');
    if (colon) { /* LO:HI:x2, HI a number or max: LO, 2 LO, 4 LO, ... up to HI, and HI */
      char *hi = colon + 1, *step = strchr(hi, ':');
      if (step == NULL || strcmp(step, ":x2") != 0)
        die_usage("%s '%s' is not allowed: an axis is LO:HI:x2 (HI a number or max)", opt, tok);
      *colon = *step = '\0';
      const uint32_t lo = (uint32_t)app_number(opt, tok, 2, 65535);
      if (strcmp(hi, "max") == 0) {
        c->double_from = lo; /* expanded once discovery has run */
        continue;
      }
      const uint32_t top = (uint32_t)app_number(opt, hi, lo, 65535);
      for (uint32_t g = lo; g <= top; g = g < top && g * 2 > top ? top : g * 2) {
        if (c->p.ngroups == MAX_GRIDS)
          die_usage("%s '%s' is not allowed: at most %d grids", opt, arg, MAX_GRIDS);
        c->groups[c->p.ngroups++] = g;
        if (g == top)
          break;
      }
      continue;
    }
    if (c->p.ngroups == MAX_GRIDS)
      die_usage("%s '%s' is not allowed: at most %d grids", opt, arg, MAX_GRIDS);
    /* "max" (0 here) becomes the co-resident count once discovery has run */
    c->groups[c->p.ngroups++] = strcmp(tok, "max") == 0 ? 0 : (uint32_t)app_number(opt, tok, 2, 65535);
  }
  free(copy);
  if (c->p.ngroups == 0 && c->double_from == 0)
    die_usage("%s '%s' is not allowed: a comma-separated list of work-group counts, 2 to 65535, or max", opt, arg);
}

static void on_option(int code, const char *arg, void *user)
{
  struct sw_cli *c = user;
  switch (code) {
  case O_WGS:
    parse_list(c->groups_opt, arg, c);
    break;
  case O_EXPERIMENT:
    c->p.experiment = 1;
    break;
  case O_TARGETS:
    c->p.targets = (uint32_t)app_number("--targets", arg, 1, UINT32_MAX);
    break;
  case O_ITERS:
    c->p.iters = (uint32_t)app_number("--iters", arg, 1, UINT32_MAX);
    break;
  case O_DIVERGENT:
    c->p.divergent = 1;
    break;
  case O_OP: {
    int op = 0;
    while (atl_swop_name(op) && strcmp(arg, atl_swop_name(op)) != 0)
      op++;
    if (atl_swop_name(op) == NULL)
      die_usage("--op '%s' is not allowed: one of add, sub, inc, min, max, and, or, xor", arg);
    c->p.op = op;
    break;
  }
  case O_VARIANTS: {
    static const char *const names[] = {"system", "warp", "software"};
    char *copy = strdup(arg), *save = NULL;
    if (copy == NULL)
      die("out of memory");
    c->p.variants = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      unsigned v = 0;
      while (v < 3 && strcmp(tok, names[v]) != 0)
        v++;
      if (v == 3)
        die_usage("--variants '%s' is not allowed: a list of system, warp, software", arg);
      c->p.variants |= 1u << v;
    }
    free(copy);
    if (c->p.variants == 0)
      die_usage("--variants '%s' is not allowed: a list of system, warp, software", arg);
    break;
  }
  }
}

static const struct atl_row *find(const struct atl_result_set *set, const char *variant, double groups)
{
  for (size_t i = 0; i < set->count; i++)
    if (strcmp(atl_row_config(&set->rows[i], "variant"), variant) == 0 &&
        (groups < 0 || atl_row_metric(&set->rows[i], "workgroups", -1) == groups))
      return &set->rows[i];
  return NULL;
}

/* The model's constants, then predicted against measured per grid (one atomic round each). */
static void print_model(FILE *f, const struct atl_result_set *set)
{
  const struct atl_row *m = find(set, "model", -1);
  if (m == NULL)
    return;
  if (m->status != ATL_STATUS_OK) {
    fprintf(f, "\nspeedup model: no constants (%s)\n", m->reason);
    return;
  }
  fprintf(f,
          "\nspeedup model (seed 000, eq. 1-4): t_fast %.2f ns, t_l %.3f ns, t_comp %.3f ns (x = %.3g, x_l = %.3g)\n",
          atl_row_metric(m, "t_fast_ns", 0), atl_row_metric(m, "t_l_ns", 0),
          atl_row_metric(m, "t_comp_ns", 0), atl_row_metric(m, "x", 0), atl_row_metric(m, "x_l", 0));
  fprintf(f, "%6s %14s %14s %14s %14s %10s %10s\n", "wgs", "sys pred ns", "sys meas ns", "sw pred ns", "sw meas ns",
          "pred x", "meas x");
  for (size_t i = 0; i < set->count; i++) {
    const struct atl_row *r = &set->rows[i];
    if (strcmp(atl_row_config(r, "variant"), "software") != 0 || atl_row_metric(r, "predicted_speedup", -1) < 0)
      continue;
    fprintf(f, "%6.0f %14.1f %14.1f %14.1f %14.1f %10.3f %10.3f\n", atl_row_metric(r, "workgroups", 0),
            atl_row_metric(r, "t_a_system_pred_ns", 0), atl_row_metric(r, "t_a_system_meas_ns", 0),
            atl_row_metric(r, "t_a_software_pred_ns", 0), atl_row_metric(r, "t_a_software_meas_ns", 0),
            atl_row_metric(r, "predicted_speedup", 0), atl_row_metric(r, "measured_speedup", 0));
  }
}

/* One line per kernel: its instruction classes (the seed's FastPath/CompletePath counts, ALU:Fetch). */
static void print_isa(FILE *f, const struct atl_result_set *set)
{
  static const char *const kernels[] = {"mem", "system", "system+mem", "warp", "warp+mem", "software", "software+mem"};
  fprintf(f, "\ninstruction view (machine code of each kernel):\n%-13s %6s %8s %8s %8s %8s %6s %8s\n", "kernel",
          "total", "glob mem", "shr mem", "glob atom", "shr atom", "alu", "alu:mem");
  for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
    const struct atl_row *r = find(set, kernels[k], -1);
    if (r == NULL)
      continue;
    if (atl_row_metric(r, "isa_total", -1) < 0) {
      fprintf(f, "%-13s %s\n", kernels[k], r->instructions[0] ? r->instructions : "unavailable");
      continue;
    }
    fprintf(f, "%-13s %6.0f %8.0f %8.0f %8.0f %8.0f %6.0f %8.2f\n", kernels[k], atl_row_metric(r, "isa_total", 0),
            atl_row_metric(r, "isa_global_mem", 0), atl_row_metric(r, "isa_shared_mem", 0),
            atl_row_metric(r, "isa_atomic_global", 0), atl_row_metric(r, "isa_atomic_shared", 0),
            atl_row_metric(r, "isa_alu", 0), atl_row_metric(r, "isa_alu_mem_ratio", 0));
  }
}

int app_swatomic(int argc, char **argv)
{
  static const struct option extra[] = {{"workgroups", required_argument, NULL, O_WGS},
                                        {"groups", required_argument, NULL, O_WGS},
                                        {"experiment", no_argument, NULL, O_EXPERIMENT},
                                        {"targets", required_argument, NULL, O_TARGETS},
                                        {"iters", required_argument, NULL, O_ITERS},
                                        {"divergent", no_argument, NULL, O_DIVERGENT},
                                        {"variants", required_argument, NULL, O_VARIANTS},
                                        {"op", required_argument, NULL, O_OP},
                                        {0}};
  const struct atl_app_info *app = atl_app_find("swatomic");
  struct sw_cli c;
  memset(&c, 0, sizeof c);
  app->defaults(NULL, &c.p);
  c.groups_opt = "--workgroups";
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], "--groups", 8) == 0 && (argv[i][8] == '\0' || argv[i][8] == '='))
      c.groups_opt = "--groups";
  const char *const flags[] = {"groups", c.groups_opt, NULL};
  struct app_opts o;
  struct atl_result_set set;
  if (app_parse(argc, argv, usage, extra, on_option, &c, &o))
    return EXIT_OK;
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  const struct atl_device_info *dev = atl_device_current(ctx);
  const int cpu = dev->type == ATL_DEVICE_CPU;
  if (cpu && o.timing.spin_bound == 1u << 22) /* the common default: a CPU poll is nanoseconds, preemption ms */
    o.timing.spin_bound = 1u << 26;
  c.p.wg_size = o.wg_size;
  app->defaults(dev, &c.p); /* the work-group size first: discovery below runs at it */
  if (c.p.wg_size <= 256 && c.p.wg_size <= dev->max_wg_size) /* else app_prepare refuses it (exit 2) */
    c.p.coresident = app_coresident(ctx, c.p.wg_size);
  /* A test hook: the host's reference starts one off, so every atomic row must fail to verify (exit 1). */
  c.p.skew_reference = app_hook("ATL_SWATOMIC_SKEW_REFERENCE");
  if (c.double_from && c.p.coresident) {
    if (c.double_from > c.p.coresident)
      die_usage("%s %u:max:x2 is not allowed: the software atomic needs a co-resident grid, and occupancy "
                "discovery found %u work-groups of %u work-items on %s", c.groups_opt, c.double_from,
                c.p.coresident, c.p.wg_size, dev->name);
    for (uint32_t g = c.double_from; g < c.p.coresident && c.p.ngroups < MAX_GRIDS - 1; g *= 2)
      c.groups[c.p.ngroups++] = g;
    c.groups[c.p.ngroups++] = 0; /* max */
  }
  /* The library runs a grid beyond the co-resident count as a refused row; asking for one is a usage error here. */
  for (unsigned i = 0; i < c.p.ngroups && c.p.coresident; i++) {
    if (c.groups[i] == 0)
      c.groups[i] = c.p.coresident;
    if (c.groups[i] > c.p.coresident)
      die_usage("%s %u is not allowed: the software atomic needs a co-resident grid, and occupancy "
                "discovery found %u work-groups of %u work-items on %s", c.groups_opt, c.groups[i], c.p.coresident,
                c.p.wg_size, dev->name);
  }
  c.p.groups = c.groups;
  app_prepare(app, ctx, &c.p, flags);
  if (c.p.coresident < 2)
    die("the software atomic needs 2 co-resident work-groups (one coordinator); occupancy discovery found %u "
        "at %u work-items on %s", c.p.coresident, c.p.wg_size, dev->name);
  if (!o.quiet)
    fprintf(stderr, "swatomic: %u co-resident work-groups of %u (discovery), %s, %u target(s), op %s\n",
            c.p.coresident, c.p.wg_size, app_grids(c.p.ngroups), c.p.targets, atl_swop_name(c.p.op));
  app_run(&o, app, ctx, &c.p, &set);
  if (c.p.experiment && !o.quiet) {
    /* beside the rows: on stdout unless it carries CSV or JSON */
    FILE *f = o.out_path || o.format < 0 || o.format == ATL_FORMAT_TABLE ? stdout : stderr;
    print_model(f, &set);
    print_isa(f, &set);
  }
  return app_finish(&o, &set, ctx);
}
