/* The result writers (CSV, JSON, atomic file replacement) as a consumer of
 * the files sees them, plus the name tables the CLI and the files rely on. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomlab.h"
#include "check.h"

/* Splits one CSV line by RFC 4180: a quoted field may hold commas and
 * doubled quotes, an unquoted one no quote at all. Strict on purpose, so that
 * a writer that forgets to escape a quote is caught. Writes the unquoted text
 * of the last field to last. Returns the number of fields, -1 if malformed. */
static int csv_split(const char *line, char *last, size_t last_len)
{
  int n = 0;
  const char *c = line;
  for (;;) {
    size_t o = 0;
    n++;
    if (*c == '"') {
      for (c++;; c++) {
        if (*c == '\0' || *c == '\n')
          return -1; /* unterminated */
        if (*c == '"') {
          if (c[1] != '"')
            break;
          c++; /* a doubled quote is one quote */
        }
        if (o + 1 < last_len)
          last[o++] = *c;
      }
      c++; /* past the closing quote: the field must end here */
      if (*c != ',' && *c != '\0' && *c != '\n')
        return -1;
    } else {
      for (; *c != ',' && *c != '\0' && *c != '\n'; c++) {
        if (*c == '"')
          return -1;
        if (o + 1 < last_len)
          last[o++] = *c;
      }
    }
    last[o] = '\0';
    if (*c != ',')
      return n;
    c++;
  }
}

static int csv_fields(const char *line)
{
  char scratch[512];
  return csv_split(line, scratch, sizeof scratch);
}

static char *slurp(FILE *f)
{
  fflush(f);
  long size = ftell(f);
  rewind(f);
  char *text = malloc((size_t)size + 1);
  size_t got = fread(text, 1, (size_t)size, f);
  text[got] = '\0';
  return text;
}

static char *slurp_path(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  fseek(f, 0, SEEK_END);
  char *text = slurp(f);
  fclose(f);
  return text;
}

static const char *const REASON_OK = "note: 2 words, \"hot\" cache\nsecond line";
/* Only a comma (no quote, no newline): quoting must not depend on the others. */
static const char *const REASON_UNSUP = "device lacks 64-bit integer atomics, so u64 cannot run";

static void build_set(struct atl_result_set *set)
{
  memset(set, 0, sizeof *set);
  snprintf(set->meta.tool_version, sizeof set->meta.tool_version, "0.1.0");
  snprintf(set->meta.git_commit, sizeof set->meta.git_commit, "abc123");
  snprintf(set->meta.date, sizeof set->meta.date, "2024-01-01T00:00:00Z");
  snprintf(set->meta.command, sizeof set->meta.command, "atomlab rmw --op fetch_add,\"x\"");
  snprintf(set->meta.device.name, sizeof set->meta.device.name, "Test \"GPU\", rev 2");
  atl_timing_defaults(&set->meta.timing);

  struct atl_row row;
  atl_rmw_row_init(&row, &(struct atl_spec){.op = ATL_OP_CAS, .type = ATL_TYPE_U32, .space = ATL_SPACE_GLOBAL,
                                            .pattern = ATL_PATTERN_CROSS_WARP, .result = ATL_RESULT_USED,
                                            .contention = 4, .padding = 2, .wg_size = 64, .workgroups = 4});
  row.status = ATL_STATUS_OK;
  snprintf(row.reason, sizeof row.reason, "%s", REASON_OK);
  atl_row_metric_set(&row, "iters", 100);
  atl_row_metric_set(&row, "ops", 25600);
  atl_row_metric_set(&row, "array_words", 128);
  const double samples[] = {1.5, 1.25, 1.75, 1.5, 2.0};
  row.samples_ms = malloc(sizeof samples);
  memcpy(row.samples_ms, samples, sizeof samples);
  atl_stats_compute(samples, 5, &row.time_ms);
  atl_row_metric_set(&row, "ops_per_us", 25600 / 1500.0);
  atl_row_metric_set(&row, "gops", 25600 / 1500.0 / 1000);
  row.verified = 1;
  atl_row_metric_set(&row, "cas_attempts_per_op", 1.25);
  CHECK(atl_result_set_add(set, &row) == 0);
  CHECK(row.samples_ms == NULL); /* moved into the set, not shared */

  atl_rmw_row_init(&row, &(struct atl_spec){.op = ATL_OP_FETCH_ADD, .type = ATL_TYPE_U64, .space = ATL_SPACE_LOCAL,
                                            .pattern = ATL_PATTERN_RANDOM, .result = ATL_RESULT_UNUSED,
                                            .contention = 8, .padding = 1, .wg_size = 64, .workgroups = 4});
  row.status = ATL_STATUS_UNSUPPORTED;
  snprintf(row.reason, sizeof row.reason, "%s", REASON_UNSUP);
  CHECK(atl_result_set_add(set, &row) == 0);
  CHECK(set->count == 2);
}

