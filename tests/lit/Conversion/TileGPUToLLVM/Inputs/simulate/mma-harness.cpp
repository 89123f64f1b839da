//===- mma-harness.cpp - Runs lowered tensor-core dots on the CPU ---------===//
//
// The functions of mma.mlir, lowered to LLVM and made host-runnable by
// rewrite.py, run in 128 or 256 POSIX threads (sim.h). ldmatrix, mma.sync
// and cp.async are emulated here from the PTX ISA's definitions: ldmatrix
// gathers the eight row addresses of each 8x8 matrix from the warp's lanes
// and hands lane l elements 2 * (l % 4) and + 1 of row l / 4 (.trans: of
// column l / 4), also counting misaligned rows and reads whose eight rows
// share a bank; mma.sync m16n8k16 gathers the warp's a, b and c fragments
// and returns each lane's four results, summed in fp32; cp.async copies at
// once (zero-filling past the source size). Each thread's inputs are the
// elements its layout gives it, and each of its result registers is checked
// against a reference computed here.
//
//===----------------------------------------------------------------------===//
#include "sim.h"

#include <atomic>
#include <cstdint>
#include <cstring>

static std::uintptr_t ldAddr[kMaxThreads];
static thread_local std::uint32_t ldRegs[4];
static std::atomic<int> ldReads{0}, ldConflicts{0}, ldMisaligned{0};

extern "C" void sim_ldmatrix(long addr, int count, int trans) {
  pthread_barrier_wait(&bar);
  ldAddr[myTid] = addr;
  pthread_barrier_wait(&bar);
  int lane = myTid % 32, first = myTid - lane, g = lane / 4, t = lane % 4;
  for (int m = 0; m < count; ++m) {
    std::uint32_t reg = 0;
    for (int j = 0; j < 2; ++j) {
      int row = trans ? 2 * t + j : g, col = trans ? g : 2 * t + j;
      std::uint16_t bits;
      std::memcpy(&bits, (const char *)ldAddr[first + 8 * m + row] + 2 * col,
                  2);
      reg |= std::uint32_t(bits) << (16 * j);
    }
    ldRegs[m] = reg;
    if (lane != 0)
      continue;
    // The eight 16-byte rows of one matrix are read at once: they must be
    // aligned and fall in eight different groups of four banks.
    unsigned groups = 0;
    for (int row = 0; row < 8; ++row) {
      std::uintptr_t rowAddr = ldAddr[first + 8 * m + row];
      if (rowAddr % 16 != 0)
        ++ldMisaligned;
      groups |= 1u << (rowAddr / 16 % 8);
    }
    ++ldReads;
    if (groups != 0xff)
      ++ldConflicts;
  }
  pthread_barrier_wait(&bar);
}
extern "C" std::uint32_t sim_ldmatrix_reg(int i) { return ldRegs[i]; }

static std::uint32_t mmaA[kMaxThreads][4], mmaB[kMaxThreads][2];
static float mmaC[kMaxThreads][4];
static thread_local float mmaD[4];

/// Element `j` (0: low half) of a register of two fp16 or bf16 values.
static float element(std::uint32_t reg, int j, bool bf16) {
  std::uint16_t bits = reg >> (16 * j);
  if (bf16) {
    std::uint32_t wide = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
  }
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return h;
}

extern "C" void sim_mma(int bf16, std::uint32_t a0, std::uint32_t a1,
                        std::uint32_t a2, std::uint32_t a3, std::uint32_t b0,
                        std::uint32_t b1, float c0, float c1, float c2,
                        float c3) {
  pthread_barrier_wait(&bar);
  std::uint32_t as[] = {a0, a1, a2, a3}, bs[] = {b0, b1};
  float cs[] = {c0, c1, c2, c3};
  std::memcpy(mmaA[myTid], as, sizeof as);
  std::memcpy(mmaB[myTid], bs, sizeof bs);
  std::memcpy(mmaC[myTid], cs, sizeof cs);
  pthread_barrier_wait(&bar);
  int lane = myTid % 32, first = myTid - lane, g = lane / 4, t = lane % 4;
  // a (16x16, row r, column k): lane 4 * (r % 8) + (k % 8) / 2, register
  // (r >= 8) + 2 * (k >= 8); b (16x8, row k, column n): lane
  // 4 * n + (k % 8) / 2, register k >= 8; the low half holds the even k.
  auto a = [&](int r, int k) {
    return element(
        mmaA[first + 4 * (r % 8) + k % 8 / 2][(r >= 8) + 2 * (k >= 8)], k % 2,
        bf16);
  };
  auto b = [&](int k, int n) {
    return element(mmaB[first + 4 * n + k % 8 / 2][k >= 8], k % 2, bf16);
  };
  for (int i = 0; i < 4; ++i) {
    int r = g + 8 * (i / 2), n = 2 * t + i % 2;
    float sum = mmaC[myTid][i];
    for (int k = 0; k < 16; ++k)
      sum += a(r, k) * b(k, n);
    mmaD[i] = sum;
  }
  pthread_barrier_wait(&bar);
}
extern "C" float sim_mma_reg(int i) { return mmaD[i]; }

