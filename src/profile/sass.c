/*
 * The float and CAS shares of a kernel's global atomics from its SASS: the counters cannot tell an atomic's
 * type on sm_90 (no lts__ or l1tex__ metric splits them by type), the instructions can (ATOMG.E.ADD.F32,
 * RED.E.ADD.F32.FTZ.RN, ATOMG.E.CAS, ATOMS.CAST.SPIN). The SASS is cuobjdump -sass or nvdisasm text, each
 * kernel after a "Function : NAME" line (the mangled name). Here too the one rule that decides a launch's float share
 * from them, a types file and the launch's time (atl_diagnose_float_share), for the diagnosis and the L2 table alike.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "atomlab/diagnose.h"
#include "cuda/sass_count.h"

/* A demangled launch name's own identifier: "void ns::histogram1D<float>(float*, int)" -> "histogram1D". */
static void base_name(const char *kernel, char *out, size_t len)
{
  char tmp[256];
  snprintf(tmp, sizeof tmp, "%s", kernel);
  int depth = 0;
  for (char *p = tmp; *p; p++) { /* cut at the first '(' or '<' outside brackets: the parameters or template */
    if (*p == '(' || *p == '<') {
      if (depth == 0 && p != tmp && strncmp(p, "(anonymous", 10) != 0) {
        *p = '\0';
        break;
      }
      depth++;
    } else if ((*p == ')' || *p == '>') && depth > 0) {
      depth--;
    }
  }
  const char *b = tmp, *c;
  while ((c = strstr(b, "::")) != NULL)
    b = c + 2;
  const char *sp = strrchr(b, ' ');
  snprintf(out, len, "%s", sp ? sp + 1 : b);
}

/* The Itanium code of a demangled launch's first template argument after @p base ("float" -> 'f'), 0 where none. */
static char first_argument(const char *kernel, const char *base)
{
  static const struct { const char *name; char code; } types[] = {
      {"float", 'f'}, {"double", 'd'}, {"long", 'l'}, {"int", 'i'}, {"unsigned int", 'j'}, {"unsigned long", 'm'},
      {"c10::Half", 'N'}, {"c10::BFloat16", 'N'}, {"short", 's'}, {"unsigned char", 'h'}, {"signed char", 'a'}};
  const char *p = strstr(kernel, base);
  if (!p || p[strlen(base)] != '<')
    return 0;
  p += strlen(base) + 1;
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    const size_t n = strlen(types[i].name);
    if (strncmp(p, types[i].name, n) == 0 && (p[n] == ',' || p[n] == '>'))
      return types[i].code;
  }
  return 0;
}

/* Whether the "Function :" name @p fn (mangled or plain) is the kernel @p kernel: its identifier, and where both
 * name template arguments, the same first one (histogram<float> and histogram<long> are two kernels). */
static int names_kernel(const char *fn, size_t fn_len, const char *kernel)
{
  char base[256];
  base_name(kernel, base, sizeof base);
  const char arg = first_argument(kernel, base);
  const size_t b = strlen(base);
  if (b == 0)
    return 0;
  if (fn_len == b && strncmp(fn, base, b) == 0)
    return 1;
  for (const char *p = fn; p + b <= fn + fn_len; p++) /* Itanium: the identifier after its length */
    if (strncmp(p, base, b) == 0 && p > fn && isdigit((unsigned char)p[-1]) &&
        (p + b == fn + fn_len || !isalnum((unsigned char)p[b]) || isupper((unsigned char)p[b])))
      return !(arg && p[b] == 'I' && p + b + 1 < fn + fn_len && p[b + 1] != arg);
  return 0;
}

/* Counts one instruction's mnemonic into @p out. */
static void count(const char *m, struct atl_sass_atomics *out)
{
  const size_t n = strcspn(m, ".");
  if (n == 5 && strncmp(m, "ATOMS", 5) == 0) {
    out->shared++;
    return;
  }
  static const char *const global[] = {"ATOM", "ATOMG", "RED", "REDG", NULL};
  for (int i = 0; global[i]; i++)
    if (strlen(global[i]) == n && strncmp(m, global[i], n) == 0) {
      out->global++;
      if (strstr(m, ".ADD.F32") || strstr(m, ".ADD.FTZ.RN.F32"))
        out->f32_add++;
      else if (strstr(m, ".CAS"))
        out->cas++;
      return;
    }
}

int atl_sass_atomics_of(const char *sass, const char *kernel, struct atl_sass_atomics *out)
{
  memset(out, 0, sizeof *out);
  int in = 0, found = 0;
  for (const char *line = sass; line && *line;) {
    const char *end = strchr(line, '\n');
    const size_t len = end ? (size_t)(end - line) : strlen(line);
    const char *fn = strstr(line, "Function : ");
    if (fn && fn < line + len) {
      fn += 11;
      size_t fn_len = (size_t)(line + len - fn);
      while (fn_len && isspace((unsigned char)fn[fn_len - 1]))
        fn_len--;
      in = !found && names_kernel(fn, fn_len, kernel);
      found |= in;
    } else if (in) {
      char m[64];
      if (atl__sass_mnemonic(line, len, m, sizeof m))
        count(m, out);
    }
    line = end ? end + 1 : NULL;
  }
  return found;
}

void atl_diagnose_float_share(struct atl_l2_counters *k, const char *sass, int typed,
                              const struct atl_l2_calibration *cal, double threshold, struct atl_float_share *out)
{
  static const struct atl_l2_calibration none;
  struct atl_float_share f;
  memset(&f, 0, sizeof f);
  f.source = typed ? ATL_FLOAT_TYPES : ATL_FLOAT_COUNTERS;
  f.have_sass = sass && atl_sass_atomics_of(sass, k->kernel, &f.sass);
  if (f.have_sass && f.sass.global && !(typed && k->f32_share > 0)) { /* the types file overrides the SASS */
    k->f32_share = (double)f.sass.f32_add / f.sass.global;
    f.source = ATL_FLOAT_SASS;
  }
  atl_l2_utilization(cal ? cal : &none, k, &f.u);
  f.u_integer = f.u.u;
  struct atl_l2_counters typed_k;
  /* a type neither the SASS nor a types file gives: the float price where the launch's time holds it */
  if (!f.have_sass && !typed && atl_l2_float_from_time(cal, k, threshold, &typed_k, &f.u)) {
    *k = typed_k;
    f.source = ATL_FLOAT_TIME;
  }
  if (out)
    *out = f;
}

void atl_diagnose_float_shares(struct atl_l2_report *r, const char *sass, int typed,
                               const struct atl_l2_calibration *cal, double threshold)
{
  for (size_t i = 0; i < r->count; i++)
    atl_diagnose_float_share(&r->kernels[i], sass, typed, cal, threshold, NULL);
}
