# The installed tree works for a user: `cmake --install` of this build into a
# fresh prefix, then examples/ built against it through find_package(atomlab)
# (the CUDA kernel compiled where nvcc is found) and host.c once more through
# pkg-config; host (a histogram and a sweep, every row verified), scatter_add (atl_scatter_add, atomic and
# deterministic, checked against the bound and bit for bit between deterministic runs) and
# opencl_tickets (an OpenCL kernel over the installed device headers) run on
# the OpenCL device. Usage: examples_installed.sh ATOMLAB BUILD_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
need_opencl
BUILD=${2:?build dir}
SRC=${3:?source dir}
# The docs show these very files (docs/design/strategies.md), so the docs' examples are the ones CI compiles.
for f in tickets.cu tickets.cl; do
  if python3 -c 'import sys; sys.exit(open(sys.argv[1]).read() not in open(sys.argv[2]).read())' \
    "$SRC/examples/$f" "$SRC/docs/design/strategies.md"; then pass; else fail "docs/design/strategies.md does not show examples/$f"; fi
done
if install_build "$BUILD"; then pass; else
  fail "cmake --install failed: $(tail -5 "$WORK/install.log")"
  finish
  exit
fi
for f in include/atomlab.h include/atomlab/app.h include/atomlab/file.h include/atomlab/atomics.cuh \
  include/atomlab/bincount_device.h include/atomlab/atomics.clh include/atomlab/atomics.h include/atomlab/port.h lib/libatomlab.a lib/libatomlab.so \
  lib/pkgconfig/atomlab.pc lib/cmake/atomlab/atomlabConfig.cmake bin/atomlab include/atomlab/context.h lib/libatomlab.so.1; do
  if [ -e "$PREFIX/$f" ]; then pass; else fail "not installed: $f"; fi
done
# The umbrella header includes every public header.
for h in "$PREFIX"/include/atomlab/*.h; do
  name=atomlab/$(basename "$h")
  [ "$name" = atomlab/backend.h ] && continue # for backend authors, not API users
  case $name in atomlab/port.h | atomlab/atomics.h | atomlab/scatter_device.h | atomlab/scatter_types.h | atomlab/group_scan.h | \
    atomlab/bincount_device.h | atomlab/key_guard.h | atomlab/scatter_sm90.h)
    continue ;;
  esac # device headers (CUDA C / OpenCL C kernels), not host C
  if grep -q "#include \"$name\"" "$PREFIX/include/atomlab.h"; then pass; else fail "atomlab.h lacks $name"; fi
done
if cmake -S "$SRC/examples" -B "$WORK/ex" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_FLAGS="$SAN" \
  -DCMAKE_EXE_LINKER_FLAGS="$SAN" >"$WORK/ex.log" 2>&1 &&
  cmake --build "$WORK/ex" >>"$WORK/ex.log" 2>&1; then pass; else
  fail "examples did not build against the installed tree: $(grep -m5 -i error "$WORK/ex.log")"
fi
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  if grep -q "tickets.cu compiled" "$WORK/ex.log"; then pass; else fail "nvcc present but tickets.cu not compiled"; fi
fi
if "$WORK/ex/host" >"$WORK/host.out" 2>&1 && grep -q "histogram u8/uniform/shared .*verified=1" "$WORK/host.out" &&
  [ "$(grep -c 'fetch_add contention.*verified=1' "$WORK/host.out")" = 3 ]; then pass; else
  fail "examples/host: $(cat "$WORK/host.out")"
fi
if "$WORK/ex/scatter_add" >"$WORK/scatter.out" 2>&1 && grep -q "deterministic runs bit-identical" "$WORK/scatter.out" &&
  grep -q "the atomic mode's method for these keys: [a-z]" "$WORK/scatter.out" &&
  [ "$(grep -c 'of the bound' "$WORK/scatter.out")" = 3 ]; then pass; else
  fail "examples/scatter_add: $(cat "$WORK/scatter.out")"
fi
# atomlab on the program's own OpenCL context, queue and buffers; its sums read back by the program
if "$WORK/ex/opencl_interop" >"$WORK/interop.out" 2>&1 && [ "$(grep -c '^ok: ' "$WORK/interop.out")" = 3 ]; then pass; else
  fail "examples/opencl_interop: $(cat "$WORK/interop.out")"
fi
# The shared library exports the stable API only: no internal (atl__) symbol, the version script's version.
if nm -D --defined-only "$PREFIX/lib/libatomlab.so.1" | grep -q ' atl__'; then
  fail "libatomlab.so.1 exports internal symbols"
elif nm -D --defined-only "$PREFIX/lib/libatomlab.so.1" | grep -q 'atl_context_from_opencl@@ATOMLAB_1'; then pass; else
  fail "libatomlab.so.1 lacks atl_context_from_opencl@@ATOMLAB_1"
fi
# LeakSanitizer off for this one: its kernel is built with -I $PREFIX, a new path each run, so PoCL
# compiles it every time, and LLVM's compiler inside a sanitized process leaves memory LeakSanitizer
# reports (neither atomlab's nor this example's: it does not link libatomlab).
if ASAN_OPTIONS=detect_leaks=0 "$WORK/ex/opencl_tickets" "$SRC/examples/tickets.cl" "$PREFIX/include" >"$WORK/tickets.out" 2>&1 &&
  grep -q "all distinct" "$WORK/tickets.out"; then pass; else
  fail "examples/opencl_tickets: $(cat "$WORK/tickets.out")"
fi
# pkg-config: a relocatable atomlab.pc (prefix from its own folder), as a user's Makefile would use it
if PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" cc -std=c11 $SAN -o "$WORK/host_pc" "$SRC/examples/host.c" \
  $(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs atomlab) -Wl,-rpath,"$PREFIX/lib" \
  2>"$WORK/pc.log" && "$WORK/host_pc" >/dev/null 2>&1; then pass; else
  fail "host.c through pkg-config: $(head -5 "$WORK/pc.log")"
fi
finish
