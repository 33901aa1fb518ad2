# The row's layout stays the library's own: `cmake --install` of this build into a fresh prefix, then, against the
# installed headers without ATL_EXPERIMENTAL (the stable API a program sees):
# - tests/abi/row_abi.c, which makes, fills and reads rows only through result.h's functions, builds with -Werror, links
#   libatomlab.so.1 (every function it calls exported) and passes on the OpenCL device;
# - a program that allocates a row itself (`struct atl_row row;`) or reads a field does not compile, nor one that
#   includes the layout (atomlab/row_layout.h).
# Usage: abi_installed.sh ATOMLAB BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
need_opencl
BUILD=${2:?build dir}
SRC=${3:?source dir}
if ! install_build "$BUILD"; then
  fail "cmake --install failed: $(tail -5 "$WORK/install.log")"
  finish
  exit
fi
CC=${CC:-cc}
# stable_cc OUT SOURCE: compiles SOURCE as a program outside atomlab does, against the installed tree.
stable_cc() {
  "$CC" -std=c11 -Wall -Wextra -Werror $SAN -I"$PREFIX/include" -o "$1" "$2" -L"$PREFIX/lib" -latomlab -lm \
    -Wl,-rpath,"$PREFIX/lib" 2>"$WORK/cc.log"
}
if stable_cc "$WORK/row_abi" "$SRC/tests/abi/row_abi.c"; then pass; else
  fail "tests/abi/row_abi.c did not build against the stable headers: $(head -5 "$WORK/cc.log")"
fi
if readelf -d "$WORK/row_abi" 2>/dev/null | grep -q 'libatomlab.so.1'; then pass; else fail "row_abi does not link libatomlab.so.1"; fi
if "$WORK/row_abi" "$SRC/tests/data/result-files/rmw-v2.json" "$WORK" >"$WORK/abi.out" 2>&1 &&
  [ "$(grep -c '^ok: ' "$WORK/abi.out")" = 4 ]; then pass; else
  fail "row_abi: $(cat "$WORK/abi.out")"
fi
# What a program must not be able to write: each would tie it to the row's layout.
i=0
for body in 'struct atl_row row; atl_row_init(&row, "rmw"); atl_row_release(&row);' \
  'struct atl_row *row = atl_row_new(); int v = row->verified; atl_row_free(row); return v;' \
  'struct atl_result_set set = {0}; return set.count ? set.rows[0].verified : 0;' \
  'return (int)sizeof(struct atl_row);'; do
  i=$((i + 1))
  printf '#include <atomlab.h>\nint main(void)\n{\n  %s\n  return 0;\n}\n' "$body" >"$WORK/bad$i.c"
  if stable_cc "$WORK/bad$i" "$WORK/bad$i.c"; then fail "compiles against the stable headers: $body"; else pass; fi
done
printf '#include <atomlab/row_layout.h>\nint main(void) { return 0; }\n' >"$WORK/layout.c"
if stable_cc "$WORK/layout" "$WORK/layout.c"; then fail "atomlab/row_layout.h compiles without ATL_EXPERIMENTAL"; else
  if grep -q 'experimental' "$WORK/cc.log"; then pass; else fail "row_layout.h refused without naming why: $(head -3 "$WORK/cc.log")"; fi
fi
finish
