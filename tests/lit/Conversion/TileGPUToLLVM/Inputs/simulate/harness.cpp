//===- harness.cpp - Runs lowered reduce/scan/dot on the CPU --------------===//
//
// The functions of kernels.mlir, lowered to LLVM and made host-runnable by
// rewrite.py, run in 128 POSIX threads (one per GPU thread of 4 warps):
// tid.x, shfl.sync.bfly and bar.sync are emulated with a barrier and a
// shared array (sim.h). Each thread's inputs are the elements its layout
// gives it, and each of its result registers is checked against a reference
// computed here, so both the index math and the cross-thread steps are
// tested.
//
//===----------------------------------------------------------------------===//
#include "sim.h"

extern "C" void w_rows(float *, float *);
extern "C" void w_cols(float *, float *);
extern "C" void w_small(float *, float *);
extern "C" void w_total(float *, float *);
extern "C" void w_total16(float *, float *);
extern "C" void w_scan(float *, float *);
extern "C" void w_rscan(float *, float *);
extern "C" void w_lscan(float *, float *);
extern "C" void w_lrscan(float *, float *);
extern "C" void w_scan16(float *, float *);
extern "C" void w_cscan(float *, float *);
extern "C" void w_first(float *, float *);
extern "C" void w_rlast(float *, float *);
extern "C" void w_dot(float *, float *, float *, float *);
extern "C" void w_argmax(float *, int *, int *);
extern "C" void w_lsum(long *, long *);
extern "C" void w_hdot(_Float16 *, _Float16 *, float *, float *);
extern "C" void w_trans(float *, float *);
extern "C" void w_htrans(_Float16 *, _Float16 *);
extern "C" void w_convert(float *, float *);
int main() {
  Blocked b{{1, 4}, {4, 8}, {2, 2}, {1, 0}}, l{{2}, {32}, {4}, {0}};
  Blocked c{{2, 1}, {8, 4}, {1, 4}, {0, 1}};
  std::vector<float> X(32 * 64), Bm(64 * 64), C(32 * 64);
  for (int i = 0; i < 32 * 64; ++i) {
    X[i] = (rand() % 1000) / 100.0f - 5;
    C[i] = (rand() % 100) / 10.0f;
  }
  for (int i = 0; i < 64 * 64; ++i)
    Bm[i] = (rand() % 1000) / 100.0f - 5;
  auto in2 = [&](const std::vector<float> &M, std::vector<int> shape, int t) {
    std::vector<float> v;
    for (auto &ix : regs(b, shape, t))
      v.push_back(M[ix[0] * shape[1] + ix[1]]);
    return v;
  };
  // rows: sum over axis 1 -> slice(dim 1): parent shape [32, 1].
  runThreads([&](int t) {
    auto in = in2(X, {32, 64}, t);
    float out[64];
    w_rows(in.data(), out);
    auto rr = regs(b, {32, 1}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = 0;
      for (int j = 0; j < 64; ++j)
        s += X[rr[r][0] * 64 + j];
      check("rows", out[r], s, t, r);
    }
  });
  runThreads([&](int t) {
    auto in = in2(X, {32, 64}, t);
    float out[64];
    w_cols(in.data(), out);
    auto rr = regs(b, {1, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = 0;
      for (int i = 0; i < 32; ++i)
        s += X[i * 64 + rr[r][1]];
      check("cols", out[r], s, t, r);
    }
  });
  runThreads([&](int t) {
    auto ix = regs(b, {4, 4}, t);
    std::vector<float> in;
    for (auto &i : ix)
      in.push_back(X[i[0] * 4 + i[1]]);
    float out[16];
    w_small(in.data(), out);
    auto rr = regs(b, {1, 4}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = 0;
      for (int i = 0; i < 4; ++i)
        s += X[i * 4 + rr[r][1]];
      check("small", out[r], s, t, r);
    }
  });
  runThreads([&](int t) {
    std::vector<float> in;
    for (auto &i : regs(l, {1024}, t))
      in.push_back(X[i[0]]);
    float out;
    w_total(in.data(), &out);
    double s = 0;
    for (int i = 0; i < 1024; ++i)
      s += X[i];
    check("total", out, s, t, 0);
  });
  runThreads([&](int t) {
    std::vector<float> in;
    for (auto &i : regs(l, {16}, t))
      in.push_back(X[i[0]]);
    float out;
    w_total16(in.data(), &out);
    double s = 0;
    for (int i = 0; i < 16; ++i)
      s += X[i];
    check("total16", out, s, t, 0);
  });
  runThreads([&](int t) {
    auto in = in2(X, {32, 64}, t);
    float out[64];
    w_scan(in.data(), out);
    auto rr = regs(b, {32, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = 0;
      for (int j = 0; j <= rr[r][1]; ++j)
        s += X[rr[r][0] * 64 + j];
      check("scan", out[r], s, t, r);
    }
  });
  runThreads([&](int t) {
    auto in = in2(X, {32, 64}, t);
    float out[64];
    w_rscan(in.data(), out);
    auto rr = regs(b, {32, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = 0;
      for (int i = rr[r][0]; i < 32; ++i)
        s += X[i * 64 + rr[r][1]];
      check("rscan", out[r], s, t, r);
    }
  });
  // 1-D scans: repetitions of the CTA tile, every warp and lane along the
  // axis, forward and reversed; a replicated 16-element tile; and the
  // non-commutative "first" and reversed "last", whose results show the
  // combine order (lower indices on the left).
  auto scan1d = [&](const char *name, void (*fn)(float *, float *), int n,
                    std::function<double(int)> ref) {
    runThreads([&](int t) {
      std::vector<float> in;
      for (auto &i : regs(l, {n}, t))
        in.push_back(X[i[0]]);
      float out[64];
      fn(in.data(), out);
      auto rr = regs(l, {n}, t);
      for (size_t r = 0; r < rr.size(); ++r)
        check(name, out[r], ref(rr[r][0]), t, r);
    });
  };
  auto prefix = [&](int lo, int hi) {
    double s = 0;
    for (int i = lo; i < hi; ++i)
      s += X[i];
    return s;
  };
  scan1d("lscan", w_lscan, 1024, [&](int i) { return prefix(0, i + 1); });
  scan1d("lrscan", w_lrscan, 1024, [&](int i) { return prefix(i, 1024); });
  scan1d("scan16", w_scan16, 16, [&](int i) { return prefix(0, i + 1); });
  scan1d("first", w_first, 1024, [&](int) { return X[0]; });
  scan1d("rlast", w_rlast, 1024, [&](int) { return X[1023]; });
  // Along the slower dimension of an order [0, 1] layout (4 warps, 4
  // repetitions along it).
  runThreads([&](int t) {
    std::vector<float> in;
    for (auto &i : regs(c, {32, 64}, t))
      in.push_back(X[i[0] * 64 + i[1]]);
    float out[64];
    w_cscan(in.data(), out);
    auto rr = regs(c, {32, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = 0;
      for (int j = 0; j <= rr[r][1]; ++j)
        s += X[rr[r][0] * 64 + j];
      check("cscan", out[r], s, t, r);
    }
  });
  runThreads([&](int t) {
    auto a = in2(X, {32, 64}, t), bb = in2(Bm, {64, 64}, t),
         c = in2(C, {32, 64}, t);
    float out[64];
    w_dot(a.data(), bb.data(), c.data(), out);
    auto rr = regs(b, {32, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = C[rr[r][0] * 64 + rr[r][1]];
      for (int k = 0; k < 64; ++k)
        s += (double)X[rr[r][0] * 64 + k] * Bm[k * 64 + rr[r][1]];
      check("dot", out[r], s, t, r);
    }
  });
  // argmax (small integers: many ties, which pick the smaller index), i64
  // sums over a replicated tile, fp16 dot with operands in other layouts.
  for (int i = 0; i < 32 * 64; ++i) {
    X[i] = rand() % 20;
    C[i] = (rand() % 100) / 10.0f;
  }
  for (int i = 0; i < 64 * 64; ++i)
    Bm[i] = (rand() % 1000) / 100.0f - 5;
  runThreads([&](int t) {
    std::vector<float> v;
    std::vector<int> ix;
    for (auto &i : regs(c, {32, 64}, t)) {
      v.push_back(X[i[0] * 64 + i[1]]);
      ix.push_back(i[1]);
    }
    int out[64];
    w_argmax(v.data(), ix.data(), out);
    auto rr = regs(c, {32, 1}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      int best = 0;
      for (int j = 1; j < 64; ++j)
        if (X[rr[r][0] * 64 + j] > X[rr[r][0] * 64 + best])
          best = j;
      check("argmax", out[r], best, t, r);
    }
  });
  runThreads([&](int t) {
    std::vector<long> v;
    for (auto &i : regs(b, {4, 64}, t))
      v.push_back((long)(X[i[0] * 64 + i[1]]) << 33);
    long out[64];
    w_lsum(v.data(), out);
    auto rr = regs(b, {1, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      long s = 0;
      for (int i = 0; i < 4; ++i)
        s += (long)(X[i * 64 + rr[r][1]]) << 33;
      if (out[r] != s) {
        if (failures++ < 10)
          printf("lsum t %d r %zu got %ld want %ld\n", t, r, out[r], s);
      }
    }
  });
  runThreads([&](int t) {
    std::vector<_Float16> a, bb;
    std::vector<float> acc;
    for (auto &i : regs(c, {32, 64}, t)) {
      a.push_back((_Float16)X[i[0] * 64 + i[1]]);
      acc.push_back(C[i[0] * 64 + i[1]]);
    }
    for (auto &i : regs(b, {64, 64}, t))
      bb.push_back((_Float16)Bm[i[0] * 64 + i[1]]);
    float out[64];
    w_hdot(a.data(), bb.data(), acc.data(), out);
    auto rr = regs(c, {32, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r) {
      double s = C[rr[r][0] * 64 + rr[r][1]];
      for (int k = 0; k < 64; ++k)
        s += (double)(float)(_Float16)X[rr[r][0] * 64 + k] *
             (float)(_Float16)Bm[k * 64 + rr[r][1]];
      check("hdot", out[r], s, t, r);
    }
  });
  // Transposes and a conversion between orders move through swizzled
  // scratch: every element must land exactly where it belongs. `source`
  // gives the input element at result index (i, j).
  auto checkMoved = [&](const char *name, void (*fn)(float *, float *),
                        const Blocked &layout, std::vector<int> shape,
                        auto source) {
    runThreads([&](int t) {
      auto in = in2(X, {32, 64}, t);
      float out[64];
      fn(in.data(), out);
      auto rr = regs(layout, shape, t);
      for (size_t r = 0; r < rr.size(); ++r)
        check(name, out[r], source(rr[r][0], rr[r][1]), t, r);
    });
  };
  checkMoved("trans", w_trans, b, {64, 32},
             [&](int i, int j) { return X[j * 64 + i]; });
  checkMoved("convert", w_convert, c, {32, 64},
             [&](int i, int j) { return X[i * 64 + j]; });
  runThreads([&](int t) {
    std::vector<_Float16> in;
    for (auto &i : regs(b, {64, 64}, t))
      in.push_back((_Float16)Bm[i[0] * 64 + i[1]]);
    _Float16 out[64];
    w_htrans(in.data(), out);
    auto rr = regs(b, {64, 64}, t);
    for (size_t r = 0; r < rr.size(); ++r)
      check("htrans", (float)out[r],
            (float)(_Float16)Bm[rr[r][1] * 64 + rr[r][0]], t, r);
  });
  printf("%s (%d mismatches)\n", failures ? "FAILED" : "PASSED", failures);
  return failures != 0;
}