/* What @p write makes of @p set, as one string (NULL where no temporary file opens). */
static char *written(int (*write)(FILE *, const struct atl_result_set *), const struct atl_result_set *set)
{
  FILE *f = tmpfile();
  if (!CHECK(f != NULL))
    return NULL;
  CHECK(write(f, set) == 0);
  char *text = slurp(f);
  fclose(f);
  return text;
}

static void test_csv(const struct atl_result_set *set)
{
  char *text = written(atl_write_csv, set);
  if (text == NULL)
    return;

  /* The splitter itself: a correct escape parses, a missing one does not. */
  char last[64];
  CHECK(csv_split("a,\"b,\"\"c\"\"\"", last, sizeof last) == 2 && strcmp(last, "b,\"c\"") == 0);
  CHECK(csv_split("a,\"b,\"c\"\"", last, sizeof last) == -1);
  CHECK(csv_split("a,b\"c", last, sizeof last) == -1);
  CHECK(csv_split("a,,", last, sizeof last) == 3 && last[0] == '\0');

  char header[1024] = "";
  FILE *hf = fmemopen(header, sizeof header - 1, "w");
  if (!CHECK(hf != NULL))
    return;
  atl_csv_header_write(hf, atl_row_kind_find("rmw"));
  fclose(hf);
  header[strcspn(header, "\n")] = '\0';
  const int columns = csv_fields(header);
  CHECK(columns > 20);
  /* The header line is exactly what atl_csv_header_write() writes. */
  size_t hlen = strlen(header);
  CHECK(strncmp(text, header, hlen) == 0 && text[hlen] == '\n');
  CHECK(strcmp(header + hlen - strlen("reason"), "reason") == 0); /* free text last */

  /* Data lines: one per row, each with the header's number of fields. The
   * newline inside REASON_OK must not split its row. */
  int lines = 0;
  char *save = NULL;
  for (char *line = strtok_r(text + hlen + 1, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    lines++;
    if (!CHECK(csv_fields(line) == columns))
      CHECK_CONTEXT("line %d has %d fields, header %d: %s", lines, csv_fields(line), columns, line);
    char reason[400];
    csv_split(line, reason, sizeof reason);
    if (lines == 1) {
      const char *first = "cross-warp,cas,u32,global,used,device,relaxed,4,2,64,4,ok,1,0,1.500000,";
      CHECK(strncmp(line, first, strlen(first)) == 0);
      /* Quotes are doubled, the newline flattened, nothing else changed. */
      CHECK(strcmp(reason, "note: 2 words, \"hot\" cache second line") == 0);
    } else if (lines == 2) {
      const char *second = "random,fetch_add,u64,local,unused,device,relaxed,8,1,64,4,unsupported,";
      CHECK(strncmp(line, second, strlen(second)) == 0);
      CHECK(strstr(line, ",unsupported,") != NULL);
      CHECK(strcmp(reason, REASON_UNSUP) == 0);
    }
  }
  CHECK(lines == 2);
  free(text);
}

static void test_json(const struct atl_result_set *set)
{
  char *text = written(atl_write_json, set);
  if (text == NULL)
    return;
  cJSON *root = cJSON_Parse(text);
  free(text);
  if (!CHECK(root != NULL))
    return;
  const cJSON *fv = cJSON_GetObjectItemCaseSensitive(root, "format_version");
  CHECK(cJSON_IsNumber(fv) && fv->valuedouble == ATL_FORMAT_VERSION);
  const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(dev, "name");
  CHECK(cJSON_IsString(name) && strcmp(name->valuestring, "Test \"GPU\", rev 2") == 0);
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
  CHECK(cJSON_IsArray(rows) && cJSON_GetArraySize(rows) == 2);
  const char *const statuses[] = {"ok", "unsupported"};
  for (int i = 0; i < 2 && i < cJSON_GetArraySize(rows); i++) {
    const cJSON *r = cJSON_GetArrayItem(rows, i);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "status");
    CHECK(cJSON_IsString(st) && strcmp(st->valuestring, statuses[i]) == 0);
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(r, "reason");
    CHECK(cJSON_IsString(reason) && strcmp(reason->valuestring, set->rows[i].reason) == 0);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, "time_ms");
    const cJSON *med = cJSON_GetObjectItemCaseSensitive(t, "median");
    CHECK(cJSON_IsNumber(med) && med->valuedouble == set->rows[i].time_ms.median);
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(t, "samples");
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(r, "samples_ms");
    CHECK(cJSON_IsNumber(ns) && cJSON_IsArray(samples));
    CHECK(cJSON_GetArraySize(samples) == (int)set->rows[i].time_ms.samples);
    CHECK(ns && ns->valuedouble == set->rows[i].time_ms.samples);
    for (int k = 0; k < cJSON_GetArraySize(samples); k++)
      CHECK(cJSON_GetArrayItem(samples, k)->valuedouble == set->rows[i].samples_ms[k]);
  }
  const cJSON *r0 = cJSON_GetArrayItem(rows, 0);
  CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r0, "samples_ms")) == 5);
  const cJSON *med0 = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r0, "time_ms"), "median");
  CHECK(med0 && med0->valuedouble == 1.5);
  const cJSON *op0 = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r0, "config"), "op");
  CHECK(cJSON_IsString(op0) && strcmp(op0->valuestring, "cas") == 0);
  /* metrics as {name, unit, value, hint} */
  const cJSON *m, *metrics = cJSON_GetObjectItemCaseSensitive(r0, "metrics");
  int found = 0;
  cJSON_ArrayForEach(m, metrics)
  {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(m, "name");
    if (cJSON_IsString(name) && strcmp(name->valuestring, "gops") == 0)
      found = strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "unit")), "Gop/s") == 0 &&
              strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "hint")), "higher") == 0;
    if (cJSON_IsString(name) && strcmp(name->valuestring, "cas_attempts_per_op") == 0)
      CHECK(cJSON_GetObjectItemCaseSensitive(m, "value")->valuedouble == 1.25);
  }
  CHECK(found);
  cJSON_Delete(root);
}

