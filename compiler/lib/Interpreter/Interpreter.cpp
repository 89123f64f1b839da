//===- Interpreter.cpp - Parsing and launching interpreted kernels --------===//
//
// InterpretedModule parses tile IR, rejects (with the op's location) every
// op and type the interpreter cannot run, and launches a kernel: its
// arguments decoded from cuLaunchKernel-style parameter pointers, its
// programs spread over host threads, each program a Runner walking the
// function with whole tiles as values.
//
//===----------------------------------------------------------------------===//

#include "tilec/Interpreter.h"

#include "Runner.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstdlib>
#include <thread>

using namespace tilec;
using namespace tilec::interp;

//===----------------------------------------------------------------------===//
// Runner
//===----------------------------------------------------------------------===//

const OpTable &tilec::interp::opTable() {
  static const OpTable table = [] {
    OpTable t;
    registerArithOps(t);
    registerMathOps(t);
    registerShapeOps(t);
    registerMemoryOps(t);
    registerReductionOps(t);
    registerDotOps(t);
    registerDebugOps(t);
    registerControlFlowOps(t);
    return t;
  }();
  return table;
}

std::string tilec::interp::locationText(mlir::Location loc) {
  std::string text;
  loc->walk([&](mlir::Location inner) {
    if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(inner)) {
      text = (fileLoc.getFilename().str() + ":" + llvm::Twine(fileLoc.getLine()) +
              ":" + llvm::Twine(fileLoc.getColumn()))
                 .str();
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return text;
}

llvm::ArrayRef<std::int64_t> tilec::interp::broadcastShape(const TileValue &a,
                                                           const TileValue &b) {
  return a.size() == 1 && b.size() != 1 ? llvm::ArrayRef<std::int64_t>(b.shape)
                                        : llvm::ArrayRef<std::int64_t>(a.shape);
}

const TileValue &Runner::get(mlir::Value value) const { return *env.lookup(value); }

TilePtr Runner::getPtr(mlir::Value value) const { return env.lookup(value); }

bool Runner::fail(mlir::Operation &op, const llvm::Twine &message) {
  std::string where = locationText(op.getLoc());
  std::string text = (where.empty() ? "" : where + ": ") + "error: " + message.str() +
                     " in program (" + std::to_string(programId[0]) + ", " +
                     std::to_string(programId[1]) + ", " + std::to_string(programId[2]) +
                     ")";
  // The lowest failing program reports (see LaunchState::errorProgram).
  std::lock_guard guard(launch.errorLock);
  if (!launch.failed.load() || linearId < launch.errorProgram) {
    launch.error = std::move(text);
    launch.errorProgram = linearId;
    launch.failed.store(true, std::memory_order_release);
  }
  return false;
}

bool Runner::runOp(mlir::Operation &op) {
  // Every op was checked against the table when the module was parsed.
  const OpEntry &entry = opTable().find(op.getName().getStringRef())->second;
  return entry.run(*this, op);
}

bool Runner::runBlock(mlir::Block &block, llvm::ArrayRef<TilePtr> args,
                      llvm::SmallVectorImpl<TilePtr> &results) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    set(arg, value);
  for (mlir::Operation &op : block.without_terminator()) {
    if (superseded())
      return false;
    if (!runOp(op))
      return false;
  }
  mlir::Operation *terminator = block.getTerminator();
  results.clear();
  for (mlir::Value operand : terminator->getOperands())
    results.push_back(getPtr(operand));
  return true;
}

//===----------------------------------------------------------------------===//
// InterpretedModule
//===----------------------------------------------------------------------===//

struct InterpretedModule::Impl {
  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
  mlir::OwningOpRef<mlir::ModuleOp> module;
  llvm::StringMap<mlir::func::FuncOp> kernels;
  std::vector<std::string> kernelOrder;
};

InterpretedModule::InterpretedModule(std::unique_ptr<Impl> state)
    : State(std::move(state)) {}

InterpretedModule::~InterpretedModule() = default;

namespace {

/// Why the interpreter cannot hold values of `type`, or "".
std::string unsupportedType(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return unsupportedType(tensor.getElementType());
  if (auto ptr = llvm::dyn_cast<mlir::tile::PointerType>(type))
    return unsupportedType(ptr.getPointeeType());
  // A tensor map is only an operand of loads that the interpreter runs
  // through their pointers: a parameter holds the map's first 8 bytes, a
  // map made in the kernel 0, both unused.
  if (llvm::isa<mlir::tile::TensorMapType>(type))
    return "";
  if (auto integer = llvm::dyn_cast<mlir::IntegerType>(type))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth())
               ? ""
               : "i" + std::to_string(integer.getWidth()) + " values";
  if (type.isIndex() || type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
      llvm::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(type))
    return "";
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return "values of type " + name;
}

/// The first op under `func` the interpreter cannot run, as an error.
std::string validate(mlir::func::FuncOp func) {
  std::string error;
  func.walk([&](mlir::Operation *op) {
    if (op == func.getOperation())
      return mlir::WalkResult::advance();
    auto located = [&](const std::string &what) {
      std::string where = locationText(op->getLoc());
      error = (where.empty() ? "" : where + ": ") +
              "error: the interpreter cannot run " + what + " yet";
    };
    auto entry = opTable().find(op->getName().getStringRef());
    if (entry == opTable().end()) {
      located("'" + op->getName().getStringRef().str() + "'");
      return mlir::WalkResult::interrupt();
    }
    // A combine region runs on whole tiles of pairs at once: it may hold
    // elementwise ops only (as the frontend and the GPU lowering require).
    if (llvm::isa<mlir::tile::ReduceOp, mlir::tile::ScanOp>(op->getParentOp()) &&
        (op->getNumRegions() || !mlir::isMemoryEffectFree(op))) {
      located("'" + op->getName().getStringRef().str() + "' inside a combine function");
      return mlir::WalkResult::interrupt();
    }
    for (mlir::Type type : op->getResultTypes())
      if (std::string why = unsupportedType(type); !why.empty()) {
        located(why);
        return mlir::WalkResult::interrupt();
      }
    if (entry->second.validate)
      if (std::string why = entry->second.validate(*op); !why.empty()) {
        located(why);
        return mlir::WalkResult::interrupt();
      }
    return mlir::WalkResult::advance();
  });
  for (mlir::Type type : func.getArgumentTypes())
    if (std::string why = unsupportedType(type); error.empty() && !why.empty())
      error = "error: the interpreter cannot run kernel '" + func.getName().str() +
              "' yet: its parameters hold " + why;
  return error;
}

/// The most host threads one launch uses.
constexpr unsigned kMaxThreads = 256;

/// Number of host threads for a launch of `programs` programs.
unsigned threadCount(unsigned requested, std::uint64_t programs) {
  unsigned n = requested ? requested : defaultInterpreterThreads();
  return static_cast<unsigned>(std::min<std::uint64_t>({n, programs, kMaxThreads}));
}

} // namespace

