//===- Jit.cpp - Compiling .tile kernels at run time ----------------------===//
//
// A launch computes its specialization key (argument types and value
// classes, constexprs, launch options) and looks it up in the kernel's
// in-memory table; a miss compiles through libtilec (or reads the disk
// cache), loads the module and keeps it. Kernels with @autotune first pick
// a configuration per value of their key arguments.
//
//===----------------------------------------------------------------------===//
#include "tile/Jit.h"

#include "Autotuner.h"
#include "Files.h"
#include "JitCache.h"
#include "tile/Error.h"
#include "tile/Module.h"

#include "tilec/Compiler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace tile {

namespace detail {

/// A loaded specialization.
struct JitLoaded {
  Module M;
  Kernel K;
};

/// One kernel of a source: its signature and what it has compiled.
struct JitKernelState {
  tilec::KernelSignature Sig;
  /// Indices into Sig.params of the runtime (non-constexpr) parameters.
  std::vector<std::size_t> RuntimeParams;
  std::mutex Mutex;
  /// Specialization key -> loaded kernel.
  std::unordered_map<std::string, std::shared_ptr<JitLoaded>> Loaded;
  /// @autotune: tuning key -> index of the winning config.
  std::unordered_map<std::string, std::size_t> Tuned;
  /// A launch's compact key (fastKey) -> what it runs: the hot path.
  std::unordered_map<std::string, std::shared_ptr<JitLoaded>> Launched;
  /// @autotune: indices into the arguments of the key parameters.
  std::vector<std::size_t> KeyArgs;
  /// @triton.heuristics: indices into the arguments of the runtime
  /// parameters they read (their values become part of the key).
  std::vector<std::size_t> HeuristicArgs;
};

struct JitModuleState {
  std::optional<Context> Ctx;
  std::string Source, Name, Arch;
  JitOptions Options;
  /// What autotuning writes to flush L2 (made on the first tuning).
  mutable std::unique_ptr<DeviceBuffer<unsigned char>> Flush;
  std::vector<std::unique_ptr<JitKernelState>> Kernels;
};

} // namespace detail

namespace {

using detail::JitKernelState;
using detail::JitLoaded;
using detail::JitModuleState;

/// The value of environment variable \p Name, or "".
std::string env(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value ? Value : "";
}

/// The target for a device of compute capability \p CC: its own where
/// tilec has it (sm_90a, with wgmma, for sm_90), sm_90 for newer GPUs (their
/// driver compiles sm_90 PTX), sm_80 for other Ampere GPUs.
std::string archFor(ComputeCapability CC) {
  if (CC.arch() == 90)
    return "sm_90a";
  if (CC.arch() > 90)
    return "sm_90";
  std::string own = "sm_" + std::to_string(CC.arch());
  return tilec::isSupportedArch(own) ? own : "sm_80";
}

/// \p Value as -D reads it back.
std::string defineText(const ConstexprValue &Value) {
  if (std::holds_alternative<bool>(Value))
    return std::get<bool>(Value) ? "True" : "False";
  if (std::holds_alternative<std::int64_t>(Value))
    return std::to_string(std::get<std::int64_t>(Value));
  if (std::holds_alternative<double>(Value)) {
    double D = std::get<double>(Value);
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.17g", D);
    std::string Text = Buf;
    if (std::isfinite(D) && Text.find_first_of(".e") == std::string::npos)
      Text += ".0"; // Stays a float.
    return Text;
  }
  if (std::holds_alternative<std::string>(Value))
    return "'" + std::get<std::string>(Value) + "'";
  return "None";
}

/// True for the integer types whose values specialize a launch (not i1).
bool isSpecializedInteger(const TileType &T) {
  switch (T.Elem) {
  case ScalarKind::I8: case ScalarKind::I16: case ScalarKind::I32: case ScalarKind::I64:
  case ScalarKind::U8: case ScalarKind::U16: case ScalarKind::U32: case ScalarKind::U64:
    return !T.IsPointer;
  default:
    return false;
  }
}

/// The value class an argument specializes on: its --specialize spelling
/// ("none" for a pointer not 16-byte aligned, "1", "16"), or "" when the
/// compiler's default applies.
const char *valueClass(const Arg &A) {
  const TileType &T = A.type();
  // A host tensor descriptor: "16" when every dimension is a multiple of 16
  // (the launch checks its alignments).
  if (const TensorDescriptor *D = A.descriptor())
    return std::all_of(D->Shape.begin(), D->Shape.end(),
                       [](std::int64_t Dim) { return Dim % 16 == 0; })
               ? "16"
               : "";
  if (T.IsPointer)
    return A.address() % 16 == 0 ? "" : "none";
  if (!isSpecializedInteger(T))
    return "";
  std::int64_t V = A.intValue();
  return V == 1 ? "1" : V % 16 == 0 ? "16" : "";
}

/// What one launch compiles with, in the compiler's text forms.
struct Specialization {
  std::vector<std::string> Defines, Signature, Specializations, ArgumentValues;
  std::optional<unsigned> NumWarps, NumStages;

