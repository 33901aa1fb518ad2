/* atl_axis_parse: every documented form, and every malformed input rejected
 * with a reason (the CLI shows that reason to the user verbatim). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"

#define MAX_VALUE 1048576u

/* Parses text and compares against the exact expected list, in order. */
static void expect_values(const char *text, const uint32_t *want, size_t n)
{
  struct atl_axis axis;
  char why[256];
  int err = atl_axis_parse(text, MAX_VALUE, &axis, why, sizeof why);
  if (!CHECK(err == 0))
    CHECK_CONTEXT("'%s' rejected: %d %s", text, err, why);
  if (!CHECK(axis.count == n))
    CHECK_CONTEXT("'%s' gave %zu values, expected %zu", text, axis.count, n);
  for (size_t i = 0; i < n && i < axis.count; i++)
    if (!CHECK(axis.values[i] == want[i]))
      CHECK_CONTEXT("'%s' value %zu is %u, expected %u", text, i, axis.values[i], want[i]);
  atl_axis_release(&axis);
  CHECK(axis.values == NULL && axis.count == 0);
}

/* An error must be a negative ATL_E code with a reason, and leave no values. */
static void expect_error(const char *text, uint32_t max_value)
{
  struct atl_axis axis;
  char why[256];
  memset(why, 'Z', sizeof why); /* a stale buffer must not pass for a reason */
  why[sizeof why - 1] = '\0';
  int err = atl_axis_parse(text, max_value, &axis, why, sizeof why);
  if (!CHECK(err == ATL_EINVAL || err == ATL_ERANGE))
    CHECK_CONTEXT("'%s' (max %u) returned %d", text, max_value, err);
  if (!CHECK(why[0] != '\0' && why[0] != 'Z'))
    CHECK_CONTEXT("'%s' gave no reason", text);
  if (!CHECK(axis.count == 0 && axis.values == NULL))
    CHECK_CONTEXT("'%s' left %zu values behind", text, axis.count);
  atl_axis_release(&axis);
}

int main(void)
{
  /* Geometric: 2^0 .. 2^10. */
  uint32_t pow2[11];
  for (int i = 0; i < 11; i++)
    pow2[i] = 1u << i;
  expect_values("1:1024:x2", pow2, 11);
  expect_values("1:1024:*2", pow2, 11);
  /* "A:B" defaults to the usual powers-of-two sweep. */
  expect_values("1:8", pow2, 4);
  /* The end need not be on the sequence: stop at the last value below it. */
  expect_values("1:1000:x2", pow2, 10);
  expect_values("3:100:x3", (const uint32_t[]){3, 9, 27, 81}, 4);

  /* Arithmetic: 1, 9, ..., 57 (65 would pass the end). */
  uint32_t by8[8];
  for (int i = 0; i < 8; i++)
    by8[i] = 1u + 8u * (uint32_t)i;
  expect_values("1:64:+8", by8, 8);
  expect_values("5:7:+1", (const uint32_t[]){5, 6, 7}, 3);

  /* Lists, single values, degenerate ranges, duplicates. */
  expect_values("1,2,4", (const uint32_t[]){1, 2, 4}, 3);
  expect_values("7", (const uint32_t[]){7}, 1);
  expect_values("4:4", (const uint32_t[]){4}, 1);
  expect_values("2,2,4", (const uint32_t[]){2, 4}, 2);
  expect_values("1:4,2,8", (const uint32_t[]){1, 2, 4, 8}, 4);
  expect_values("1048576", (const uint32_t[]){MAX_VALUE}, 1); /* max itself is allowed */

  /* The full 32-bit range is usable when the caller allows it. */
  {
    struct atl_axis axis;
    char why[256];
    CHECK(atl_axis_parse("4294967295", UINT32_MAX, &axis, why, sizeof why) == 0);
    CHECK(axis.count == 1 && axis.values && axis.values[0] == UINT32_MAX);
    atl_axis_release(&axis);
    /* A geometric sweep to the top must stop, not wrap around 32 bits. */
    CHECK(atl_axis_parse("1:4294967295:x2", UINT32_MAX, &axis, why, sizeof why) == 0);
    CHECK(axis.count == 32 && axis.values && axis.values[31] == 1u << 31);
    atl_axis_release(&axis);
  }

  const char *bad[] = {"",     "0",       "-1",      "abc",  "1.5", "99999999999999999999", "8:1",
                       "1:8:x1", "1,,2",  ",1",      "1,",   ":8",  "1:",                   "1:8:",
                       "1:8:x", "1:8:+0", "1:2:3:4", " 1",   "1 ",  "+1",                   "0:4",
                       "0x10", "1:8:x0",  "4294967296"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    expect_error(bad[i], MAX_VALUE);
  /* Above the caller's maximum, as a value or as a range end. */
  expect_error("2048", 1024);
  expect_error("1:2048", 1024);
  expect_error("1,2,2048", 1024);
  expect_error("4294967296", UINT32_MAX);
  expect_error(NULL, MAX_VALUE);
  /* The reason names the problem: the offending text must appear in it. */
  {
    struct atl_axis axis;
    char why[256];
    CHECK(atl_axis_parse("abc", MAX_VALUE, &axis, why, sizeof why) != 0);
    CHECK(strstr(why, "abc") != NULL);
  }
  return check_exit("test_axis");
}
