/* Counting the machine instructions of SASS text by class: the memory,
 * atomic and ALU counts behind seed 000's FastPath/CompletePath view. */
#ifndef ATOMLAB_SASS_COUNT_H
#define ATOMLAB_SASS_COUNT_H

#include <stddef.h>

/** Instructions of one kernel by class (NOPs are not counted anywhere). */
struct atl_isa_counts {
  unsigned total;         /**< every instruction but NOP */
  unsigned global_mem;    /**< plain global / generic loads and stores: LDG, STG, LD, ST, LDGSTS */
  unsigned shared_mem;    /**< plain shared-memory loads and stores: LDS, STS, LDSM */
  unsigned local_mem;     /**< thread-local spills: LDL, STL */
  unsigned const_loads;   /**< LDC, ULDC: kernel parameters and constants (neither memory nor ALU here) */
  unsigned atomic_global; /**< global atomics and reductions: ATOM, ATOMG, RED, REDG (REDUX is ALU) */
  unsigned atomic_shared; /**< shared-memory atomics: ATOMS */
  unsigned control;       /**< branches, barriers, fences, exit: BRA, BAR, MEMBAR, EXIT, ... */
  unsigned alu;           /**< the rest: integer, float, moves, predicates, warp votes and shuffles */
};

/**
 * Reads the mnemonic of one instruction line of nvdisasm -c or cuobjdump
 * -sass output ("/(addr)/ [@P0] MNEMONIC operands ;") into @p m, without its
 * predicate. Returns its length, 0 if the line is not an instruction.
 */
size_t atl__sass_mnemonic(const char *line, size_t line_len, char *m, size_t m_len);

/** Counts every instruction of @p sass into @p c (zeroed first); returns the total. */
unsigned atl__sass_count(const char *sass, struct atl_isa_counts *c);

/** Memory instructions: global + shared + local loads and stores and every atomic. */
unsigned atl__isa_memory(const struct atl_isa_counts *c);

/** ALU instructions per memory instruction (the seed's ALU:Fetch); 0 when there is no memory instruction. */
double atl__isa_alu_mem_ratio(const struct atl_isa_counts *c);

#endif
