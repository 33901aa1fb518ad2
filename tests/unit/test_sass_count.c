/* SASS instruction classes on a snippet in nvdisasm -c's layout (the shape
 * tests/unit/test_sass.c records; the atomic mnemonics as the H100 runs in
 * printed them, e.g. REDG.E.ADD.STRONG.GPU) and in
 * cuobjdump -sass's layout with encoding comments. This machine has no
 * disassembler, so no whole kernel is recorded here; `atomlab app swatomic`
 * on an NVIDIA GPU prints the counts of the real kernels. */
#include <string.h>

#include "backend/cuda/sass_count.h"
#include "check.h"

int main(void)
{
  const char *sass = "\t.text.swatomic:\n"
                     "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                     "        /*0010*/                   S2R R0, SR_TID.X ;\n"
                     "        /*0020*/                   ULDC.64 UR4, c[0x0][0x208] ;\n"
                     "        /*0030*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;\n"
                     ".L_x_1:\n"
                     "        /*0040*/                   IMAD.WIDE.U32 R2, R5, 0x4, R2 ;\n"
                     "        /*0050*/                   LDG.E.CONSTANT R7, desc[UR4][R2.64] ;\n"
                     "        /*0060*/              @!P0 ATOMG.E.ADD.STRONG.GPU PT, R9, desc[UR4][R4.64], R8 ;\n"
                     "        /*0070*/               @P1 REDG.E.ADD.STRONG.GPU desc[UR4][R4.64], R7 ;\n"
                     "        /*0080*/                   STG.E desc[UR4][R10.64], R7 ;\n"
                     "        /*0090*/                   ATOMS.POPC.INC.32 RZ, [URZ] ;\n"
                     "        /*00a0*/                   LDS R12, [R13] ;\n"
                     "        /*00b0*/                   STS [R13], R12 ;\n"
                     "        /*00c0*/                   REDUX.SUM UR6, R7 ;\n"
                     "        /*00d0*/                   SHFL.IDX PT, R14, R7, RZ, 0x1f ;\n"
                     "        /*00e0*/                   MEMBAR.ALL.GPU ;\n"
                     "        /*00f0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
                     "        /*0100*/               @P0 BRA `(.L_x_1) ;\n"
                     "        /*0110*/                   STL [R1], R3 ;\n"
                     "        /*0120*/                   EXIT ;\n"
                     "        /*0130*/                   BRA `(.L_x_2);\n"
                     "        /*0140*/                   NOP;\n"
                     "  // a comment mentioning ATOMG.ADD without a semicolon\n";
  struct atl_isa_counts c;
  CHECK(atl__sass_count(sass, &c) == 20);
  CHECK(c.total == 20);
  CHECK(c.const_loads == 2);  /* LDC, ULDC.64 */
  CHECK(c.global_mem == 2);   /* LDG, STG */
  CHECK(c.atomic_global == 2);/* ATOMG, REDG */
  CHECK(c.atomic_shared == 1);/* ATOMS */
  CHECK(c.shared_mem == 2);   /* LDS, STS */
  CHECK(c.local_mem == 1);    /* STL */
  CHECK(c.control == 5);      /* MEMBAR, BAR, BRA x2, EXIT */
  CHECK(c.alu == 5);          /* S2R, ISETP, IMAD, REDUX, SHFL */
  CHECK(atl__isa_memory(&c) == 8);
  CHECK(fabs(atl__isa_alu_mem_ratio(&c) - 5.0 / 8.0) < 1e-12);

  /* cuobjdump -sass: an encoding comment after each instruction and on its own line */
  const char *dump = "        /*0000*/                   MOV R1, c[0x0][0x28] ;                  /* 0x00000a0000017a02 */\n"
                     "                                                                             /* 0x000fc40000000f00 */\n"
                     "        /*0010*/                   LD.E R2, [R4.64] ;                      /* 0x0000000004027980 */\n"
                     "        /*0020*/                   ATOM.E.ADD.STRONG.GPU PT, R3, [R4.64], R2 ;\n"
                     "        /*0030*/                   EXIT ;                                  /* 0x000000000000794d */\n";
  CHECK(atl__sass_count(dump, &c) == 4);
  CHECK(c.global_mem == 1 && c.atomic_global == 1 && c.alu == 1 && c.control == 1);
  CHECK(fabs(atl__isa_alu_mem_ratio(&c) - 0.5) < 1e-12);

  /* nothing: no division by zero */
  CHECK(atl__sass_count("", &c) == 0);
  CHECK(atl__isa_alu_mem_ratio(&c) == 0);

  char m[8];
  CHECK(atl__sass_mnemonic("   /*0000*/  @!P2 IADD3 R1 ;", 29, m, sizeof m) == 5 && strcmp(m, "IADD3") == 0);
  CHECK(atl__sass_mnemonic("  IADD3 R1, R2 ;", 16, m, sizeof m) == 0); /* no address comment */
  CHECK(atl__sass_mnemonic("   /*0000*/  ATOMG.E.ADD.STRONG.GPU ;", 38, m, sizeof m) == 7); /* cut, never overrun */
  return check_exit("test_sass_count");
}
