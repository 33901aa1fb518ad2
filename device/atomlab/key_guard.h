/*
 * atomlab/key_guard.h: the library's guard on the scatter kernels it launches (src/apps/scatter_guard.c).
 * Built with KEY_GUARD defined, a kernel takes one more parameter, key_bad: the word where the keys' check
 * (src/kernels/scatter_check.k.c) put the lowest row whose key is out of range, 0xffffffff where there is none.
 * KEY_GUARD_RETURN() returns where one was found, before the kernel reads a key or writes a word: every work-item
 * reads the same word, so the whole grid returns (no barrier is left waiting), and an operation with a bad key
 * writes nothing. Without KEY_GUARD (the app's builds) both expand to nothing: the kernels are as they were.
 */
#ifndef ATOMLAB_KEY_GUARD_H
#define ATOMLAB_KEY_GUARD_H

#if defined(KEY_GUARD)
#define KEY_GUARD_PARAM , ATL_GLOBAL const uint *key_bad
#define KEY_GUARD_RETURN()                                                                                              \
  do {                                                                                                                 \
    if (key_bad[0] != 0xffffffffu)                                                                                     \
      return;                                                                                                          \
  } while (0)
#else
#define KEY_GUARD_PARAM
#define KEY_GUARD_RETURN()                                                                                             \
  do {                                                                                                                 \
  } while (0)
#endif

#endif
