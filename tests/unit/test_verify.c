/*
 * atl__verify against a host emulator of rmw.cl. The emulator runs every
 * thread's updates one at a time (perfectly atomic), so whatever it produces
 * is a state a correct device could end in, and the verifier must accept it;
 * then single corruptions of that state must be rejected, which shows that
 * the verifier is not vacuous.
 *
 * The emulator is written from the kernel's source, not from verify.c: it
 * shares only the spec's inputs (atl__op_values, atl__pattern_targets and the
 * LCG step) with the code under test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomlab.h"
#include "check.h"
#include "spec.h"
#include "core/verify.h"
#include "patterns/patterns.h"

static uint64_t type_mask(enum atl_type t) { return t == ATL_TYPE_U64 ? UINT64_MAX : 0xffffffffu; }

/* Elements have the type's width, as the device buffers do. */
static uint64_t get(const void *buf, enum atl_type t, uint64_t i)
{
  return t == ATL_TYPE_U64 ? ((const uint64_t *)buf)[i] : ((const uint32_t *)buf)[i];
}

static void put(void *buf, enum atl_type t, uint64_t i, uint64_t v)
{
  if (t == ATL_TYPE_U64)
    ((uint64_t *)buf)[i] = v;
  else
    ((uint32_t *)buf)[i] = (uint32_t)v;
}

/* atom_min / atom_max compare in the type's own order. */
static int less(enum atl_type t, uint64_t a, uint64_t b)
{
  if (t == ATL_TYPE_I32)
    return (int32_t)(uint32_t)a < (int32_t)(uint32_t)b;
  return a < b;
}

/* EXCHANGE_VALUE(gid) of rmw.cl: gid is a 32-bit uint there. */
static uint64_t exchange_value(enum atl_type t, uint64_t gid)
{
  uint32_t v = (uint32_t)gid + 1u;
  return t == ATL_TYPE_U64 ? (uint64_t)v * 0x100000001ull : v;
}

/* One UPDATE(p, old) of rmw.cl: returns the new value; old is what it returned. */
static uint64_t apply(enum atl_op op, enum atl_type t, uint64_t old, uint64_t operand, uint64_t gid)
{
  uint64_t r = old;
  switch (op) {
  case ATL_OP_FETCH_ADD:
    r = old + operand;
    break;
  case ATL_OP_FETCH_SUB:
    r = old - operand;
    break;
  case ATL_OP_INC:
  case ATL_OP_CAS: /* the retry loop ends in exactly one successful +1 */
    r = old + 1;
    break;
  case ATL_OP_DEC:
    r = old - 1;
    break;
  case ATL_OP_FETCH_MIN:
    r = less(t, operand, old) ? operand : old;
    break;
  case ATL_OP_FETCH_MAX:
    r = less(t, old, operand) ? operand : old;
    break;
  case ATL_OP_AND:
    r = old & operand;
    break;
  case ATL_OP_OR:
    r = old | operand;
    break;
  case ATL_OP_XOR:
    r = old ^ operand;
    break;
  case ATL_OP_EXCHANGE:
    r = exchange_value(t, gid);
    break;
  case ATL_OP_CAS_FAIL: /* compares with ~INIT, which memory never holds */
  default:
    break;
  }
  return r & type_mask(t);
}

/* One emulated launch and everything the verifier is given. */
struct emu {
  struct atl_spec s;
  uint32_t iters;
  uint64_t threads, dt, domains, words;
  uint32_t *targets; /* per grid thread; local space: index within the work-group */
  void *mem;         /* domains x words elements */
  void *sink;        /* one element per grid thread, NULL if the result is unused */
  uint64_t *hits;    /* updates each word received, for a direct check of atl__hit_counts */
};

static void emu_free(struct emu *e)
{
  free(e->targets);
  free(e->mem);
  free(e->sink);
  free(e->hits);
  memset(e, 0, sizeof *e);
}

/* Order 0: iteration outer, threads ascending (lockstep-like).
 * Order 1: threads descending outer, iterations inner (one thread at a time,
 * so a different thread writes last). Both are legal executions. */
