/*
 * The demo server: answers --version like mariadbd does, with this release's version, and otherwise runs this
 * host's mariadbd with the same arguments plus the settings this release fixes. execv keeps the process id, so
 * whoever started the launcher can stop the server with signals as usual.
 *
 * A release that carries extra work (DEMO_EXTRA_INSTRUCTIONS >= 0: the drift series, the bisection series' slow
 * commits) also preloads lib/libdemo_extra_work.so from its own install prefix into the server (see extra-work.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "release.h"

#define VERSION_SUFFIX "-MariaDB-qpswatch-demo"

static const char *const extra_args[] = {DEMO_EXTRA_ARGS NULL};

/* LD_PRELOAD=<prefix>/lib/libdemo_extra_work.so, the prefix found from this program's own path (<prefix>/bin). */
static int preload_extra_work(const char *program) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return -1;
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (slash == NULL) return -1;
  *slash = '\0';
  char library[PATH_MAX + 64];
  snprintf(library, sizeof library, "%s/../lib/libdemo_extra_work.so", self);
  if (access(library, R_OK) != 0) {
    fprintf(stderr, "%s: %s: %s\n", program, library, strerror(errno));
    return -1;
  }
  return setenv("LD_PRELOAD", library, 1);
}

static int asks_for_version(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (asks_for_version(argc, argv)) {
    printf("%s  Ver %s%s for Linux on %s (qpswatch demo)\n", argv[0], DEMO_VERSION, VERSION_SUFFIX, DEMO_ARCH);
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "--demo-selftest") == 0) {
    printf("engine %016llx\n", (unsigned long long)demo_engine_selftest());
    return 0;
  }
  if (DEMO_EXTRA_INSTRUCTIONS >= 0 && preload_extra_work(argv[0]) != 0) return 1;
  size_t extra = sizeof extra_args / sizeof extra_args[0] - 1;
  char **args = calloc((size_t)argc + extra + 2, sizeof *args);
  if (args == NULL) {
    perror("calloc");
    return 1;
  }
  size_t n = 0;
  args[n++] = DEMO_REAL_MARIADBD;
  for (int i = 1; i < argc; i++) args[n++] = argv[i];
  /* After the caller's arguments: mariadbd wants --defaults-file first, and a later option wins. */
  for (size_t i = 0; i < extra; i++) args[n++] = (char *)extra_args[i];
  /* SELECT VERSION() then names this release, not the host's server. */
  args[n++] = "--version=" DEMO_VERSION VERSION_SUFFIX;
  args[n] = NULL;
  execv(DEMO_REAL_MARIADBD, args);
  fprintf(stderr, "%s: cannot run %s: %s\n", argv[0], DEMO_REAL_MARIADBD, strerror(errno));
  return 127;
}
