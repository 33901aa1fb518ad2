/*
 * Replays a fuzz corpus through a harness without libFuzzer, so the normal
 * and sanitizer builds check every committed input in CI:
 *   replay DIR...   runs LLVMFuzzerTestOneInput on each file and prints a count.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  uint8_t *data = NULL;
  size_t size = 0, cap = 0, got;
  uint8_t chunk[4096];
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (size + got > cap) {
      cap = (size + got) * 2;
      uint8_t *grown = realloc(data, cap);
      if (grown == NULL) {
        free(data);
        fclose(f);
        return -1;
      }
      data = grown;
    }
    for (size_t i = 0; i < got; i++)
      data[size + i] = chunk[i];
    size += got;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(data ? data : (const uint8_t *)"", size);
  free(data);
  return 0;
}

int main(int argc, char **argv)
{
  unsigned count = 0;
  for (int a = 1; a < argc; a++) {
    DIR *dir = opendir(argv[a]);
    if (dir == NULL) {
      fprintf(stderr, "error: unable to open '%s'\n", argv[a]);
      return 1;
    }
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
      if (e->d_name[0] == '.')
        continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
      if (replay_file(path) != 0) {
        fprintf(stderr, "error: unable to read '%s'\n", path);
        closedir(dir);
        return 1;
      }
      count++;
    }
    closedir(dir);
  }
  printf("%u passed, 0 failed\n", count);
  return count ? 0 : 1;
}
