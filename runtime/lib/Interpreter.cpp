//===- Interpreter.cpp - tile::interpreter: the runtime on the CPU --------===//
//
// The interpreter backend of the runtime, over tilec's interpreter
// (tilec/Interpreter.h): device buffers are host allocations of one
// process-wide HostMemory, modules are parsed from their metadata's
// "tile_ir", launches run on host threads and return when every program
// has finished. Linking this library installs the backend before main().
//
//===----------------------------------------------------------------------===//
#include "InterpreterBackend.h"

#include "tile/Error.h"
#include "tilec/Interpreter.h"



namespace tile::detail {
namespace {

class Program final : public InterpretedProgram {
public:
  Program(std::shared_ptr<tilec::InterpretedModule> Module, tilec::HostMemory &Memory)
      : Module(std::move(Module)), Memory(Memory) {}

  void launch(const KernelInfo &Kernel, const Grid &G, const Arg *Args,
              std::size_t Count) const override {
    std::vector<void *> Params(Count);
    std::vector<std::string> Names;
    for (std::size_t I = 0; I < Count; ++I) {
      Params[I] = const_cast<void *>(Args[I].data());
      Names.push_back(I < Kernel.Params.size() ? Kernel.Params[I].Name : "");
    }
    std::string Error = Module->launch(Kernel.Name, {G.X, G.Y, G.Z}, Params.data(), Count,
                                       Names, Memory);
    if (!Error.empty())
      throw tile::Error("launch of " + Kernel.Name + " on the interpreter failed:\n" + Error);
  }

private:
  std::shared_ptr<tilec::InterpretedModule> Module;
  tilec::HostMemory &Memory;
};

class Backend final : public InterpreterBackend {
public:
  std::uint64_t allocate(std::size_t Bytes) override {
    std::uint64_t Address = Memory.allocate(Bytes);
    if (!Address)
      throw Error("the interpreter could not allocate " + std::to_string(Bytes) +
                  " bytes of host memory");
    return Address;
  }
  void release(std::uint64_t Address) noexcept override { Memory.release(Address); }
  void upload(std::uint64_t Address, const void *Src, std::size_t Bytes) override {
    if (!Memory.write(Address, Src, Bytes))
      throw Error("copyFromHost: the interpreter has no buffer of " + std::to_string(Bytes) +
                  " bytes at this address");
  }
  void download(void *Dst, std::uint64_t Address, std::size_t Bytes) const override {
    if (!Memory.read(Address, Dst, Bytes))
      throw Error("copyToHost: the interpreter has no buffer of " + std::to_string(Bytes) +
                  " bytes at this address");
  }
  void fill(std::uint64_t Address, std::uint8_t Value, std::size_t Bytes) override {
    if (!Memory.fill(Address, Value, Bytes))
      throw Error("fillBytes: the interpreter has no buffer of " + std::to_string(Bytes) +
                  " bytes at this address");
  }
  std::shared_ptr<InterpretedProgram> load(const ModuleMetadata &Meta,
                                           const std::string &Origin) override {
    if (Meta.TileIR.empty())
      throw Error(Meta.Origin + " has no \"tile_ir\" for the interpreter to run (tilec " +
                  Meta.TilecVersion + " wrote it); compile " + Meta.Source +
                  " again with this tilec");
    std::string Why;
    std::shared_ptr<tilec::InterpretedModule> Module =
        tilec::InterpretedModule::parse(Meta.TileIR, Meta.Source, Why);
    if (!Module)
      throw Error("the interpreter cannot load " + Origin + ":\n" + Why);
    return std::make_shared<Program>(std::move(Module), Memory);
  }
  std::string name() const override {
    return "tilec interpreter (" + std::to_string(tilec::defaultInterpreterThreads()) +
           " host threads)";
  }

private:
  tilec::HostMemory Memory;
};

/// Installs the backend when the program starts. It is never destroyed: a
/// buffer with static storage may outlive any static object here.
struct Installer {
  Installer() { installInterpreterBackend(new Backend); }
} TheInstaller;

} // namespace
} // namespace tile::detail
