/* The machine instructions behind a number: disassemble a CUBIN and keep
 * the atomic-related mnemonics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/process.h"
#include "sass.h"

/* cuobjdump, nvdisasm and ptxas take well under a second per kernel: a minute means something hangs. */
#define SASS_TOOL_TIMEOUT_S 60
#include "sass_count.h"

#define MAX_MNEMONICS 24

static int is_interesting(const char *m)
{
  static const char *const prefixes[] = {"ATOM", "RED", "VOTE", "POPC", "MATCH", "SHFL", "FLO", "MEMBAR", "FENCE", NULL};
  for (size_t i = 0; prefixes[i]; i++)
    if (strncmp(m, prefixes[i], strlen(prefixes[i])) == 0)
      return 1;
  return 0;
}

void atl__sass_summarise(const char *sass, char *out, size_t len)
{
  char names[MAX_MNEMONICS][64];
  unsigned counts[MAX_MNEMONICS];
  size_t n = 0;
  for (const char *line = sass; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t line_len = end ? (size_t)(end - line) : strlen(line);
    char m[64];
    const size_t k = atl__sass_mnemonic(line, line_len, m, sizeof m);
    if (k && is_interesting(m)) {
      size_t j = 0;
      while (j < n && strcmp(names[j], m) != 0)
        j++;
      if (j == n && n < MAX_MNEMONICS) {
        memcpy(names[n], m, k + 1);
        counts[n++] = 0;
      }
      if (j < n)
        counts[j]++;
    }
    line = end ? end + 1 : NULL;
  }
  if (len == 0)
    return;
  out[0] = '\0';
  size_t used = 0;
  for (size_t j = 0; j < n && used + 1 < len; j++)
    used += (size_t)snprintf(out + used, len - used, "%s%s x%u", j ? ", " : "", names[j], counts[j]);
  if (n == 0)
    snprintf(out, len, "none");
}

/* The first disassembler found: $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH. */
static int find_tool(const char *name, char *path, size_t len)
{
  const char *home = getenv("CUDA_HOME");
  const char *dirs[] = {home, "/usr/local/cuda/bin", NULL};
  for (size_t i = 0; i < 2; i++) {
    if (dirs[i] == NULL || !*dirs[i])
      continue;
    snprintf(path, len, "%s%s/%s", dirs[i], i == 0 ? "/bin" : "", name);
    if (access(path, X_OK) == 0)
      return 1;
  }
  const char *env = getenv("PATH");
  if (env == NULL)
    return 0;
  char *copy = strdup(env);
  int found = 0;
  for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
       dir = strtok_r(NULL, ":", &save)) {
    snprintf(path, len, "%s/%s", dir, name);
    found = access(path, X_OK) == 0;
  }
  free(copy);
  return found;
}

char *atl__sass_text(const void *cubin, size_t size, char *why, size_t why_len)
{
  char tool[512], file[] = "/tmp/atomlab-cubin-XXXXXX";
  int is_nvdisasm = find_tool("nvdisasm", tool, sizeof tool);
  if (!is_nvdisasm && !find_tool("cuobjdump", tool, sizeof tool)) {
    snprintf(why, why_len, "no nvdisasm or cuobjdump found");
    return NULL;
  }
  int fd = mkstemp(file);
  if (fd < 0) {
    snprintf(why, why_len, "no temporary file");
    return NULL;
  }
  int ok = write(fd, cubin, size) == (ssize_t)size;
  close(fd);
  char *text = NULL, run_why[300] = "";
  if (ok) { /* no shell: the tool's path and the file go to it as they are */
    char *argv[] = {tool, is_nvdisasm ? "-c" : "-sass", file, NULL};
    ok = atl__run(argv, SASS_TOOL_TIMEOUT_S, &text, NULL, (size_t)256 << 20, run_why, sizeof run_why) == 0;
  }
  unlink(file);
  if (!ok || text == NULL) {
    snprintf(why, why_len, "%s failed%s%s", tool, run_why[0] ? ": " : "", run_why);
    free(text);
    return NULL;
  }
  return text;
}

/* The summary of @p text (freed) into @p out, or "unknown (why)" where there is no text. */
static int summary_or_unknown(char *text, const char *why, char *out, size_t len)
{
  if (text == NULL) {
    snprintf(out, len, "unknown (%s)", why);
    return -1;
  }
  atl__sass_summarise(text, out, len);
  free(text);
  return 0;
}

int atl__sass_atomics(const void *cubin, size_t size, char *out, size_t len)
{
  char why[600];
  char *text = atl__sass_text(cubin, size, why, sizeof why);
  return summary_or_unknown(text, why, out, len);
}

char *atl__sass_text_ptx(const char *ptx, size_t size, char *why, size_t why_len)
{
  char tool[512], arch[32] = "", run_why[300];
  char ptx_file[] = "/tmp/atomlab-ptx-XXXXXX", cubin_file[] = "/tmp/atomlab-cubin-XXXXXX";
  const char *target = strstr(ptx, ".target");
  if (target == NULL || sscanf(target, ".target %31[a-z_0-9]", arch) != 1) {
    snprintf(why, why_len, "no .target in the program binary");
    return NULL;
  }
  if (!find_tool("ptxas", tool, sizeof tool)) {
    snprintf(why, why_len, "ptxas not found");
    return NULL;
  }
  int pfd = mkstemp(ptx_file), cfd = pfd >= 0 ? mkstemp(cubin_file) : -1;
  int ok = pfd >= 0 && cfd >= 0 && write(pfd, ptx, size) == (ssize_t)size;
  if (pfd >= 0)
    close(pfd);
  if (cfd >= 0)
    close(cfd);
  if (ok) {
    char arch_opt[48];
    snprintf(arch_opt, sizeof arch_opt, "-arch=%s", arch);
    char *argv[] = {tool, arch_opt, "-o", cubin_file, ptx_file, NULL};
    ok = atl__run(argv, SASS_TOOL_TIMEOUT_S, NULL, NULL, 0, run_why, sizeof run_why) == 0;
  }
  void *cubin = NULL;
  long cubin_size = 0;
  FILE *f = ok ? fopen(cubin_file, "rb") : NULL;
  if (f && fseek(f, 0, SEEK_END) == 0 && (cubin_size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (cubin = malloc((size_t)cubin_size)) != NULL)
    ok = fread(cubin, 1, (size_t)cubin_size, f) == (size_t)cubin_size;
  else
    ok = 0;
  if (f)
    fclose(f);
  if (pfd >= 0)
    unlink(ptx_file);
  if (cfd >= 0)
    unlink(cubin_file);
  char *text = NULL;
  if (ok)
    text = atl__sass_text(cubin, (size_t)cubin_size, why, why_len);
  else
    snprintf(why, why_len, "ptxas failed for %s", arch);
  free(cubin);
  return text;
}

int atl__sass_from_ptx(const char *ptx, size_t size, char *out, size_t len)
{
  char why[600];
  char *text = atl__sass_text_ptx(ptx, size, why, sizeof why);
  return summary_or_unknown(text, why, out, len);
}