static std::atomic<int> copyMisaligned{0};
static void copyAsync(void *dst, const void *src, int bytes, int size) {
  if ((std::uintptr_t)dst % bytes != 0 || (std::uintptr_t)src % bytes != 0)
    ++copyMisaligned;
  std::memset(dst, 0, bytes);
  std::memcpy(dst, src, size);
}
extern "C" void sim_cp_async_16_s(void *dst, const void *src, int size) {
  copyAsync(dst, src, 16, size);
}
extern "C" void sim_cp_async_8_s(void *dst, const void *src, int size) {
  copyAsync(dst, src, 8, size);
}
extern "C" void sim_cp_async_4_s(void *dst, const void *src, int size) {
  copyAsync(dst, src, 4, size);
}
extern "C" void sim_cp_async_commit() {}
extern "C" void sim_cp_async_wait(int) {}

using Fn3 = void (*)(void *, void *, float *, float *);
using Fn4 = void (*)(const void **, std::uint8_t *, void *, float *, float *);
extern "C" void w_kn(void *, void *, float *, float *);
extern "C" void w_nk(void *, void *, float *, float *);
extern "C" void w_nk1(void *, void *, float *, float *);
extern "C" void w_nk2(void *, void *, float *, float *);
extern "C" void w_nk_bf16(void *, void *, float *, float *);
extern "C" void w_nk_x2(void *, void *, float *, float *);
extern "C" void w_nk_wrap(void *, void *, float *, float *);
extern "C" void w_nk_w8(void *, void *, float *, float *);
extern "C" void w_nk_regs(void *, void *, float *, float *);
extern "C" void w_slot_kn(const void **, std::uint8_t *, void *, float *,
                          float *);
extern "C" void w_slot_nk(const void **, std::uint8_t *, void *, float *,
                          float *);
extern "C" void w_slot_nk4(const void **, std::uint8_t *, void *, float *,
                           float *);
extern "C" void w_slot_nk_w8(const void **, std::uint8_t *, void *, float *,
                             float *);
extern "C" void w_slot_trans(const void **, std::uint8_t *, void *, float *,
                             float *);

/// One function of mma.mlir: out [M, N] = a [M, K] @ b [K, N] + c.
struct Case {
  const char *name;
  int m, n, k, warps;
  Blocked a, b, out;
  bool bf16 = false;
  Fn3 staged = nullptr; ///< (a, b, c) -> out.
  Fn4 copied = nullptr; ///< (b pointers, b mask, a, c) -> out.
  /// Whether the pointers are bt [N, K] in layout `b` (copied transposed).
  bool transposed = false;
};

