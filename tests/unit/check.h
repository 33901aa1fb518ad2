/*
 * A tiny check harness for the unit tests: CHECK never aborts, so one run
 * reports every broken expectation, and check_exit() turns the count of
 * failures into the process status that ctest reads.
 */
#ifndef ATL_TESTS_UNIT_CHECK_H
#define ATL_TESTS_UNIT_CHECK_H

#include <math.h>
#include <stdio.h>

/* Each test is one translation unit, so file-scope counters are per test. */
static unsigned long check_total;
static unsigned long check_failures;

/* Past this many failures only the count grows: a broken sweep over thousands
 * of configurations must not drown the first, most useful messages. */
#ifndef CHECK_PRINT_LIMIT
#define CHECK_PRINT_LIMIT 40
#endif

static inline int check_eval(int ok, const char *file, int line, const char *expr)
{
  check_total++;
  if (ok)
    return 1;
  if (++check_failures <= CHECK_PRINT_LIMIT)
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, expr);
  else if (check_failures == CHECK_PRINT_LIMIT + 1)
    fprintf(stderr, "(further failures are counted but not printed)\n");
  return 0;
}

/* Returns the truth of cond (a function call, so an unused result is not a
 * warning) so that callers can add context on failure. */
#define CHECK(cond) check_eval((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* Exact integer comparison that shows both values: "expected 3, got 4" says
 * more than the expression alone. */
#define CHECK_EQ(a, b)                                                                                            \
  do {                                                                                                            \
    unsigned long long check_a_ = (unsigned long long)(a), check_b_ = (unsigned long long)(b);                   \
    if (!CHECK(check_a_ == check_b_) && check_failures <= CHECK_PRINT_LIMIT)                                     \
      fprintf(stderr, "    %s = %llu (0x%llx), %s = %llu (0x%llx)\n", #a, check_a_, check_a_, #b, check_b_,       \
              check_b_);                                                                                          \
  } while (0)

/* Doubles computed by a few exact operations on small integers: a tolerance
 * of a few ulps keeps the assertion exact in spirit. */
#define CHECK_NEAR(a, b)                                                                                          \
  do {                                                                                                            \
    double check_a_ = (a), check_b_ = (b);                                                                        \
    if (!CHECK(fabs(check_a_ - check_b_) <= 1e-12 * (1.0 + fabs(check_b_))) && check_failures <= CHECK_PRINT_LIMIT) \
      fprintf(stderr, "    %s = %.17g, %s = %.17g\n", #a, check_a_, #b, check_b_);                                \
  } while (0)

/* Prints context (which configuration failed) under the most recent failure. */
#define CHECK_CONTEXT(...)                                                                                        \
  do {                                                                                                            \
    if (check_failures <= CHECK_PRINT_LIMIT) {                                                                    \
      fprintf(stderr, "    context: ");                                                                           \
      fprintf(stderr, __VA_ARGS__);                                                                               \
      fputc('\n', stderr);                                                                                        \
    }                                                                                                             \
  } while (0)

/* The process status: 0 only if every check passed. */
static inline int check_exit(const char *name)
{
  if (check_failures)
    fprintf(stderr, "%s: %lu of %lu checks FAILED\n", name, check_failures, check_total);
  else
    printf("%s: all %lu checks passed\n", name, check_total);
  return check_failures ? 1 : 0;
}

#endif