/* Names in dir containing ".tmp.": a leftover of an interrupted write. */
static int count_tmp_files(const char *dir)
{
  DIR *d = opendir(dir);
  if (d == NULL)
    return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (strstr(e->d_name, ".tmp.") != NULL)
      n++;
  closedir(d);
  return n;
}

static void test_write_file(const struct atl_result_set *set)
{
  char dir[] = "/tmp/atl_unit_output_XXXXXX";
  if (!CHECK(mkdtemp(dir) != NULL))
    return;
  char path[512], missing[512], tmpname[600];

  /* A directory that does not exist: failure, and nothing created. */
  snprintf(missing, sizeof missing, "%s/no/such/dir/out.json", dir);
  CHECK(atl_write_file(missing, ATL_FORMAT_JSON, set) != 0);
  CHECK(access(missing, F_OK) != 0);
  snprintf(path, sizeof path, "%s/no", dir);
  CHECK(access(path, F_OK) != 0);
  CHECK(count_tmp_files(dir) == 0);

  /* The temp file can be written but rename(2) fails (the target is a
   * non-empty directory): the temp file must be removed again. */
  snprintf(path, sizeof path, "%s/busy", dir);
  CHECK(mkdir(path, 0700) == 0);
  snprintf(tmpname, sizeof tmpname, "%s/keep", path);
  FILE *keep = fopen(tmpname, "w");
  if (keep)
    fclose(keep);
  CHECK(atl_write_file(path, ATL_FORMAT_CSV, set) != 0);
  CHECK(count_tmp_files(dir) == 0);
  remove(tmpname);
  rmdir(path);

  /* Good paths, every format: the file appears whole and no temp is left. */
  const enum atl_format formats[] = {ATL_FORMAT_JSON, ATL_FORMAT_CSV, ATL_FORMAT_TABLE};
  const char *const names[] = {"out.json", "out.csv", "out.txt"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    CHECK(atl_write_file(path, formats[i], set) == 0);
    CHECK(count_tmp_files(dir) == 0);
    char *text = slurp_path(path);
    if (CHECK(text != NULL)) {
      if (formats[i] == ATL_FORMAT_JSON) {
        cJSON *root = cJSON_Parse(text);
        CHECK(root != NULL);
        cJSON_Delete(root);
      } else if (formats[i] == ATL_FORMAT_CSV) {
        CHECK(strncmp(text, "pattern,op,type,space,result,scope,order,contention,padding,", 60) == 0);
      } else {
        CHECK(strstr(text, "unsupported") != NULL && strstr(text, "cross-warp") != NULL);
      }
    }
    free(text);
  }
  /* Writing again replaces the file rather than appending to it. */
  snprintf(path, sizeof path, "%s/out.json", dir);
  char *before = slurp_path(path);
  CHECK(atl_write_file(path, ATL_FORMAT_JSON, set) == 0);
  char *after = slurp_path(path);
  CHECK(before && after && strcmp(before, after) == 0);
  free(before);
  free(after);

  /* Clean up everything, leftovers of a failed check included, so that a
   * failing run does not litter /tmp. */
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    remove(path);
  }
  if (d)
    closedir(d);
  CHECK(rmdir(dir) == 0);
}

