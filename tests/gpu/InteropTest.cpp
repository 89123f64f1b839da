//===- InteropTest.cpp - Streams, events, async copies, DLPack ------------===//
//
// What a program that shares the GPU with a framework uses: a stream it did
// not create (Stream::wrap), events ordering two streams, asynchronous
// copies through pinned host memory, and arguments given as DLPack tensors
// (dtype and device checked). Kernel: k_int of kernels/elementwise.tile
// (out = x + y + 3 on i32).
//
//===----------------------------------------------------------------------===//

#include "GpuTest.h"

#include "tile/DLPack.h"

#include <numeric>
#include <thread>

namespace {

using InteropTest = gputest::GpuTest<>;

constexpr std::int32_t N = 5000;

TEST_F(InteropTest, AsyncCopiesAndEventsOrderTwoStreams) {
  tile::Stream Copies(*Ctx), Compute(*Ctx);
  tile::PinnedBuffer<std::int32_t> HostX(*Ctx, N), HostOut(*Ctx, N);
  std::iota(HostX.begin(), HostX.end(), -100);
  tile::DeviceBuffer<std::int32_t> DX(*Ctx, N), DOut(*Ctx, N);
  DOut.fillBytes(0xFF);
  // Copies on one stream, the kernel on another (a wrapped handle, as
  // PyTorch's current stream would be), ordered by an event.
  DX.copyFromHostAsync(HostX.data(), N, Copies);
  tile::Event Uploaded(*Ctx), Start(*Ctx), Done(*Ctx);
  Uploaded.record(Copies);
  tile::Stream Borrowed = tile::Stream::wrap(*Ctx, Compute.handle());
  Uploaded.wait(Borrowed);
  Start.record(Borrowed);
  tile::Kernel K = kernel("int_add", "k_int");
  K.launch(tile::Grid{gputest::blocks(N, 256)}, Borrowed, DX, DX, DOut, N);
  Done.record(Borrowed);
  DOut.copyToHostAsync(HostOut.data(), N, Borrowed);
  Borrowed.synchronize();
  Done.synchronize();
  EXPECT_GE(Start.elapsedMs(Done), 0.0f);
  for (std::int32_t I = 0; I < N; ++I)
    ASSERT_EQ(HostOut[I], 2 * HostX[I] + 3) << I;
}

TEST_F(InteropTest, WrappedStreamIsNotDestroyed) {
  tile::Stream Owner(*Ctx);
  { tile::Stream Borrowed = tile::Stream::wrap(*Ctx, Owner.handle()); }
  Owner.synchronize(); // Still a valid stream after the wrapper is gone.
  tile::Stream Null = tile::Stream::wrap(*Ctx, nullptr);
  EXPECT_EQ(Null.handle(), nullptr);
  Null.synchronize();
}

/// A DLTensor over `Buffer` on this test's context (the interpreter's
/// memory is host memory).
template <class T>
DLTensor dlTensorOf(const tile::DeviceBuffer<T> &Buffer, DLDataType Type, bool Host,
                    int DeviceId, std::int64_t *Shape) {
  DLTensor T0{};
  T0.data = reinterpret_cast<void *>(Buffer.devicePtr());
  T0.device = DLDevice{Host ? kDLCPU : kDLCUDA, DeviceId};
  T0.ndim = 1;
  T0.dtype = Type;
  T0.shape = Shape;
  return T0;
}

TEST_F(InteropTest, DLPackTensorsAreTypedArguments) {
  std::vector<std::int32_t> X(N);
  std::iota(X.begin(), X.end(), 7);
  auto DX = upload(X);
  auto DOut = poisoned<std::int32_t>(N);
  std::int64_t Shape[] = {N};
  const DLDataType I32{kDLInt, 32, 1};
  bool Host = onInterpreter();
  DLTensor TX = dlTensorOf(DX, I32, Host, 0, Shape);
  DLTensor TOut = dlTensorOf(DOut, I32, Host, 0, Shape);
  DLManagedTensor Managed{TOut, nullptr, nullptr};
  tile::Kernel K = kernel("int_add", "k_int");
  K.launch(tile::Grid{gputest::blocks(N, 256)}, tile::Stream(), tile::fromDLPack(TX, *Ctx),
           tile::fromDLPack(TX, *Ctx), tile::fromDLPack(&Managed, *Ctx), N);
  tile::Stream().synchronize();
  std::vector<std::int32_t> Out = DOut.toHost();
  for (std::int32_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], 2 * X[I] + 3) << I;

  // The dtype is checked against the kernel's signature at the launch.
  DLTensor TF = dlTensorOf(DX, DLDataType{kDLFloat, 32, 1}, Host, 0, Shape);
  try {
    K.launch(tile::Grid{1}, tile::Stream(), tile::fromDLPack(TF, *Ctx), DX, DOut, N);
    ADD_FAILURE() << "a float32 tensor for *i32 was launched";
  } catch (const tile::Error &E) {
    EXPECT_NE(std::string(E.what()).find("*fp32"), std::string::npos) << E.what();
  }
  // The device must be the context's.
  DLTensor Elsewhere = dlTensorOf(DX, I32, !Host, 3, Shape);
  EXPECT_THROW(tile::fromDLPack(Elsewhere, *Ctx), tile::Error);
  // Types the language has not.
  EXPECT_THROW(tile::scalarKindOf(DLDataType{kDLComplex, 64, 1}), tile::Error);
  EXPECT_THROW(tile::scalarKindOf(DLDataType{kDLFloat, 32, 4}), tile::Error);
  EXPECT_EQ(tile::scalarKindOf(DLDataType{kDLBfloat, 16, 1}), tile::ScalarKind::BF16);
  EXPECT_EQ(tile::scalarKindOf(DLDataType{6, 8, 1}), tile::ScalarKind::I1);
  EXPECT_THROW(tile::fromDLPack(static_cast<const DLManagedTensor *>(nullptr), *Ctx),
               tile::Error);
}

TEST_F(InteropTest, LaunchesFromSeveralHostThreads) {
  // One Context (and one loaded Kernel) shared by four threads, each with
  // its own stream and buffers, launching in a loop.
  tile::Kernel K = kernel("int_add", "k_int");
  constexpr int Threads = 4, Rounds = 20;
  std::vector<std::string> Failures(Threads);
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      try {
        Ctx->makeCurrent();
        tile::Stream S(*Ctx);
        std::vector<std::int32_t> X(N, T + 1);
        tile::DeviceBuffer<std::int32_t> DX(*Ctx, N), DOut(*Ctx, N);
        DX.copyFromHost(X);
        for (int R = 0; R < Rounds; ++R)
          K.launch(tile::Grid{gputest::blocks(N, 256)}, S, DX, DX, DOut, N);
        S.synchronize();
        for (std::int32_t V : DOut.toHost())
          if (V != 2 * (T + 1) + 3)
            throw tile::Error("thread " + std::to_string(T) + " read " + std::to_string(V));
      } catch (const std::exception &E) {
        Failures[T] = E.what();
      }
    });
  for (std::thread &T : Pool)
    T.join();
  for (int T = 0; T < Threads; ++T)
    EXPECT_EQ(Failures[T], "") << "thread " << T;
}

} // namespace