unsigned tilec::defaultInterpreterThreads() {
  unsigned n = 0;
  if (const char *env = std::getenv("TILE_INTERPRETER_THREADS"))
    n = static_cast<unsigned>(std::strtoul(env, nullptr, 10));
  if (n == 0)
    n = std::max(1u, std::thread::hardware_concurrency());
  return std::min(n, kMaxThreads);
}

std::shared_ptr<InterpretedModule>
InterpretedModule::parse(std::string_view tileIR, std::string_view origin,
                         std::string &error) {
  auto state = std::make_unique<Impl>();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::func::FuncDialect, mlir::cf::ControlFlowDialect,
                  mlir::ub::UBDialect>();
  state->context.appendDialectRegistry(registry);
  state->context.loadAllAvailableDialects();
  std::string diagnostics;
  {
    mlir::ScopedDiagnosticHandler handler(&state->context, [&](mlir::Diagnostic &d) {
      if (d.getSeverity() == mlir::DiagnosticSeverity::Error && diagnostics.empty()) {
        std::string where = locationText(d.getLocation());
        diagnostics = (where.empty() ? std::string(origin) : where) + ": " + d.str();
      }
      return mlir::success();
    });
    state->module = mlir::parseSourceString<mlir::ModuleOp>(
        llvm::StringRef(tileIR.data(), tileIR.size()), &state->context,
        llvm::StringRef(origin.data(), origin.size()));
  }
  if (!state->module) {
    error = diagnostics.empty() ? std::string(origin) + ": not a tile-dialect module"
                                : diagnostics;
    return nullptr;
  }
  for (auto func : state->module->getOps<mlir::func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (std::string why = validate(func); !why.empty()) {
      error = why;
      return nullptr;
    }
    state->kernels[func.getName()] = func;
    state->kernelOrder.push_back(func.getName().str());
  }
  return std::shared_ptr<InterpretedModule>(new InterpretedModule(std::move(state)));
}