/// fp16 or bf16 bits of `x` (bf16 by truncation: x is exact in it).
static std::uint16_t bits16(float x, bool bf16) {
  if (bf16) {
    std::uint32_t wide;
    std::memcpy(&wide, &x, 4);
    return wide >> 16;
  }
  _Float16 h = x;
  std::uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

static void run(const Case &c) {
  // Small integers and halves: exact in fp16, bf16 and every fp32 sum.
  std::vector<float> A(c.m * c.k), B(c.k * c.n), C(c.m * c.n);
  for (float &x : A)
    x = (rand() % 17 - 8) / 2.0f;
  for (float &x : B)
    x = (rand() % 17 - 8) / 2.0f;
  for (float &x : C)
    x = rand() % 9 - 4;
  // b in global memory stored [N, K] (running along K) for the layouts
  // running along K, else [K, N]; masked off from K row 24 and N column 40
  // (whole vectors of either layout).
  bool kMajor = c.transposed || c.b.order[0] == 0;
  alignas(16) static std::uint16_t global[64 * 64];
  for (int k = 0; k < c.k; ++k)
    for (int n = 0; n < c.n; ++n)
      global[kMajor ? n * c.k + k : k * c.n + n] =
          bits16(B[k * c.n + n], c.bf16);
  auto masked = [&](int k, int n) { return !c.copied || (k < 24 && n < 40); };
  runThreads(
      [&](int t) {
        std::vector<std::uint16_t> a, b;
        std::vector<float> acc;
        std::vector<const void *> ptrs;
        std::vector<std::uint8_t> mask;
        for (auto &i : regs(c.a, {c.m, c.k}, t))
          a.push_back(bits16(A[i[0] * c.k + i[1]], c.bf16));
        if (c.transposed) {
          for (auto &i : regs(c.b, {c.n, c.k}, t)) { // (n, k)
            ptrs.push_back(&global[i[0] * c.k + i[1]]);
            mask.push_back(masked(i[1], i[0]));
          }
        }
        for (auto &i : regs(c.b, {c.k, c.n}, t)) {
          if (c.transposed)
            break;
          b.push_back(bits16(B[i[0] * c.n + i[1]], c.bf16));
          ptrs.push_back(
              &global[kMajor ? i[1] * c.k + i[0] : i[0] * c.n + i[1]]);
          mask.push_back(masked(i[0], i[1]));
        }
        for (auto &i : regs(c.out, {c.m, c.n}, t))
          acc.push_back(C[i[0] * c.n + i[1]]);
        std::vector<float> out(acc.size());
        if (c.staged)
          c.staged(a.data(), b.data(), acc.data(), out.data());
        else
          c.copied(ptrs.data(), mask.data(), a.data(), acc.data(), out.data());
        auto rr = regs(c.out, {c.m, c.n}, t);
        for (size_t r = 0; r < rr.size(); ++r) {
          int i = rr[r][0], j = rr[r][1];
          double s = C[i * c.n + j];
          for (int k = 0; k < c.k; ++k)
            if (masked(k, j))
              s += (double)A[i * c.k + k] * B[k * c.n + j];
          check(c.name, out[r], s, t, r);
        }
      },
      32 * c.warps);
}

int main() {
  Blocked a{{1, 8}, {8, 4}, {4, 1}, {1, 0}}, o{{1, 4}, {4, 8}, {4, 1}, {1, 0}},
      o16{{1, 2}, {4, 8}, {4, 1}, {1, 0}}, kn{{1, 8}, {4, 8}, {4, 1}, {1, 0}},
      nk{{8, 1}, {4, 8}, {1, 4}, {0, 1}}, nk1{{1, 1}, {32, 1}, {1, 4}, {0, 1}},
      nk2{{2, 1}, {16, 2}, {1, 4}, {0, 1}}, nk4{{4, 1}, {8, 4}, {1, 4}, {0, 1}},
      a8{{1, 8}, {8, 4}, {8, 1}, {1, 0}}, o8{{1, 4}, {4, 8}, {8, 1}, {1, 0}},
      nk8{{8, 1}, {4, 8}, {1, 8}, {0, 1}};
  Case cases[] = {
      {"kn", 64, 64, 32, 4, a, kn, o, false, w_kn},
      {"nk", 64, 64, 32, 4, a, nk, o, false, w_nk},
      {"nk1", 64, 64, 32, 4, a, nk1, o, false, w_nk1},
      {"nk2", 64, 64, 32, 4, a, nk2, o, false, w_nk2},
      {"nk_bf16", 64, 64, 32, 4, a, nk, o, true, w_nk_bf16},
      {"nk_x2", 64, 16, 32, 4, a, nk, o16, false, w_nk_x2},
      {"nk_wrap", 64, 16, 32, 4, a, nk, o16, false, w_nk_wrap},
      {"nk_w8", 64, 64, 32, 8, a8, nk8, o8, false, w_nk_w8},
      {"nk_regs", 64, 64, 32, 4, a, nk, o, false, w_nk_regs},
      {"slot_kn", 64, 64, 32, 4, a, kn, o, false, nullptr, w_slot_kn},
      {"slot_nk", 64, 64, 32, 4, a, nk, o, false, nullptr, w_slot_nk},
      {"slot_nk4", 64, 64, 32, 4, a, nk4, o, false, nullptr, w_slot_nk4},
      {"slot_nk_w8", 64, 64, 32, 8, a8, nk8, o8, false, nullptr, w_slot_nk_w8},
      {"slot_trans", 64, 64, 32, 4, a, a, o, false, nullptr, w_slot_trans, true},
  };
  for (const Case &c : cases)
    run(c);
  printf("ldmatrix: %d reads, %d misaligned rows, %d with bank conflicts\n",
         ldReads.load(), ldMisaligned.load(), ldConflicts.load());
  printf("cp.async: %d misaligned\n", copyMisaligned.load());
  printf("%s (%d mismatches)\n", failures ? "FAILED" : "PASSED", failures);
  return failures != 0;
}