static void test_names(void)
{
  /* Every op name parses back to its op, and names are unique. */
  for (int op = 0; op < ATL_OP_COUNT; op++) {
    const char *name = atl_op_name((enum atl_op)op);
    if (!CHECK(atl_op_parse(name) == op))
      CHECK_CONTEXT("op %d '%s' parses to %d", op, name, atl_op_parse(name));
    CHECK(strcmp(atl_op_help((enum atl_op)op), "?") != 0);
    for (int other = 0; other < op; other++)
      CHECK(strcmp(name, atl_op_name((enum atl_op)other)) != 0);
  }
  CHECK(atl_op_parse("fetch-add") == -1 && atl_op_parse("") == -1 && atl_op_parse("FETCH_ADD") == -1);
  CHECK(strcmp(atl_op_name(ATL_OP_COUNT), "?") == 0);
  CHECK(atl_op_parse("plain_add") == ATL_OP_PLAIN_ADD && atl_op_parse("cas_fail") == ATL_OP_CAS_FAIL);
  for (int t = 0; t < ATL_TYPE_COUNT; t++)
    CHECK(atl_type_parse(atl_type_name((enum atl_type)t)) == t);
  for (int s = 0; s < ATL_SPACE_COUNT; s++)
    CHECK(atl_space_parse(atl_space_name((enum atl_space)s)) == s);
  for (int p = 0; p < ATL_PATTERN_COUNT; p++)
    CHECK(atl_pattern_parse(atl_pattern_name((enum atl_pattern)p)) == p);
  for (int r = 0; r < ATL_RESULT_COUNT; r++)
    CHECK(atl_result_parse(atl_result_name((enum atl_result_use)r)) == r);
  CHECK(atl_format_parse("csv") == ATL_FORMAT_CSV && atl_format_parse("json") == ATL_FORMAT_JSON &&
        atl_format_parse("table") == ATL_FORMAT_TABLE && atl_format_parse("xml") == -1);

  /* Error codes: distinct, known names and messages for every code. */
  static const int codes[] = {
#define CODE(name, msg) ATL_##name,
      ATL_ERRNO_MAP(CODE)
#undef CODE
  };
  static const char *const code_names[] = {
#define NAME(name, msg) "ATL_" #name,
      ATL_ERRNO_MAP(NAME)
#undef NAME
  };
  const size_t n = sizeof codes / sizeof codes[0];
  CHECK(n == (size_t)(ATL__ERR_END - ATL__ERR_BASE - 1));
  for (size_t i = 0; i < n; i++) {
    CHECK(codes[i] < 0);
    const char *msg = atl_strerror(codes[i]), *name = atl_err_name(codes[i]);
    CHECK(msg && name && msg[0] && name[0]);
    CHECK(strcmp(msg, "unknown error") != 0 && strstr(msg, "unknown") == NULL);
    CHECK(strcmp(name, "ATL_EUNKNOWN") != 0);
    CHECK(strcmp(name, code_names[i]) == 0);
    for (size_t j = 0; j < i; j++) {
      CHECK(strcmp(msg, atl_strerror(codes[j])) != 0);
      CHECK(strcmp(name, atl_err_name(codes[j])) != 0);
    }
  }
  CHECK(strcmp(atl_err_name(ATL_OK), "ATL_OK") == 0);
  CHECK(strcmp(atl_strerror(1), "unknown error") == 0);
  CHECK(strcmp(atl_strerror(ATL__ERR_END), "unknown error") == 0);
  CHECK(strcmp(atl_err_name(-1), "ATL_EUNKNOWN") == 0);
}

int main(void)
{
  struct atl_result_set set;
  build_set(&set);
  test_csv(&set);
  test_json(&set);
  test_write_file(&set);
  test_names();
  atl_result_set_release(&set);
  CHECK(set.rows == NULL && set.count == 0);
  return check_exit("test_output");
}