static int emu_run(struct emu *e, const struct atl_spec *s, uint32_t iters, int order)
{
  memset(e, 0, sizeof *e);
  e->s = *s;
  e->iters = iters;
  e->threads = (uint64_t)s->wg_size * s->workgroups;
  const int local = s->space == ATL_SPACE_LOCAL;
  e->dt = local ? s->wg_size : e->threads;
  e->domains = local ? s->workgroups : 1;
  e->words = atl_spec_domain_words(s);
  const size_t esize = s->type == ATL_TYPE_U64 ? 8 : 4;
  CHECK(atl_type_size(s->type) == esize);
  if (!CHECK(e->words > 0))
    return -1;
  struct atl__op_values v;
  atl__op_values(s->op, s->type, &v);
  e->targets = malloc(e->threads * sizeof *e->targets);
  e->mem = malloc(e->domains * e->words * esize);
  e->sink = s->result == ATL_RESULT_USED ? malloc(e->threads * esize) : NULL;
  e->hits = calloc(e->domains * e->words, sizeof *e->hits);
  uint32_t *prev = malloc(e->threads * sizeof *prev);
  uint64_t *acc = calloc(e->threads, sizeof *acc);
  for (uint64_t i = 0; i < e->domains * e->words; i++)
    put(e->mem, s->type, i, v.init);
  /* As the driver does: each domain gets targets for its own threads, with a
   * seed base that makes every domain's random walk different. */
  for (uint64_t d = 0; d < e->domains; d++)
    atl__pattern_targets(s, d * e->dt, e->targets + d * e->dt);
  memcpy(prev, e->targets, e->threads * sizeof *prev);

  int bad_index = 0;
  const uint64_t outer = order == 0 ? iters : e->threads, inner = order == 0 ? e->threads : iters;
  for (uint64_t a = 0; a < outer; a++)
    for (uint64_t b = 0; b < inner; b++) {
      const uint64_t gid = order == 0 ? b : e->threads - 1 - a;
      if (s->pattern == ATL_PATTERN_BRANCHED && (gid & 1) == 0)
        continue; /* the host's branch[] enables odd global ids only */
      const uint64_t d = local ? gid / s->wg_size : 0;
      uint64_t idx;
      if (s->pattern == ATL_PATTERN_RANDOM) {
        prev[gid] = atl__lcg_next(prev[gid], (uint32_t)atl_spec_slots(s));
        idx = (uint64_t)prev[gid] * s->padding;
      } else {
        idx = e->targets[gid];
      }
      if (idx >= e->words) {
        bad_index = 1; /* the kernel would write outside its array */
        continue;
      }
      const uint64_t at = d * e->words + idx;
      const uint64_t old = get(e->mem, s->type, at);
      put(e->mem, s->type, at, apply(s->op, s->type, old, v.operand, gid));
      e->hits[at]++;
      acc[gid] = s->op == ATL_OP_EXCHANGE ? acc[gid] ^ old : (acc[gid] + old) & type_mask(s->type);
    }
  CHECK(!bad_index);
  if (e->sink)
    for (uint64_t g = 0; g < e->threads; g++)
      put(e->sink, s->type, g, acc[g]);
  free(prev);
  free(acc);
  return 0;
}

static int emu_verify(const struct emu *e, struct atl__verify_output *out)
{
  struct atl__verify_input in = {&e->s, e->iters, e->targets, e->mem, e->sink, NULL};
  memset(out, 0x55, sizeof *out); /* every field must be written */
  return atl__verify(&in, out);
}

static void describe(const struct emu *e, int order, const struct atl__verify_output *out)
{
  const struct atl_spec *s = &e->s;
  CHECK_CONTEXT("%s %s %s %s result=%s c=%u p=%u wg=%u x %u iters=%u order=%d: wrong_words=%llu sink_ok=%d (%s)",
                atl_op_name(s->op), atl_type_name(s->type), atl_space_name(s->space), atl_pattern_name(s->pattern),
                atl_result_name(s->result), s->contention, s->padding, s->wg_size, s->workgroups, e->iters, order,
                (unsigned long long)out->wrong_words, out->sink_ok, out->first_error);
}

/* Every correct execution must verify, and the hit counts behind the closed
 * forms must match what the emulator saw word by word. */
