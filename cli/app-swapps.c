/* atomlab app swapps: seed 000's applications on the software atomic (src/apps/sw*.c). */
#include <stdlib.h>
#include <string.h>

#include <unistd.h>
#include <zlib.h>

#include "app.h"

#define DEFAULT_TEXT "/usr/share/dictd/gcide.dict.dz"
#define DEFAULT_KEYWORDS "gravity,water,which,the"

static const char usage[] =
    "usage: atomlab app swapps [options]\n\n"
    "Seed 000's applications (Section VI) with the system atomic, warp aggregation\n"
    "and the software atomic add, whose last work-group coordinates (it idles in\n"
    "the other variants, so all run on the same co-resident grid):\n"
    "  dot        scalar product: per-work-group partial sums, one atomic each\n"
    "  strmatch   four keywords in English text, one atomic per match on the\n"
    "             keyword's counter (several addresses in one kernel)\n"
    "  mapreduce  map tasks emit records into one array: Mars's two passes (count,\n"
    "             prefix sum, write) against one atomic reservation per thread or\n"
    "             per wavefront; matrix multiplication and the KMeans map phase\n"
    "Every row is verified against the host. Grids above what occupancy discovery\n"
    "finds co-resident are refused (exit 2); waits are bounded (--spin-bound).\n\n"
    "  --apps LIST        of dot, strmatch, mapreduce  [all]\n"
    "  --workgroups LIST  grids incl. the coordinator  [2, 4, 8, ... below the co-resident\n"
    "                     count, and that count; CPU: the count]\n"
    "  --variants LIST    of system, warp, software  [all] (mapreduce's twopass always runs)\n"
    "  --elements N       dot: elements per vector  [GPU: 16777216; CPU: 1048576]\n"
    "  --text FILE        strmatch: English text; .dz / .gz decompressed (zlib)\n"
    "                     [" DEFAULT_TEXT ", Debian package dict-gcide]\n"
    "  --text-bytes N     strmatch: bytes of the text to search  [4194304]\n"
    "  --keywords LIST    strmatch: 1 to 4 keywords, none a prefix of another\n"
    "                     [" DEFAULT_KEYWORDS "]\n"
    "  --matmul LIST      mapreduce: n of each n x n matrix product  [GPU: 8,32,128,256,512;\n"
    "                     CPU: 8,32,64]\n"
    "  --kmeans LIST      mapreduce: points of each KMeans map (16 centroids, 4-D)\n"
    "                     [GPU: 512,2048,8192,131072,1048576; CPU: 512,2048,8192]\n\n";

enum { O_APPS = APP_OPT_FIRST, O_WGS, O_VARIANTS, O_ELEMENTS, O_TEXT, O_TEXT_BYTES, O_KEYWORDS, O_MATMUL, O_KMEANS };

#define SWA_MAX_LIST 32

struct swa_cli {
  struct atl_swapps_params p;
  uint32_t groups[SWA_MAX_LIST], matmul[SWA_MAX_LIST], kmeans[SWA_MAX_LIST];
  const char *text_path;
  char *kwcopy;
  const char *keywords[4];
};

/* A comma-separated list of whole numbers lo..hi into @p out; returns the count. */
static unsigned parse_numbers(const char *opt, const char *arg, uint64_t lo, uint64_t hi, uint32_t *out)
{
  char *copy = strdup(arg), *save = NULL;
  unsigned n = 0;
  if (copy == NULL)
    die("out of memory");
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n == SWA_MAX_LIST)
      die_usage("%s '%s' is not allowed: at most %d values", opt, arg, SWA_MAX_LIST);
    out[n++] = (uint32_t)app_number(opt, tok, lo, hi);
  }
  free(copy);
  if (n == 0)
    die_usage("%s '%s' is not allowed: a comma-separated list of whole numbers, %llu to %llu", opt, arg,
              (unsigned long long)lo, (unsigned long long)hi);
  return n;
}

