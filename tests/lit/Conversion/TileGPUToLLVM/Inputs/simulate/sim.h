//===- sim.h - GPU threads on the CPU for the simulated lowerings ---------===//
//
// What harness.cpp and mma-harness.cpp share: the shared-memory array, the
// emulation of tid.x, bar.sync and shfl.sync.bfly/idx (rewrite.py redirects the
// intrinsics here) over POSIX threads, one per GPU thread, an independent
// model of the blocked layout's registers, and the result check.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TESTS_SIMULATE_SIM_H
#define TILEC_TESTS_SIMULATE_SIM_H

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <pthread.h>
#include <vector>

extern "C" {
alignas(1024) char tilegpu_shared[1 << 17];
}

/// The most threads one run may have (8 warps).
constexpr int kMaxThreads = 256;

static pthread_barrier_t bar;
static thread_local int myTid;
static int shflBuf[kMaxThreads];

extern "C" int sim_tid() { return myTid; }
extern "C" void sim_bar(int) { pthread_barrier_wait(&bar); }
/// v from lane `lane` of this thread's warp (every thread calls it).
static int shuffleFrom(int v, int lane) {
  pthread_barrier_wait(&bar);
  shflBuf[myTid] = v;
  pthread_barrier_wait(&bar);
  int r = shflBuf[myTid / 32 * 32 + lane % 32];
  pthread_barrier_wait(&bar);
  return r;
}
extern "C" int sim_shfl(int, int v, int off, int) {
  return shuffleFrom(v, (myTid % 32) ^ off);
}
extern "C" int sim_shfl_idx(int, int v, int lane, int) {
  return shuffleFrom(v, lane);
}

struct Blocked {
  std::vector<int> spt, tpw, wpc, order;
};

// Index of every register of thread t for a tile of `shape` (independent
// model).
static std::vector<std::vector<int>> regs(const Blocked &L,
                                          std::vector<int> shape, int t) {
  int rank = shape.size();
  std::vector<int> lane(rank), warp(rank), base(rank), per(rank), reps(rank),
      cta(rank);
  int l = t % 32, w = t / 32;
  for (int d : L.order) {
    lane[d] = l % L.tpw[d];
    l /= L.tpw[d];
    warp[d] = w % L.wpc[d];
    w /= L.wpc[d];
  }
  int inTile = 1, total = 1;
  for (int d = 0; d < rank; ++d) {
    cta[d] = L.spt[d] * L.tpw[d] * L.wpc[d];
    base[d] = (warp[d] * L.tpw[d] + lane[d]) * L.spt[d];
    per[d] = std::min(L.spt[d], shape[d]);
    reps[d] = std::max(1, shape[d] / cta[d]);
    inTile *= per[d];
    total *= per[d] * reps[d];
  }
  std::vector<std::vector<int>> out;
  for (int e = 0; e < total; ++e) {
    int k = e % inTile, rep = e / inTile;
    std::vector<int> idx(rank);
    for (int d : L.order) {
      int off = (rep % reps[d]) * cta[d] + k % per[d];
      k /= per[d];
      rep /= reps[d];
      idx[d] = (base[d] + off) % shape[d];
    }
    out.push_back(idx);
  }
  return out;
}

/// Runs `body(tid)` in `threads` threads that share one barrier.
static void runThreads(std::function<void(int)> body, int threads = 128) {
  pthread_barrier_init(&bar, nullptr, threads);
  std::vector<pthread_t> th(threads);
  static std::function<void(int)> *B;
  B = &body;
  for (long t = 0; t < threads; ++t)
    pthread_create(
        &th[t], nullptr,
        [](void *a) -> void * {
          myTid = (long)a;
          (*B)(myTid);
          return nullptr;
        },
        (void *)t);
  for (auto &x : th)
    pthread_join(x, nullptr);
  pthread_barrier_destroy(&bar);
}

static int failures = 0;
static void check(const char *what, float got, double want, int t, int r) {
  if (std::fabs(got - want) > 1e-3 * std::max(1.0, std::fabs(want))) {
    if (failures++ < 10)
      printf("%s: thread %d reg %d got %f want %f\n", what, t, r, got, want);
  }
}

#endif // TILEC_TESTS_SIMULATE_SIM_H