static void sweep(uint32_t wg, uint32_t groups)
{
  const enum atl_type types[] = {ATL_TYPE_U32, ATL_TYPE_I32, ATL_TYPE_U64};
  const uint32_t conts[] = {1, 2, 4}, pads[] = {1, 3}, iters_set[] = {1, 2, 5};
  for (int op = 0; op < ATL_OP_COUNT; op++) {
    if (op == ATL_OP_PLAIN_ADD)
      continue; /* not atomic: only a real race shows what it does */
    for (size_t ti = 0; ti < 3; ti++)
      for (int sp = 0; sp < ATL_SPACE_COUNT; sp++)
        for (int pat = 0; pat < ATL_PATTERN_COUNT; pat++)
          for (int r = 0; r < ATL_RESULT_COUNT; r++)
            for (size_t ci = 0; ci < 3; ci++)
              for (size_t pi = 0; pi < 2; pi++)
                for (size_t ii = 0; ii < 3; ii++)
                  for (int order = 0; order < 2; order++) {
                    const struct atl_spec s = make_spec((enum atl_op)op, types[ti], (enum atl_space)sp,
                                                        (enum atl_pattern)pat, (enum atl_result_use)r, conts[ci],
                                                        pads[pi], wg, groups);
                    struct emu e;
                    if (emu_run(&e, &s, iters_set[ii], order))
                      continue;
                    struct atl__verify_output out;
                    int err = emu_verify(&e, &out);
                    if (!CHECK(err == 0 && out.wrong_words == 0 && out.sink_ok == 1))
                      describe(&e, order, &out);
                    if (!CHECK(out.sink_checked == (r == ATL_RESULT_USED)))
                      describe(&e, order, &out);
                    if (order == 0) {
                      uint64_t *counts = malloc(e.words * sizeof *counts);
                      for (uint64_t d = 0; d < e.domains; d++) {
                        CHECK(atl__hit_counts(&s, d * e.dt, e.targets + d * e.dt, e.iters, counts) == 0);
                        for (uint64_t w = 0; w < e.words; w++)
                          if (!CHECK(counts[w] == e.hits[d * e.words + w])) {
                            describe(&e, order, &out);
                            CHECK_CONTEXT("atl__hit_counts: domain %llu word %llu: %llu, emulator %llu",
                                          (unsigned long long)d, (unsigned long long)w,
                                          (unsigned long long)counts[w],
                                          (unsigned long long)e.hits[d * e.words + w]);
                            d = e.domains;
                            break;
                          }
                      }
                      free(counts);
                    }
                    emu_free(&e);
                  }
  }
}

/* First word of domain d that received updates (there always is one). */
static uint64_t hit_word(const struct emu *e, uint64_t d)
{
  for (uint64_t w = 0; w < e->words; w++)
    if (e->hits[d * e->words + w])
      return w;
  CHECK(!"a domain without updates");
  return 0;
}

static void expect_caught(struct emu *e, const char *what, int want_words, int want_sink)
{
  struct atl__verify_output out;
  CHECK(emu_verify(e, &out) == 0);
  int ok = 1;
  if (want_words)
    ok &= CHECK(out.wrong_words >= 1);
  else
    ok &= CHECK(out.wrong_words == 0);
  if (want_sink)
    ok &= CHECK(out.sink_ok == 0);
  if (!ok) {
    CHECK_CONTEXT("corruption not reported as expected: %s", what);
    describe(e, 0, &out);
  }
  if (want_words || want_sink)
    CHECK(out.first_error[0] != '\0'); /* the row's reason quotes it */
}

