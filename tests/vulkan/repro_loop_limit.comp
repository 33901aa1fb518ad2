/*
 * repro_loop_limit.comp: every invocation adds 1 to its own word ITERS times (no two share a word, so nothing can
 * be lost to a race): with atomicAdd (OP_ADD), or with the CAS loop of atomlab's rmw.comp (OP_CAS: retry with the
 * value seen until the compare succeeds). Every word must end at ITERS.
 */
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Words { uint word[]; };
layout(push_constant) uniform Args { uint iters; };

void main()
{
  const uint gid = gl_GlobalInvocationID.x;
#if defined(OP_CAS)
  uint guess = 0u;
  for (uint i = 0u; i < iters; i++) {
    for (;;) {
      const uint seen = atomicCompSwap(word[gid], guess, guess + 1u);
      if (seen == guess)
        break;
      guess = seen;
    }
    guess++;
  }
#else
  for (uint i = 0u; i < iters; i++)
    atomicAdd(word[gid], 1u);
#endif
}