std::vector<std::string> InterpretedModule::kernels() const { return State->kernelOrder; }

std::string InterpretedModule::launch(std::string_view name, InterpreterGrid grid,
                                      void *const *params, std::size_t paramCount,
                                      const std::vector<std::string> &argNames,
                                      HostMemory &memory, unsigned threads) const {
  auto found = State->kernels.find(llvm::StringRef(name.data(), name.size()));
  if (found == State->kernels.end())
    return "error: the interpreted module has no kernel '" + std::string(name) + "'";
  mlir::func::FuncOp func = found->second;
  if (paramCount != func.getNumArguments())
    return "error: kernel '" + std::string(name) + "' takes " +
           std::to_string(func.getNumArguments()) + " arguments; the launch passed " +
           std::to_string(paramCount);
  if (grid[0] >= (1u << 31) || grid[1] > 65535 || grid[2] > 65535)
    return "error: grid (" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " +
           std::to_string(grid[2]) +
           ") is larger than CUDA allows (2^31 - 1, 65535, 65535), as the GPU would refuse it";
  std::uint64_t programs = std::uint64_t(grid[0]) * grid[1] * grid[2];
  if (programs == 0)
    return "";

  LaunchState launch;
  launch.grid = grid;
  launch.memory = &memory.impl();
  std::shared_lock memoryGuard(launch.memory->lock);
  llvm::SmallVector<TilePtr> args;
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    ElemType elem = ElemType::of(type);
    auto value = makeTile({}, elem);
    if (elem.isPointer()) {
      std::uint64_t address;
      std::memcpy(&address, params[index], 8);
      value->data[0].i = static_cast<std::int64_t>(address);
      value->origin[0] = static_cast<std::uint16_t>(index + 1);
      launch.argAllocations.push_back(launch.memory->find(address));
    } else {
      value->data[0] = loadElement(params[index], elem);
      launch.argAllocations.push_back(nullptr);
    }
    launch.argNames.push_back(index < argNames.size() ? argNames[index]
                                                      : "argument " + std::to_string(index));
    args.push_back(std::move(value));
  }

  std::atomic<std::uint64_t> next{0};
  mlir::Block &body = func.getBody().front();
  auto work = [&] {
    llvm::SmallVector<TilePtr> results;
    // Ids are handed out in order: once a program failed, those above it
    // need not run.
    for (std::uint64_t linear = next++;
         linear < programs && !(launch.failed && launch.errorProgram < linear);
         linear = next++) {
      std::array<unsigned, 3> pid{static_cast<unsigned>(linear % grid[0]),
                                  static_cast<unsigned>(linear / grid[0] % grid[1]),
                                  static_cast<unsigned>(linear / grid[0] / grid[1])};
      Runner runner(launch, pid);
      if (!runner.runBlock(body, args, results))
        return;
    }
  };
  unsigned n = threadCount(threads, programs);
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < n; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  return launch.failed ? launch.error : "";
}