/* Corruptions a broken device could produce, one at a time. */
static void corruptions(void)
{
  const enum atl_type types[] = {ATL_TYPE_U32, ATL_TYPE_I32, ATL_TYPE_U64};
  struct emu e;
  struct atl__op_values v;
  for (size_t ti = 0; ti < 3; ti++)
    for (int sp = 0; sp < ATL_SPACE_COUNT; sp++)
      for (int pat = 0; pat < ATL_PATTERN_COUNT; pat++) {
        const enum atl_type t = types[ti];
        /* A lost fetch_add update (the plain_add failure): one word short by
         * one operand. The last domain too: every domain must be checked. */
        struct atl_spec s = make_spec(ATL_OP_FETCH_ADD, t, (enum atl_space)sp, (enum atl_pattern)pat,
                                      ATL_RESULT_UNUSED, 2, 3, 8, 4);
        atl__op_values(s.op, t, &v);
        emu_run(&e, &s, 3, 0);
        uint64_t d = e.domains - 1, at = d * e.words + hit_word(&e, d);
        put(e.mem, t, at, (get(e.mem, t, at) - v.operand) & type_mask(t));
        expect_caught(&e, "fetch_add lost one update", 1, 0);
        emu_free(&e);

        /* xor: one flipped bit in a hit word, then in an untouched gap word. */
        s.op = ATL_OP_XOR;
        emu_run(&e, &s, 3, 0);
        at = hit_word(&e, 0);
        put(e.mem, t, at, get(e.mem, t, at) ^ 0x10);
        expect_caught(&e, "xor word flipped", 1, 0);
        emu_free(&e);
        emu_run(&e, &s, 3, 0);
        at = 1; /* padding 3: word 1 is between targets and must keep INIT */
        CHECK(e.hits[at] == 0);
        put(e.mem, t, at, get(e.mem, t, at) ^ 1);
        expect_caught(&e, "xor gap word written", 1, 0);
        emu_free(&e);

        /* A wrong returned value: memory is right, the sink is not. */
        const enum atl_op sink_ops[] = {ATL_OP_FETCH_ADD, ATL_OP_XOR, ATL_OP_EXCHANGE, ATL_OP_CAS, ATL_OP_FETCH_MIN};
        for (size_t k = 0; k < sizeof sink_ops / sizeof sink_ops[0]; k++) {
          s.op = sink_ops[k];
          s.result = ATL_RESULT_USED;
          emu_run(&e, &s, 3, 0);
          const uint64_t g = e.threads - 1; /* odd, so active even when branched */
          put(e.sink, t, g, (get(e.sink, t, g) + 1) & type_mask(t));
          expect_caught(&e, "one returned value off by one", 0, 1);
          emu_free(&e);
        }
        s.result = ATL_RESULT_UNUSED;

        /* exchange: a hit word left at INIT (0): no thread wrote it. */
        s.op = ATL_OP_EXCHANGE;
        emu_run(&e, &s, 2, 0);
        at = hit_word(&e, 0);
        put(e.mem, t, at, 0);
        expect_caught(&e, "exchange word never written", 1, 0);
        emu_free(&e);
        /* exchange: a value in an untouched gap word. */
        emu_run(&e, &s, 2, 0);
        put(e.mem, t, 1, get(e.mem, t, hit_word(&e, 0)));
        expect_caught(&e, "exchange value in a gap word", 1, 0);
        emu_free(&e);
      }

  /* exchange, value of a thread that never targets the word: contiguous c=2
   * puts threads 0 and 1 on word 0 and thread 5 on word 2 * padding. */
  for (size_t ti = 0; ti < 3; ti++) {
    const enum atl_type t = types[ti];
    struct atl_spec s = make_spec(ATL_OP_EXCHANGE, t, ATL_SPACE_GLOBAL, ATL_PATTERN_CONTIGUOUS, ATL_RESULT_UNUSED,
                                  2, 3, 8, 4);
    emu_run(&e, &s, 2, 0);
    CHECK(get(e.mem, t, 0) == exchange_value(t, 1)); /* i outer: thread 1 wrote last */
    put(e.mem, t, 0, exchange_value(t, 5));
    expect_caught(&e, "exchange value of a thread on another word", 1, 0);
    /* Either thread on the word may be last: thread 0's value is legal too
     * (the sink is not given, since it records who really was last). */
    put(e.mem, t, 0, exchange_value(t, 0));
    expect_caught(&e, "exchange value of the other writer of the word", 0, 0);
    /* A value no thread writes at all (gid beyond the grid). */
    put(e.mem, t, 0, exchange_value(t, e.threads + 10));
    expect_caught(&e, "exchange value from beyond the grid", 1, 0);
    if (t == ATL_TYPE_U64) {
      /* Halves that disagree: no EXCHANGE_VALUE has that shape. */
      put(e.mem, t, 0, exchange_value(t, 0) + 0x100000000ull);
      expect_caught(&e, "u64 exchange value with mismatched halves", 1, 0);
    }
    emu_free(&e);

    /* Local space: work-group 0's thread 0 has the same local target as
     * work-group 1's thread 8, but it cannot write work-group 1's array. */
    s.space = ATL_SPACE_LOCAL;
    emu_run(&e, &s, 2, 0);
    CHECK(e.targets[0] == e.targets[8]);
    put(e.mem, t, 1 * e.words + e.targets[8], exchange_value(t, 0));
    expect_caught(&e, "local exchange value from another work-group", 1, 0);
    emu_free(&e);
    /* The same from the other side: a later work-group's value in an
     * earlier work-group's array. */
    emu_run(&e, &s, 2, 0);
    put(e.mem, t, 0 * e.words + e.targets[0], exchange_value(t, 8));
    expect_caught(&e, "local exchange value from a later work-group", 1, 0);
    emu_free(&e);

    /* Branched: an even thread is disabled, so its value cannot appear even
     * on a word it targets. With c = 32 every thread of the grid targets
     * word 0, odd and even alike, so the word is hit and thread 0 is on it. */
    s = make_spec(ATL_OP_EXCHANGE, t, ATL_SPACE_GLOBAL, ATL_PATTERN_BRANCHED, ATL_RESULT_UNUSED, 32, 3, 8, 4);
    emu_run(&e, &s, 2, 0);
    CHECK(e.targets[0] == 0 && e.targets[1] == 0 && e.hits[0] > 0);
    put(e.mem, t, 0, exchange_value(t, 0));
    expect_caught(&e, "exchange value of a disabled (even) thread", 1, 0);
    put(e.mem, t, 0, exchange_value(t, 1));
    expect_caught(&e, "exchange value of an enabled (odd) thread on the word", 0, 0);
    emu_free(&e);

    /* Random, one step each: a thread whose only slot is another one. */
    s = make_spec(ATL_OP_EXCHANGE, t, ATL_SPACE_GLOBAL, ATL_PATTERN_RANDOM, ATL_RESULT_UNUSED, 4, 3, 8, 4);
    emu_run(&e, &s, 1, 0);
    uint64_t w = hit_word(&e, 0), other = e.threads;
    for (uint64_t g = 0; g < e.threads; g++)
      if ((uint64_t)atl__lcg_next(e.targets[g], 4) * 3 != w) {
        other = g;
        break;
      }
    if (CHECK(other < e.threads)) {
      put(e.mem, t, w, exchange_value(t, other));
      expect_caught(&e, "random exchange value of a thread that never visits the slot", 1, 0);
    }
    emu_free(&e);
  }

  /* Result unused: no sink to compare, and the verifier says so. */
  {
    struct atl_spec s = make_spec(ATL_OP_INC, ATL_TYPE_U32, ATL_SPACE_GLOBAL, ATL_PATTERN_CONTIGUOUS,
                                  ATL_RESULT_UNUSED, 1, 1, 8, 4);
    emu_run(&e, &s, 4, 0);
    struct atl__verify_output out;
    CHECK(emu_verify(&e, &out) == 0);
    CHECK(out.sink_checked == 0 && out.sink_ok == 1 && out.wrong_words == 0);
    CHECK(out.first_error[0] == '\0');
    /* Every word was hit, so each one corrupted is one more wrong word. */
    for (uint64_t k = 0; k < 5; k++)
      put(e.mem, ATL_TYPE_U32, k, 0);
    CHECK(emu_verify(&e, &out) == 0);
    CHECK_EQ(out.wrong_words, 5);
    emu_free(&e);
  }
}

