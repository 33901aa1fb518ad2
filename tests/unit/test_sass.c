/* The SASS summariser: atomic mnemonics in order, with counts, predicates skipped. */
#include <string.h>

#include "backend/cuda/sass.h"
#include "check.h"

int main(void)
{
  /* The shape nvdisasm -c prints: an address comment, an optional predicate, the instruction. */
  const char *sass = "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                     "        /*0090*/                   VOTE.ANY R5, PT, PT ;\n"
                     "        /*00a0*/                   FLO.U32 R6, R5 ;\n"
                     "        /*00b0*/                   POPC R7, R5 ;\n"
                     "        /*00c0*/              @!P0 REDG.E.ADD.STRONG.GPU desc[UR4][R2.64], R7 ;\n"
                     "        /*00d0*/                   ATOMG.E.ADD.STRONG.GPU PT, R9, desc[UR4][R2.64], R8 ;\n"
                     "        /*00e0*/               @P1 REDG.E.ADD.STRONG.GPU desc[UR4][R4.64], R7 ;\n"
                     "        /*00f0*/                   EXIT ;\n"
                     "  // a comment mentioning ATOMS.ADD without a semicolon\n";
  char out[256];
  atl__sass_summarise(sass, out, sizeof out);
  CHECK(strcmp(out, "VOTE.ANY x1, FLO.U32 x1, POPC x1, REDG.E.ADD.STRONG.GPU x2, ATOMG.E.ADD.STRONG.GPU x1") == 0);
  atl__sass_summarise("        /*0000*/  IADD3 R1, R1, 0x1, RZ ;\n", out, sizeof out);
  CHECK(strcmp(out, "none") == 0);
  atl__sass_summarise("", out, sizeof out);
  CHECK(strcmp(out, "none") == 0);
  /* a short buffer is cut, never overrun */
  char small[12];
  memset(small, 'x', sizeof small);
  atl__sass_summarise(sass, small, 8);
  CHECK(strlen(small) < 8 && small[8] == 'x');
  return check_exit("test_sass");
}
