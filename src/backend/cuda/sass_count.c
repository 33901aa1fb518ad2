/* Counting SASS instructions by class. The classes follow the question the
 * seed asks of its ISA (how many memory accesses, how many take the atomic
 * path, how much ALU work per access), so control flow and constant loads
 * are kept apart from both memory and ALU. */
#include <string.h>

#include "sass_count.h"

size_t atl__sass_mnemonic(const char *line, size_t line_len, char *m, size_t m_len)
{
  const char *p = strstr(line, "*/");
  if (m_len == 0)
    return 0;
  m[0] = '\0';
  /* the address comment must be on this line, and an instruction ends in ';' */
  if (p == NULL || (size_t)(p - line) >= line_len || memchr(line, ';', line_len) == NULL)
    return 0;
  p += 2;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '@') /* a predicate guards the instruction */
    while (*p && *p != ' ' && *p != '\t')
      p++;
  while (*p == ' ' || *p == '\t')
    p++;
  size_t k = 0;
  while (p[k] && p[k] != ' ' && p[k] != '\t' && p[k] != ';' && p[k] != '\n' && k + 1 < m_len) {
    m[k] = p[k];
    k++;
  }
  m[k] = '\0';
  /* an encoding comment ("/ * 0x000fc4... * /") has no mnemonic */
  if (k && !(m[0] >= 'A' && m[0] <= 'Z'))
    k = 0, m[0] = '\0';
  return k;
}

/* Whether the mnemonic's base (before the first '.') is one of @p names. */
static int base_is(const char *m, const char *const *names)
{
  size_t n = strcspn(m, ".");
  for (size_t i = 0; names[i]; i++)
    if (strlen(names[i]) == n && strncmp(m, names[i], n) == 0)
      return 1;
  return 0;
}

unsigned atl__sass_count(const char *sass, struct atl_isa_counts *c)
{
  static const char *const global_mem[] = {"LDG", "STG", "LD", "ST", "LDGSTS", NULL};
  static const char *const shared_mem[] = {"LDS", "STS", "LDSM", NULL};
  static const char *const local_mem[] = {"LDL", "STL", NULL};
  static const char *const const_loads[] = {"LDC", "ULDC", NULL};
  static const char *const atomic_global[] = {"ATOM", "ATOMG", "RED", "REDG", NULL};
  static const char *const atomic_shared[] = {"ATOMS", NULL};
  static const char *const control[] = {"BRA",   "BRX",      "JMP",   "JMX",     "CALL",  "RET",    "EXIT",
                                        "BSSY",  "BSYNC",    "BREAK", "BAR",     "WARPSYNC", "BMOV", "YIELD",
                                        "KILL",  "NANOSLEEP", "MEMBAR", "FENCE", "ERRBAR", "CCTL", "CCTLL",
                                        "DEPBAR", "BPT",     "RTT",   "LDGDEPBAR", "ACQBULK", NULL};
  memset(c, 0, sizeof *c);
  /* an instruction counts in the first class that names its base; in none, it is ALU work */
  const struct {
    const char *const *names;
    unsigned *count;
  } classes[] = {{global_mem, &c->global_mem},       {shared_mem, &c->shared_mem},
                 {local_mem, &c->local_mem},         {const_loads, &c->const_loads},
                 {atomic_global, &c->atomic_global}, {atomic_shared, &c->atomic_shared},
                 {control, &c->control}};
  for (const char *line = sass; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t line_len = end ? (size_t)(end - line) : strlen(line);
    char m[64];
    if (atl__sass_mnemonic(line, line_len, m, sizeof m) && !base_is(m, (const char *const[]){"NOP", NULL})) {
      c->total++;
      unsigned *count = &c->alu;
      for (size_t k = 0; k < sizeof classes / sizeof classes[0] && count == &c->alu; k++)
        if (base_is(m, classes[k].names))
          count = classes[k].count;
      (*count)++;
    }
    line = end ? end + 1 : NULL;
  }
  return c->total;
}

unsigned atl__isa_memory(const struct atl_isa_counts *c)
{
  return c->global_mem + c->shared_mem + c->local_mem + c->atomic_global + c->atomic_shared;
}

double atl__isa_alu_mem_ratio(const struct atl_isa_counts *c)
{
  const unsigned mem = atl__isa_memory(c);
  return mem ? (double)c->alu / mem : 0.0;
}