int main(int argc, char **argv)
{
  /* "--odd-wg" runs only the sweep with an odd work-group size, registered as
   * its own ctest entry so that a failure there is told apart at a glance. */
  if (argc > 1 && strcmp(argv[1], "--odd-wg") == 0) {
    /* Odd work-group sizes are accepted by atl_rmw_check (1 to the device
     * maximum), and make the local and global ids of a thread differ in
     * parity in every other work-group, which matters for the branched
     * pattern in local memory. */
    sweep(7, 3);
    return check_exit("test_verify --odd-wg");
  }
  /* The emulator's exchange value must be the library's (the kernel's
   * EXCHANGE_VALUE, which the verifier assumes). */
  for (uint64_t g = 0; g < 100; g++)
    for (int t = 0; t < 3; t++)
      CHECK_EQ(atl__exchange_value((enum atl_type)t, g), exchange_value((enum atl_type)t, g));
  CHECK_EQ(atl__exchange_value(ATL_TYPE_U64, 0xffffffffull), 0); /* wraps like the kernel's 32-bit gid + 1 */

  /* The op constants must make each op observable: min below the start value
   * and max above it in the type's order, and no op a no-op on INIT. */
  const enum atl_type types[] = {ATL_TYPE_U32, ATL_TYPE_I32, ATL_TYPE_U64};
  for (size_t ti = 0; ti < 3; ti++)
    for (int op = 0; op < ATL_OP_COUNT; op++) {
      struct atl__op_values v;
      atl__op_values((enum atl_op)op, types[ti], &v);
      CHECK((v.init & ~type_mask(types[ti])) == 0 && (v.operand & ~type_mask(types[ti])) == 0);
      if (op == ATL_OP_CAS_FAIL || op == ATL_OP_PLAIN_ADD)
        continue; /* cas_fail changes nothing by design; plain_add is not emulated */
      if (!CHECK(apply((enum atl_op)op, types[ti], v.init, v.operand, 0) != v.init))
        CHECK_CONTEXT("%s on %s leaves INIT unchanged", atl_op_name((enum atl_op)op), atl_type_name(types[ti]));
    }

  sweep(8, 4);
  corruptions();
  return check_exit("test_verify");
}