  /// Everything above, each item prefixed by its length, so that no two
  /// specializations share a key (the in-memory and disk keys).
  std::string key() const {
    std::string K;
    for (const auto *List : {&Defines, &Signature, &Specializations, &ArgumentValues}) {
      K += std::to_string(List->size()) + "[";
      for (const std::string &Item : *List)
        K += std::to_string(Item.size()) + ":" + Item;
      K += "]";
    }
    K += "w" + (NumWarps ? std::to_string(*NumWarps) : std::string("-")) + "s" +
         (NumStages ? std::to_string(*NumStages) : std::string("-"));
    return K;
  }

  /// For messages: "x_ptr=*fp32, n=i32; specialized n=16; BLOCK=1024".
  std::string describe() const {
    std::string Text;
    auto add = [&](const std::vector<std::string> &List, const char *Prefix) {
      if (List.empty())
        return;
      Text += Text.empty() ? Prefix + 2 : Prefix;
      for (std::size_t I = 0; I < List.size(); ++I)
        Text += (I ? ", " : "") + List[I];
    };
    add(Signature, "; ");
    add(Specializations, "; specialized ");
    add(Defines, "; ");
    add(ArgumentValues, "; heuristics read ");
    if (NumWarps)
      Text += "; num_warps=" + std::to_string(*NumWarps);
    if (NumStages)
      Text += "; num_stages=" + std::to_string(*NumStages);
    return Text;
  }
};

/// The value of the scalar argument \p A as the compiler reads it ("4096",
/// "0.5"); heuristics read it.
std::string scalarText(const Arg &A) {
  const TileType &T = A.type();
  if (T.Elem == ScalarKind::FP32 || T.Elem == ScalarKind::FP64) {
    double Value;
    if (T.Elem == ScalarKind::FP32) {
      float F;
      std::memcpy(&F, A.data(), sizeof(F));
      Value = F;
    } else {
      std::memcpy(&Value, A.data(), sizeof(Value));
    }
    char Buffer[32];
    std::snprintf(Buffer, sizeof(Buffer), "%.17g", Value);
    std::string Text = Buffer;
    return Text.find_first_of(".eEn") == std::string::npos ? Text + ".0" : Text;
  }
  if (T.Elem == ScalarKind::FP16 || T.Elem == ScalarKind::BF16 ||
      T.Elem == ScalarKind::FP8E4M3 || T.Elem == ScalarKind::FP8E5M2)
    throw Error("a heuristic reads an 8- or 16-bit float argument; pass it as fp32");
  if (T.Elem == ScalarKind::U64)
    return std::to_string(static_cast<std::uint64_t>(A.intValue()));
  return std::to_string(A.intValue());
}

/// The name of kernel \p K's runtime parameter \p I.
const std::string &paramName(const JitKernelState &K, std::size_t I) {
  return K.Sig.params[K.RuntimeParams[I]].name;
}

/// The specialization of \p Args (already counted) and \p Options.
Specialization specialize(const JitKernelState &K, const LaunchOptions &Options,
                          const Arg *Args) {
  Specialization Spec;
  for (std::size_t I = 0; I < K.RuntimeParams.size(); ++I) {
    const tilec::ParamSignature &P = K.Sig.params[K.RuntimeParams[I]];
    if (P.type.empty())
      Spec.Signature.push_back(P.name + "=" + Args[I].typeName());
    if (const char *Class = valueClass(Args[I]); *Class)
      Spec.Specializations.push_back(P.name + "=" + Class);
  }
  for (const auto &[Name, Value] : Options.Values) {
    bool Constexpr = std::any_of(K.Sig.params.begin(), K.Sig.params.end(),
                                 [&](const tilec::ParamSignature &P) {
                                   return P.isConstexpr && P.name == Name;
                                 });
    if (!Constexpr)
      throw Error("LaunchOptions of " + K.Sig.name + " set '" + Name +
                  "', which is not a constexpr parameter of it");
    Spec.Defines.push_back(Name + "=" + defineText(Value));
  }
  for (std::size_t I : K.HeuristicArgs)
    if (!Args[I].type().IsPointer)
      Spec.ArgumentValues.push_back(paramName(K, I) + "=" + scalarText(Args[I]));
  Spec.NumWarps = Options.NumWarps;
  Spec.NumStages = Options.NumStages;
  return Spec;
}

/// Checks the argument count and, for annotated parameters, the types.
void checkArgs(const JitKernelState &K, const Arg *Args, std::size_t Count) {
  auto list = [&] {
    std::string L;
    for (std::size_t I = 0; I < K.RuntimeParams.size(); ++I) {
      const tilec::ParamSignature &P = K.Sig.params[K.RuntimeParams[I]];
      L += (I ? ", " : "") + P.name + (P.type.empty() ? "" : ": " + P.type);
    }
    return L;
  };
  if (Count != K.RuntimeParams.size())
    throw Error(K.Sig.name + " expects " + std::to_string(K.RuntimeParams.size()) +
                " arguments (" + list() + "; constexprs go in LaunchOptions), got " +
                std::to_string(Count));
  for (std::size_t I = 0; I < Count; ++I) {
    const tilec::ParamSignature &P = K.Sig.params[K.RuntimeParams[I]];
    if (!P.type.empty() && P.type != Args[I].typeName())
      throw Error("argument " + std::to_string(I + 1) + " '" + P.name + "' of " +
                  K.Sig.name + ": expected " + P.type + ", got " +
                  Args[I].typeName());
  }
}

/// What identifies the compiler that runs in this process: tilec's and
/// LLVM's versions, and the size and time of the executable (a rebuilt
/// compiler makes new keys), and where libdevice comes from.
const std::string &compilerIdentity() {
  static const std::string Identity = [] {
    std::string Id = "tilec " + tilec::version() + " llvm " + tilec::llvmVersion();
    struct stat St;
    if (::stat("/proc/self/exe", &St) == 0)
      Id += " exe " + std::to_string(St.st_size) + "@" + std::to_string(St.st_mtime);
    Id += " libdevice " + env("TILEC_LIBDEVICE") + ":" + env("CUDA_HOME");
    return Id;
  }();
  return Identity;
}

/// The disk cache's key of one compilation: the whole source (its entry
/// holds the key, so no hash collision can share an entry).
std::string compileKey(const JitModuleState &M, const JitKernelState &K,
                       const Specialization &Spec) {
  // A source read from a file is keyed by where it is too: its imports are
  // found from there.
  std::error_code EC;
  std::string Where = std::filesystem::is_regular_file(M.Name, EC)
                          ? std::filesystem::absolute(M.Name, EC).lexically_normal().string()
                          : M.Name;
  return compilerIdentity() + "\narch " + M.Arch + "\nkernel " + K.Sig.name + "\nspec " +
         Spec.key() + "\nname " + std::to_string(Where.size()) + ":" + Where +
         "\nsource " + std::to_string(M.Source.size()) + ":" + M.Source + "\n";
}

/// The files a compilation imported, each with the hash of what it holds
/// now ("path\thash\n" lines): a disk-cache entry keeps it, and is stale
/// when an imported file has changed since.
std::string importFingerprint(const std::vector<std::string> &Paths) {
  std::string Text;
  for (const std::string &Path : Paths) {
    std::ifstream In(Path, std::ios::binary);
    std::string Contents((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
    Text += Path + "\t" + (In.bad() || !std::filesystem::exists(Path) ? "missing"
                                                                      : ptxHash(Contents)) +
            "\n";
  }
  return Text;
}

/// The paths of an importFingerprint.
std::vector<std::string> fingerprintPaths(const std::string &Fingerprint) {
  std::vector<std::string> Paths;
  std::istringstream Lines(Fingerprint);
  for (std::string Line; std::getline(Lines, Line);)
    Paths.push_back(Line.substr(0, Line.rfind('\t')));
  return Paths;
}

/// Writes \p Text to \p Path, reporting failures on stderr.
void writeDump(const std::string &Path, std::string_view Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out.write(Text.data(), static_cast<std::streamsize>(Text.size()));
  if (!Out)
    std::cerr << "tilec: warning: cannot write the IR dump '" << Path << "'\n";
}

/// Compiles (or reads from the disk cache) one specialization. \p Diagnostics
/// receives the compiler's messages when it fails (then the result is empty).
std::optional<JitCompiled> compileSpecialization(const JitModuleState &M,
                                                 const JitKernelState &K,
                                                 const Specialization &Spec,
                                                 std::string &Diagnostics,
                                                 bool ReadCache = true) {
  std::string Key = compileKey(M, K, Spec);
  DiskCache Cache(jitCacheDir(M.Options));
  std::string DumpDir = M.Options.DumpDir.empty() ? env("TILEC_DUMP_DIR") : M.Options.DumpDir;
  if (M.Options.DiskCache && DumpDir.empty() && ReadCache)
    if (auto Entry = Cache.load(Key);
        Entry && Entry->size() == 3 &&
        importFingerprint(fingerprintPaths((*Entry)[2])) == (*Entry)[2])
      return JitCompiled{(*Entry)[0], (*Entry)[1], true};

  tilec::CompileOptions Options;
  Options.arch = M.Arch;
  Options.kernel = K.Sig.name;
  Options.defines = Spec.Defines;
  Options.signature = Spec.Signature;
  Options.specializations = Spec.Specializations;
  Options.argumentValues = Spec.ArgumentValues;
  Options.numWarps = Spec.NumWarps;
  Options.numStages = Spec.NumStages;
  std::string Dir;
  if (!DumpDir.empty()) {
    std::string Hash = ptxHash(Key);
    Dir = DumpDir + "/" + K.Sig.name + "-" + Hash.substr(Hash.find(':') + 1);
    std::error_code EC;
    std::filesystem::create_directories(Dir, EC);
    Options.dumpIRAfterAll = true;
    Options.onStage = [&](tilec::Stage Stage, std::string_view Text) {
      writeDump(Dir + "/" + tilec::stageName(Stage) + ".txt", Text);
    };
  }
  tilec::CompileResult Result = tilec::compileSource(M.Source, M.Name, Options);
  if (!Dir.empty()) {
    writeDump(Dir + "/ir-after-all.txt", Result.irDump);
    std::cerr << "tilec: IR of " << K.Sig.name << " -> " << Dir << "\n";
  }
  if (!Result.succeeded()) {
    Diagnostics = Result.diagnosticText;
    return std::nullopt;
  }
  std::string Error;
  if (M.Options.DiskCache &&
      !Cache.store(Key,
                   {Result.ptx, Result.metadata,
                    importFingerprint(Result.dependencies) +
                        importFingerprint(Result.importMisses)},
                   Error))
    std::cerr << "tilec: warning: the JIT cache is not written: " << Error << "\n";
  return JitCompiled{Result.ptx, Result.metadata, false};
}

/// compileSpecialization, throwing the diagnostics.
JitCompiled compileOrThrow(const JitModuleState &M, const JitKernelState &K,
                           const Specialization &Spec, bool ReadCache = true) {
  std::string Diagnostics;
  if (std::optional<JitCompiled> Compiled =
          compileSpecialization(M, K, Spec, Diagnostics, ReadCache))
    return *Compiled;
  std::string For = Spec.describe();
  throw Error("cannot compile kernel '" + K.Sig.name + "' of " + M.Name +
              (For.empty() ? "" : " for " + For) + ":\n" + Diagnostics);
}

/// The loaded kernel for \p Spec, compiling and loading it on a miss.
std::shared_ptr<JitLoaded> load(const JitModuleState &M, JitKernelState &K,
                                const Specialization &Spec) {
  std::string Key = Spec.key();
  {
    std::lock_guard<std::mutex> Lock(K.Mutex);
    auto It = K.Loaded.find(Key);
    if (It != K.Loaded.end())
      return It->second;
  }
  if (!M.Ctx)
    throw Error("the JitModule of " + M.Name +
                " was made without a Context: it can compile() but not launch");
  JitCompiled Compiled = compileOrThrow(M, K, Spec);
  std::string Origin = M.Name + " (JIT: " + K.Sig.name + " for " + Spec.describe() + ")";
  auto loadModule = [&] {
    return Module::load(*M.Ctx, Compiled.Ptx,
                        ModuleMetadata::parse(Compiled.Metadata, Origin), Origin);
  };
  std::optional<Module> Loaded;
  try {
    Loaded = loadModule();
  } catch (const Error &) {
    if (!Compiled.FromDiskCache)
      throw;
    // A whole entry that does not load (written by another build, say) is
    // compiled again and rewritten.
    Compiled = compileOrThrow(M, K, Spec, /*ReadCache=*/false);
    Loaded = loadModule();
  }
  auto Entry = std::make_shared<JitLoaded>(JitLoaded{*Loaded, Loaded->kernel(K.Sig.name)});
  std::lock_guard<std::mutex> Lock(K.Mutex);
  return K.Loaded.emplace(Key, std::move(Entry)).first->second;
}

/// \p Spec with config \p C's constexprs and launch options; the launch's
/// own values must not set what the config sets.
Specialization withConfig(const JitKernelState &K, Specialization Spec,
                          const tilec::AutotuneConfig &C) {
  for (const std::string &Define : C.defines) {
    std::string Name = Define.substr(0, Define.find('='));
    for (const std::string &Given : Spec.Defines)
      if (Given.substr(0, Given.find('=')) == Name)
        throw Error("launch of " + K.Sig.name + " sets " + Name +
                    ", which @autotune tunes; leave it out of LaunchOptions");
    Spec.Defines.push_back(Define);
  }
  if (!Spec.NumWarps)
    Spec.NumWarps = C.numWarps;
  if (!Spec.NumStages)
    Spec.NumStages = C.numStages;
  return Spec;
}

/// The tuning key: the specialization and the values of the key arguments.
std::string tuneKey(const JitKernelState &K, const Specialization &Spec,
                    const Arg *Args) {
  std::string Key = Spec.key() + "|key";
  for (const std::string &Name : K.Sig.key) {
    Key += " " + Name + "=";
    bool Found = false;
    for (std::size_t I = 0; I < K.RuntimeParams.size() && !Found; ++I) {
      if (paramName(K, I) != Name)
        continue;
      Found = true;
      const TileType &T = Args[I].type();
      if (T.IsPointer)
        Key += Args[I].typeName();
      else if (T.Elem == ScalarKind::I1 || isSpecializedInteger(T))
        Key += std::to_string(Args[I].intValue());
      else
        Key += "bits:" + std::to_string(Args[I].address()); // A float's bytes.
    }
    for (const std::string &Define : Spec.Defines)
      if (!Found && Define.substr(0, Define.find('=')) == Name)
        Key += Define.substr(Define.find('=') + 1);
  }
  return Key;
}

/// Indices into the arguments of the runtime parameters \p Names.
std::vector<std::size_t> argIndices(const JitKernelState &K,
                                    const std::vector<std::string> &Names) {
  std::vector<std::size_t> Indices;
  for (const std::string &Name : Names)
    for (std::size_t I = 0; I < K.RuntimeParams.size(); ++I)
      if (paramName(K, I) == Name)
        Indices.push_back(I);
  return Indices;
}

/// Picks \p K's best config for these arguments: every config compiled and
/// timed (those that do not fit the device pruned with a note). On the
/// interpreter: the first config that compiles, untimed.
std::size_t autotune(const JitModuleState &M, JitKernelState &K, const Specialization &Spec,
                     const std::string &Key, const LaunchGrid &G, const Stream &S,
                     const Arg *Args, std::size_t Count) {
  if (M.Ctx->backend() == Backend::Interpreter) {
    // CPU times say nothing about the GPU: the first config that compiles.
    for (std::size_t I = 0; I < K.Sig.configs.size(); ++I) {
      std::string Diagnostics;
      if (compileSpecialization(M, K, withConfig(K, Spec, K.Sig.configs[I]), Diagnostics)) {
        std::cerr << "tilec: " << K.Sig.name << " on the interpreter: config "
                  << K.Sig.configs[I].describe() << " (the first that compiles; no timing)\n";
        return I;
      }
    }
    throw Error("no @autotune config of " + K.Sig.name + " compiles");
  }
  std::string DiskKey = "autotune\n" + compileKey(M, K, Spec) + "device " +
                        M.Ctx->deviceName() + "\n" + Key + "\nwarmup " +
                        std::to_string(K.Sig.warmupMs) + " rep " + std::to_string(K.Sig.repMs);
  for (const tilec::AutotuneConfig &C : K.Sig.configs)
    DiskKey += "\nconfig " + C.describe();
  DiskCache Cache(jitCacheDir(M.Options));
  if (M.Options.DiskCache)
    if (auto Entry = Cache.load(DiskKey); Entry && Entry->size() == 1)
      for (std::size_t I = 0; I < K.Sig.configs.size(); ++I)
        if (K.Sig.configs[I].describe() == (*Entry)[0])
          return I;

  std::string What = Key.substr(Key.find("|key") + 5);
  std::cerr << "tilec: autotuning " << K.Sig.name << " for " << What << " over "
            << K.Sig.configs.size() << " configs\n";
  TuneRequest Request;
  Request.Args = Args;
  Request.Count = Count;
  Request.ResetToZero = argIndices(K, K.Sig.resetToZero);
  Request.RestoreValue = argIndices(K, K.Sig.restoreValue);
  Request.WarmupMs = K.Sig.warmupMs;
  Request.RepMs = K.Sig.repMs;
  SavedArguments Saved(*M.Ctx, Request);
  std::size_t Best = K.Sig.configs.size();
  double BestMs = 0;
  std::string FirstFailure;
  for (std::size_t I = 0; I < K.Sig.configs.size(); ++I) {
    const tilec::AutotuneConfig &C = K.Sig.configs[I];
    Specialization ConfigSpec = withConfig(K, Spec, C);
    std::string Diagnostics;
    try {
      if (!compileSpecialization(M, K, ConfigSpec, Diagnostics)) {
        // A config may exceed what the target or the compiler allows
        // (shared memory, work per thread); a kernel whose configs all fail
        // is an error, with the first one's diagnostics.
        std::cerr << "tilec: note: pruned " << C.describe() << ": it does not compile: "
                  << Diagnostics.substr(0, Diagnostics.find('\n')) << "\n";
        if (FirstFailure.empty())
          FirstFailure = "config " + C.describe() + ":\n" + Diagnostics;
        continue;
      }
      std::shared_ptr<JitLoaded> L = load(M, K, ConfigSpec);
      if (!M.Flush)
        M.Flush = std::make_unique<DeviceBuffer<unsigned char>>(*M.Ctx, FlushBytes);
      double Ms = timeKernel(*M.Ctx, L->K, G, S, Request, *M.Flush);
      if (Best == K.Sig.configs.size() || Ms < BestMs) {
        Best = I;
        BestMs = Ms;
      }
    } catch (const Error &E) {
      std::string Message = E.what();
      if (Message.find("shared memory") == std::string::npos &&
          Message.find("OUT_OF_RESOURCES") == std::string::npos)
        throw;
      std::cerr << "tilec: note: pruned " << C.describe() << ": "
                << Message.substr(0, Message.find('\n')) << "\n";
    }
  }
  Saved.restore();
  if (Best == K.Sig.configs.size())
    throw Error("no @autotune config of " + K.Sig.name + " runs on " + M.Ctx->deviceName() +
                (FirstFailure.empty() ? std::string() : "; the first that fails to compile, " +
                                                            FirstFailure));
  std::fprintf(stderr, "tilec: %s: best config %s (%.4f ms)\n", K.Sig.name.c_str(),
               K.Sig.configs[Best].describe().c_str(), BestMs);
  std::string Error;
  if (M.Options.DiskCache && !Cache.store(DiskKey, {K.Sig.configs[Best].describe()}, Error))
    std::cerr << "tilec: warning: the JIT cache is not written: " << Error << "\n";
  return Best;
}

/// Appends the bytes of \p Value to \p Key.
template <class T> void appendBytes(std::string &Key, const T &Value) {
  Key.append(reinterpret_cast<const char *>(&Value), sizeof(Value));
}

/// A launch's compact key: everything specialize() and tuneKey() read, as
/// bytes, so that a launch already seen costs one hash lookup.
void fastKey(const JitKernelState &K, const LaunchOptions &Options, const Arg *Args,
             std::size_t Count, std::string &Key) {
  appendBytes(Key, Count);
  for (std::size_t I = 0; I < Count; ++I) {
    const TileType &T = Args[I].type();
    Key += static_cast<char>(T.Elem);
    Key += static_cast<char>(T.IsPointer);
    Key += valueClass(Args[I]);
    Key += '\0';
    if (const TensorDescriptor *D = Args[I].descriptor()) {
      appendBytes(Key, D->BlockShape.size());
      for (std::int64_t Dim : D->BlockShape)
        appendBytes(Key, Dim);
    }
  }
  for (const std::vector<std::size_t> *Indices : {&K.KeyArgs, &K.HeuristicArgs})
    for (std::size_t I : *Indices)
      if (I < Count && !Args[I].type().IsPointer)
        Key.append(static_cast<const char *>(Args[I].data()), 8);
  appendBytes(Key, Options.Values.size());
  for (const auto &[Name, Value] : Options.Values) {
    appendBytes(Key, Name.size());
    Key += Name;
    Key += static_cast<char>(Value.index());
    if (const auto *S = std::get_if<std::string>(&Value)) {
      appendBytes(Key, S->size());
      Key += *S;
    } else if (const auto *I = std::get_if<std::int64_t>(&Value)) {
      appendBytes(Key, *I);
    } else if (const auto *D = std::get_if<double>(&Value)) {
      appendBytes(Key, *D);
    } else if (const auto *B = std::get_if<bool>(&Value)) {
      Key += static_cast<char>(*B);
    }
  }
  for (const std::optional<unsigned> *Option : {&Options.NumWarps, &Options.NumStages}) {
    Key += static_cast<char>(Option->has_value());
    appendBytes(Key, Option->value_or(0));
  }
}

/// The loaded kernel a launch runs: its specialization, tuned first when
/// the kernel has @autotune.
std::shared_ptr<JitLoaded> resolve(const JitModuleState &M, JitKernelState &K,
                                   const LaunchOptions &Options, const Arg *Args,
                                   std::size_t Count, const LaunchGrid *G,
                                   const Stream &S) {
  checkArgs(K, Args, Count);
  Specialization Spec = specialize(K, Options, Args);
  if (K.Sig.configs.empty())
    return load(M, K, Spec);
  std::string Key = tuneKey(K, Spec, Args);
  std::optional<std::size_t> Index;
  {
    std::lock_guard<std::mutex> Lock(K.Mutex);
    auto It = K.Tuned.find(Key);
    if (It != K.Tuned.end())
      Index = It->second;
  }
  if (!Index) {
    if (!M.Ctx)
      throw Error("the JitModule of " + M.Name + " was made without a Context: "
                  "it cannot autotune " + K.Sig.name);
    if (!G) // Timing needs the launch's grid.
      throw Error(K.Sig.name + " is tuned by @autotune and has not been tuned for these "
                               "arguments yet: launch it before asking for its kernel");
    Index = autotune(M, K, Spec, Key, *G, S, Args, Count);
    std::lock_guard<std::mutex> Lock(K.Mutex);
    K.Tuned[Key] = *Index;
  }
  return load(M, K, withConfig(K, Spec, K.Sig.configs[*Index]));
}

/// Parses \p Source and builds the module's state.
std::shared_ptr<JitModuleState> makeState(std::optional<Context> Ctx, std::string Source,
                                          std::string Name, JitOptions Options) {
  tilec::SourceSignature Sig = tilec::inspectSource(Source, Name);
  if (!Sig.succeeded())
    throw Error(Sig.diagnosticText);
  auto State = std::make_shared<JitModuleState>();
  State->Arch = !Options.Arch.empty() ? Options.Arch
                : Ctx                 ? archFor(Ctx->computeCapability())
                                      : std::string();
  if (State->Arch.empty())
    throw Error("a JitModule without a Context needs JitOptions::Arch");
  if (!tilec::isSupportedArch(State->Arch))
    throw Error("unsupported JitOptions::Arch '" + State->Arch +
                "' (expected one of " + tilec::supportedArchList() + ")");
  State->Ctx = std::move(Ctx);
  State->Source = std::move(Source);
  State->Name = std::move(Name);
  State->Options = std::move(Options);
  for (tilec::KernelSignature &Kernel : Sig.kernels) {
    auto K = std::make_unique<JitKernelState>();
    K->Sig = std::move(Kernel);
    for (std::size_t I = 0; I < K->Sig.params.size(); ++I)
      if (!K->Sig.params[I].isConstexpr)
        K->RuntimeParams.push_back(I);
    K->KeyArgs = argIndices(*K, K->Sig.key);
    K->HeuristicArgs = argIndices(*K, K->Sig.heuristicInputs);
    State->Kernels.push_back(std::move(K));
  }
  return State;
}

} // namespace

std::string jitCacheDir(const JitOptions &Options) {
  if (!Options.CacheDir.empty())
    return Options.CacheDir;
  if (std::string Dir = env("TILEC_CACHE_DIR"); !Dir.empty())
    return Dir;
  if (std::string Dir = env("XDG_CACHE_HOME"); !Dir.empty())
    return Dir + "/tilec";
  if (std::string Home = env("HOME"); !Home.empty())
    return Home + "/.cache/tilec";
  return "/tmp/tilec-cache-" + std::to_string(::getuid());
}

JitModule JitModule::fromFile(const Context &Ctx, const std::string &Path,
                              JitOptions Options) {
  return JitModule(makeState(Ctx, readFile(Path, ".tile source"), Path, std::move(Options)));
}

JitModule JitModule::fromSource(const Context &Ctx, std::string Source, std::string Name,
                                JitOptions Options) {
  return JitModule(
      makeState(Ctx, std::move(Source), std::move(Name), std::move(Options)));
}

JitModule JitModule::fromSource(std::string Source, std::string Name, JitOptions Options) {
  return JitModule(
      makeState(std::nullopt, std::move(Source), std::move(Name), std::move(Options)));
}

JitKernel JitModule::kernel(std::string_view Name) const {
  std::string Names;
  for (std::size_t I = 0; I < State->Kernels.size(); ++I) {
    if (State->Kernels[I]->Sig.name == Name)
      return JitKernel(State, I);
    Names += (I ? ", " : "") + State->Kernels[I]->Sig.name;
  }
  throw Error(State->Name + " has no kernel '" + std::string(Name) + "'; it has: " +
              (Names.empty() ? std::string("none") : Names));
}

const std::string &JitKernel::name() const noexcept {
  return Module->Kernels[Index]->Sig.name;
}

void JitKernel::setAutotune(const AutotuneSpec &Spec) const {
  JitKernelState &K = *Module->Kernels[Index];
  auto param = [&](const std::string &Name) -> const tilec::ParamSignature & {
    for (const tilec::ParamSignature &P : K.Sig.params)
      if (P.name == Name)
        return P;
    throw Error("setAutotune: '" + Name + "' is not a parameter of " + K.Sig.name);
  };
  if (Spec.Configs.empty())
    throw Error("setAutotune: " + K.Sig.name + " needs at least one config");
  std::vector<tilec::AutotuneConfig> Configs;
  for (const TuneConfig &C : Spec.Configs) {
    tilec::AutotuneConfig Config;
    for (const auto &[Name, Value] : C.Values) {
      if (!param(Name).isConstexpr)
        throw Error("setAutotune: a config sets '" + Name + "', a runtime parameter of " +
                    K.Sig.name + "; only constexpr parameters are tuned");
      Config.defines.push_back(Name + "=" + defineText(Value));
    }
    Config.numWarps = C.NumWarps;
    Config.numStages = C.NumStages;
    Configs.push_back(std::move(Config));
  }
  for (const auto *Names : {&Spec.Key, &Spec.ResetToZero, &Spec.RestoreValue})
    for (const std::string &Name : *Names)
      param(Name);
  std::lock_guard<std::mutex> Lock(K.Mutex);
  K.Sig.configs = std::move(Configs);
  K.Sig.key = Spec.Key;
  K.Sig.resetToZero = Spec.ResetToZero;
  K.Sig.restoreValue = Spec.RestoreValue;
  K.Sig.warmupMs = Spec.WarmupMs;
  K.Sig.repMs = Spec.RepMs;
  K.KeyArgs = argIndices(K, K.Sig.key);
  K.Tuned.clear();
  K.Launched.clear();
}

std::size_t JitKernel::specializations() const {
  JitKernelState &K = *Module->Kernels[Index];
  std::lock_guard<std::mutex> Lock(K.Mutex);
  return K.Loaded.size();
}

void JitKernel::launchImpl(const LaunchGrid &G, const Stream &S,
                           const LaunchOptions &Options, const Arg *Args,
                           std::size_t Count) const {
  JitKernelState &K = *Module->Kernels[Index];
  thread_local std::string Key;
  Key.clear();
  fastKey(K, Options, Args, Count, Key);
  // Entries are never removed while the module lives: a plain pointer is
  // enough (no reference count to touch on the hot path).
  const JitLoaded *L = nullptr;
  {
    std::lock_guard<std::mutex> Lock(K.Mutex);
    if (auto It = K.Launched.find(Key); It != K.Launched.end())
      L = It->second.get();
  }
  if (!L) {
    std::string Computed = Key; // resolve() may launch (autotuning).
    std::shared_ptr<JitLoaded> Resolved = resolve(*Module, K, Options, Args, Count, &G, S);
    L = Resolved.get();
    std::lock_guard<std::mutex> Lock(K.Mutex);
    K.Launched.emplace(std::move(Computed), std::move(Resolved));
  }
  L->K.launchImpl(G(L->K.info()), S, Args, Count);
}

Kernel JitKernel::specialize(const LaunchOptions &Options, const std::vector<Arg> &Args,
                             const Stream &S) const {
  return resolve(*Module, *Module->Kernels[Index], Options, Args.data(), Args.size(),
                 nullptr, S)
      ->K;
}

JitCompiled JitKernel::compile(const LaunchOptions &Options,
                               const std::vector<Arg> &Args) const {
  JitKernelState &K = *Module->Kernels[Index];
  checkArgs(K, Args.data(), Args.size());
  return compileOrThrow(*Module, K, tile::specialize(K, Options, Args.data()));
}

} // namespace tile
