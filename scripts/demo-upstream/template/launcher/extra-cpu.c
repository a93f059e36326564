/*
 * The drift series' slowdown, preloaded into the server (LD_PRELOAD) by the launcher: before each reply the
 * server sends, its thread spends DEMO_EXTRA_CPU_PERMILLE thousandths more CPU time than it used since it last received or
 * sent, so every query costs that much more server CPU, whatever the test. Thread CPU time, not wall time: a
 * thread that is preempted while it spins does not count the wait. mariadbd calls recv and send from glibc, so
 * these wrappers see every client packet of a one-thread-per-connection server.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

#include "release.h"

typedef ssize_t (*recv_fn)(int, void *, size_t, int);
typedef ssize_t (*send_fn)(int, const void *, size_t, int);

/* The thread's CPU time when it last came back from recv or send; 0 before its first. */
static __thread int64_t mark_ns;

static int64_t thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Loop iterations per nanosecond of thread CPU, measured once per thread: the spin reads the clock a few times, not
 * at every step, since a clock read is a system call here and each one costs the thread's caches more than its
 * own time (which would make the slowdown larger than the share asked for). */
static __thread double iterations_per_ns;

static void burn(int64_t iterations) {
  for (volatile int64_t i = 0; i < iterations; i++) {
  }
}

static void calibrate(void) {
  int64_t start = thread_cpu_ns();
  burn(200000);
  int64_t took = thread_cpu_ns() - start;
  iterations_per_ns = took > 0 ? 200000.0 / (double)took : 1.0;
}

/* Burns DEMO_EXTRA_CPU_PERMILLE thousandths of the CPU time the thread used since the mark. */
static void spend_extra(void) {
  if (mark_ns == 0 || DEMO_EXTRA_CPU_PERMILLE <= 0) return;
  if (iterations_per_ns == 0) calibrate();
  int64_t now = thread_cpu_ns();
  int64_t until = now + (now - mark_ns) * DEMO_EXTRA_CPU_PERMILLE / 1000;
  /* Most of what is left at each step, so the clock is read two or three times and the spin ends on time. */
  for (int64_t left = until - now; left > 0; left = until - thread_cpu_ns()) burn((int64_t)((double)left * iterations_per_ns * 0.9) + 1);
}

ssize_t recv(int fd, void *buf, size_t len, int flags) {
  static recv_fn real;
  if (real == NULL) real = (recv_fn)dlsym(RTLD_NEXT, "recv");
  ssize_t n = real(fd, buf, len, flags);
  mark_ns = thread_cpu_ns();
  return n;
}

ssize_t send(int fd, const void *buf, size_t len, int flags) {
  static send_fn real;
  if (real == NULL) real = (send_fn)dlsym(RTLD_NEXT, "send");
  spend_extra();
  ssize_t n = real(fd, buf, len, flags);
  mark_ns = thread_cpu_ns();
  return n;
}
