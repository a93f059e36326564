/*
 * The extra work a demo release carries, preloaded into the server (LD_PRELOAD) by the launcher: once per query, at
 * the first reply packet the server sends after it received the query, the server's thread runs a fixed loop of
 * DEMO_EXTRA_INSTRUCTIONS instructions. A fixed count, not a share of time: an instruction counter (callgrind, perf
 * stat) sees exactly that many more per query at every run, and the QPS lane sees the time they take, about their
 * share of the query's own instructions. mariadbd calls recv and send from glibc, so these wrappers see every
 * client packet of a one-thread-per-connection server.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "release.h"

typedef ssize_t (*recv_fn)(int, void *, size_t, int);
typedef ssize_t (*send_fn)(int, const void *, size_t, int);

/* Set when the thread received a packet; the next send is the query's first reply, where the work is done. */
static __thread int query_pending;

/*
 * Two instructions per iteration (a decrement and a conditional branch), so the count is exact whatever the compiler
 * does around it; a plain C loop where neither instruction set is known (the count is then only close).
 */
static void spend(uint64_t iterations) {
  if (iterations == 0) return;
#if defined(__x86_64__)
  __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(iterations) : : "cc");
#elif defined(__aarch64__)
  __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(iterations) : : "cc");
#else
  for (volatile uint64_t i = 0; i < iterations; i++) {
  }
#endif
}

ssize_t recv(int fd, void *buf, size_t len, int flags) {
  static recv_fn real;
  if (real == NULL) real = (recv_fn)dlsym(RTLD_NEXT, "recv");
  ssize_t n = real(fd, buf, len, flags);
  if (n > 0) query_pending = 1;
  return n;
}

ssize_t send(int fd, const void *buf, size_t len, int flags) {
  static send_fn real;
  if (real == NULL) real = (send_fn)dlsym(RTLD_NEXT, "send");
  if (query_pending) {
    query_pending = 0;
    spend((uint64_t)DEMO_EXTRA_INSTRUCTIONS / 2);
  }
  return real(fd, buf, len, flags);
}
