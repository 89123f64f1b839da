//===- Metadata.cpp - The JSON that travels beside the PTX ----------------===//
//
// Written with llvm::json; read by runtime/lib/Metadata.cpp.
//
//===----------------------------------------------------------------------===//

#include "Metadata.h"

#include "tilec/Compiler.h"

#include "tilec/Conversion/TileGPUToLLVM/GlobalScratch.h"
#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"
#include "tilec/Frontend/MLIRGen.h"

#include "llvm/IR/GlobalVariable.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"


using namespace tilec;

std::string tilec::fnv1a64(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  std::string out;
  llvm::raw_string_ostream(out) << llvm::format_hex_no_prefix(hash, 16);
  return out;
}

std::string tilec::ptxHash(llvm::StringRef ptx) {
  return "fnv1a64:" + fnv1a64(ptx);
}

/// True when `user` is an instruction of `function`, directly or through
/// constant expressions.
static bool isUsedIn(const llvm::User *user, const llvm::Function *function) {
  if (const auto *inst = llvm::dyn_cast<llvm::Instruction>(user))
    return inst->getFunction() == function;
  return llvm::any_of(user->users(), [&](const llvm::User *next) {
    return isUsedIn(next, function);
  });
}

/// The decimal string attribute `name` of `function` (passed through from
/// the lowering), or 0 without one.
static uint64_t integerFnAttr(const llvm::Function &function, llvm::StringRef name) {
  uint64_t value = 0;
  if (llvm::Attribute attr = function.getFnAttribute(name); attr.isStringAttribute())
    attr.getValueAsString().getAsInteger(10, value);
  return value;
}

/// Bytes of shared memory that `kernel` uses: the dynamic shared memory the
/// allocation pass placed (recorded on the function as kSharedBytesFnAttr),
/// plus any static shared (address space 3) arrays it uses.
static uint64_t sharedBytes(const llvm::Module &module,
                            llvm::StringRef kernel) {
  const llvm::Function *function = module.getFunction(kernel);
  if (!function)
    return 0;
  uint64_t bytes = integerFnAttr(*function, mlir::tilec::kSharedBytesFnAttr);
  for (const llvm::GlobalVariable &global : module.globals())
    if (global.getAddressSpace() == 3 &&
        llvm::any_of(global.users(), [&](const llvm::User *user) {
          return isUsedIn(user, function);
        }))
      bytes += module.getDataLayout().getTypeAllocSize(global.getValueType());
  return bytes;
}

/// Bytes of global scratch per program that `kernel` takes as its last
/// parameter (kGlobalScratchFnAttr; 0 without one).
static uint64_t globalScratchBytes(const llvm::Module &module, llvm::StringRef kernel) {
  const llvm::Function *function = module.getFunction(kernel);
  return function ? integerFnAttr(*function, mlir::tilec::kGlobalScratchFnAttr) : 0;
}

static llvm::json::Value toJSON(const ConstValue &value) {
  switch (value.getKind()) {
  case ConstValue::Kind::Bool:
    return value.getBool();
  case ConstValue::Kind::Int:
    return value.getInt();
  case ConstValue::Kind::Float:
    return value.getFloat();
  case ConstValue::Kind::String:
    return value.getString().str();
  case ConstValue::Kind::None:
    return nullptr;
  default:
    return value.str();
  }
}

void tilec::writeMetadata(llvm::raw_ostream &os, const ModuleFacts &facts,
                          llvm::ArrayRef<std::unique_ptr<KernelInstance>> kernels,
                          const llvm::Module &ptxModule, llvm::StringRef ptx,
                          llvm::StringRef cubin) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("tilec_version", facts.version);
    json.attribute("source", facts.source);
    json.attribute("source_hash", fnv1a64(facts.sourceText));
    json.attribute("ptx_hash", ptxHash(ptx));
    if (!cubin.empty())
      json.attribute("cubin_hash", ptxHash(cubin));
    json.attribute("target", facts.target);
    json.attribute("tile_ir", facts.tileIR);
    json.attributeArray("kernels", [&] {
      for (const auto &kernel : kernels)
        json.object([&] {
          json.attribute("name", kernel->name);
          json.attribute("num_warps", int64_t(kernel->numWarps));
          json.attribute("num_stages", int64_t(kernel->numStages));
          json.attribute("shared_bytes",
                         int64_t(sharedBytes(ptxModule, kernel->name)));
          if (uint64_t scratch = globalScratchBytes(ptxModule, kernel->name))
            json.attribute("global_scratch_bytes", int64_t(scratch));
          json.attributeArray("params", [&] {
            for (const KernelParam &param : kernel->params) {
              if (param.isConstexpr)
                continue;
              json.object([&] {
                json.attribute("name", param.name);
                json.attribute("type", param.tensorMap ? "tensormap" : param.type.str());
                if (param.tensorMap) {
                  json.attributeArray("box", [&] {
                    for (int64_t dim : param.tensorMapBox)
                      json.value(dim);
                  });
                  json.attribute("swizzle", param.tensorMapSwizzle);
                }
                if (param.type.isPointer())
                  json.attribute("align", int64_t(param.align));
                if (!param.descriptor.empty())
                  json.attribute("descriptor", param.descriptor);
                if (!param.descriptorBlockShape.empty())
                  json.attributeArray("block_shape", [&] {
                    for (int64_t dim : param.descriptorBlockShape)
                      json.value(dim);
                  });
                if (param.specialization == 16)
                  json.attribute("divisibility", int64_t(16));
                else if (param.specialization == 1)
                  json.attribute("equal_to", int64_t(1));
              });
            }
          });
          json.attributeObject("constexprs", [&] {
            for (const KernelParam &param : kernel->params)
              if (param.isConstexpr)
                json.attribute(param.name, toJSON(param.value));
          });
        });
    });
  });
  os << "\n";
}