/* A comma-separated list of names into a bit set. */
static unsigned parse_names(const char *opt, const char *arg, const char *const *names, unsigned n, const char *allowed)
{
  char *copy = strdup(arg), *save = NULL;
  unsigned bits = 0;
  if (copy == NULL)
    die("out of memory");
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    unsigned v = 0;
    while (v < n && strcmp(tok, names[v]) != 0)
      v++;
    if (v == n)
      die_usage("%s '%s' is not allowed: a list of %s", opt, arg, allowed);
    bits |= 1u << v;
  }
  free(copy);
  if (bits == 0)
    die_usage("%s '%s' is not allowed: a list of %s", opt, arg, allowed);
  return bits;
}

static void parse_keywords(const char *arg, struct swa_cli *c)
{
  char *save = NULL;
  free(c->kwcopy);
  if ((c->kwcopy = strdup(arg)) == NULL)
    die("out of memory");
  c->p.nkeywords = 0;
  for (char *tok = strtok_r(c->kwcopy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (c->p.nkeywords == 4 || strlen(tok) > 32)
      die_usage("--keywords '%s' is not allowed: 1 to 4 keywords of 1 to 32 bytes", arg);
    for (unsigned j = 0; j < c->p.nkeywords; j++) {
      const size_t a = strlen(c->keywords[j]), b = strlen(tok);
      if (strncmp(c->keywords[j], tok, a < b ? a : b) == 0)
        die_usage("--keywords '%s' is not allowed: '%s' and '%s' (one is a prefix of the other could both "
                  "start at one position)", arg, c->keywords[j], tok);
    }
    c->keywords[c->p.nkeywords++] = tok;
  }
  if (c->p.nkeywords == 0)
    die_usage("--keywords '%s' is not allowed: 1 to 4 keywords of 1 to 32 bytes", arg);
}

static void on_option(int code, const char *arg, void *user)
{
  static const char *const app_names[] = {"dot", "strmatch", "mapreduce"};
  static const char *const variant_names[] = {"system", "warp", "software"};
  struct swa_cli *c = user;
  switch (code) {
  case O_APPS:
    c->p.apps = parse_names("--apps", arg, app_names, 3, "dot, strmatch, mapreduce");
    break;
  case O_WGS:
    c->p.ngroups = parse_numbers("--workgroups", arg, 2, 65535, c->groups);
    break;
  case O_VARIANTS:
    c->p.variants = parse_names("--variants", arg, variant_names, 3, "system, warp, software");
    break;
  case O_ELEMENTS:
    c->p.dot_elements = app_number("--elements", arg, 1, 1ull << 28);
    break;
  case O_TEXT:
    c->text_path = arg;
    break;
  case O_TEXT_BYTES:
    c->p.text_bytes = app_number("--text-bytes", arg, 1, 1ull << 30);
    break;
  case O_KEYWORDS:
    parse_keywords(arg, c);
    break;
  case O_MATMUL:
    c->p.nmatmul = parse_numbers("--matmul", arg, 1, 4096, c->matmul);
    c->p.matmul_n = c->matmul;
    break;
  case O_KMEANS:
    c->p.nkmeans = parse_numbers("--kmeans", arg, 1, 1u << 26, c->kmeans);
    c->p.kmeans_points = c->kmeans;
    break;
  }
}

/* The first --text-bytes of the text (.dz / .gz decompressed with zlib, in
 * process: no gzip child and no shell); exit 2 naming the package if it is missing. */
static uint8_t *read_text(const char *path, uint64_t want, uint64_t *got)
{
  /* Only a regular file: a FIFO would block the read, a device might never end. */
  char why[200];
  FILE *f = atl_file_open_input(path, why, sizeof why);
  if (f == NULL)
    die_usage("--text '%s': %s; strmatch's default text is the GCIDE dictionary of the Debian package "
              "dict-gcide (apt-get install dict-gcide)", path, why);
  const size_t len = strlen(path);
  const int packed = len > 3 && (strcmp(path + len - 3, ".dz") == 0 || strcmp(path + len - 3, ".gz") == 0);
  uint8_t *buf = malloc(want);
  if (buf == NULL)
    die("out of memory");
  if (packed) { /* dictzip is gzip with an index in its header: zlib reads both */
    gzFile z = gzdopen(dup(fileno(f)), "rb");
    fclose(f);
    if (z == NULL)
      die("out of memory");
    *got = 0;
    for (int n; *got < want && (n = gzread(z, buf + *got, (unsigned)(want - *got > (1u << 30) ? 1u << 30 : want - *got))) > 0;)
      *got += (uint64_t)n;
    gzclose(z);
  } else {
    *got = fread(buf, 1, want, f);
    fclose(f);
  }
  if (*got == 0)
    die_usage("--text '%s' is empty or not a gzip / dictzip file", path);
  return buf;
}

int app_swapps(int argc, char **argv)
{
  static const struct option extra[] = {{"apps", required_argument, NULL, O_APPS},
                                        {"workgroups", required_argument, NULL, O_WGS},
                                        {"variants", required_argument, NULL, O_VARIANTS},
                                        {"elements", required_argument, NULL, O_ELEMENTS},
                                        {"text", required_argument, NULL, O_TEXT},
                                        {"text-bytes", required_argument, NULL, O_TEXT_BYTES},
                                        {"keywords", required_argument, NULL, O_KEYWORDS},
                                        {"matmul", required_argument, NULL, O_MATMUL},
                                        {"kmeans", required_argument, NULL, O_KMEANS},
                                        {0}};
  const struct atl_app_info *app = atl_app_find("swapps");
  static const char *const flags[] = {"groups", "--workgroups", "dot_elements", "--elements", NULL};
  struct swa_cli c;
  memset(&c, 0, sizeof c);
  app->defaults(NULL, &c.p);
  c.p.text_bytes = 4194304;
  c.text_path = DEFAULT_TEXT;
  struct app_opts o;
  struct atl_result_set set;
  if (app_parse(argc, argv, usage, extra, on_option, &c, &o))
    return EXIT_OK;
  if (c.p.nkeywords == 0)
    parse_keywords(DEFAULT_KEYWORDS, &c);
  uint8_t *text = NULL;
  if (c.p.apps & 2u) /* before the device opens: a missing dictionary is a usage error */
    text = read_text(c.text_path, c.p.text_bytes, &c.p.text_bytes);
  atl_context_t ctx = app_open(&o, &set, argc, argv);
  const struct atl_device_info *dev = atl_device_current(ctx);
  if (dev->type == ATL_DEVICE_CPU && o.timing.spin_bound == 1u << 22) /* a CPU poll is ns, preemption ms */
    o.timing.spin_bound = 1u << 26;
  c.p.wg_size = o.wg_size;
  app->defaults(dev, &c.p); /* the work-group size first: discovery below runs at it */
  if (c.p.wg_size <= 256 && c.p.wg_size <= dev->max_wg_size) /* else app_prepare refuses it (exit 2) */
    c.p.coresident = app_coresident(ctx, c.p.wg_size);
  /* A test hook: an off-by-one host reference, which every row must then fail to verify (exit 1). */
  c.p.skew_reference = app_hook("ATL_SWAPPS_SKEW_REFERENCE");
  /* The library runs a grid beyond the co-resident count as a refused row; asking for one is a usage error here. */
  for (unsigned i = 0; i < c.p.ngroups && c.p.coresident; i++)
    if (c.groups[i] > c.p.coresident)
      die_usage("--workgroups %u is not allowed: the software atomic needs a co-resident grid, and occupancy "
                "discovery found %u work-groups of %u work-items on %s", c.groups[i], c.p.coresident, c.p.wg_size,
                dev->name);
  c.p.groups = c.groups;
  c.p.keywords = c.keywords;
  c.p.text = text;
  app_prepare(app, ctx, &c.p, flags);
  if (c.p.coresident < 2)
    die("the software atomic needs 2 co-resident work-groups (one coordinator); occupancy discovery found %u "
        "at %u work-items on %s", c.p.coresident, c.p.wg_size, dev->name);
  if (!o.quiet)
    fprintf(stderr, "swapps: %u co-resident work-groups of %u (discovery), %s\n", c.p.coresident, c.p.wg_size,
            app_grids(c.p.ngroups));
  app_run(&o, app, ctx, &c.p, &set);
  free(text);
  free(c.kwcopy);
  return app_finish(&o, &set, ctx);
}
