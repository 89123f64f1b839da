//===- LibdeviceTableTest.cpp - The libdevice table against libdevice.10.bc ===//
//
// Every symbol of the frontend's libdevice table is defined by NVIDIA's
// libdevice with the table's argument and result types; names are unique.
// Skipped where no libdevice is installed.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Libdevice.h"
#include "tilec/Target/Libdevice.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <set>

using namespace tilec;

namespace {

/// True if the LLVM type `type` is how libdevice passes `kind`.
bool matches(llvm::Type *type, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F32: return type->isFloatTy();
  case ScalarKind::F64: return type->isDoubleTy();
  case ScalarKind::I32: case ScalarKind::U32: return type->isIntegerTy(32);
  case ScalarKind::I64: case ScalarKind::U64: return type->isIntegerTy(64);
  default: return false;
  }
}

TEST(LibdeviceTable, NamesAreUnique) {
  std::set<std::string> names;
  for (const LibdeviceFunction &function : getLibdeviceFunctions())
    EXPECT_TRUE(names.insert(function.name).second) << function.name;
  EXPECT_GT(names.size(), 150u);
  ASSERT_NE(lookupLibdeviceFunction("pow"), nullptr);
  EXPECT_EQ(lookupLibdeviceFunction("pow")->overloads.size(), 4u);
  EXPECT_EQ(lookupLibdeviceFunction("no_such_function"), nullptr);
}

TEST(LibdeviceTable, ModulesAreRecognized) {
  EXPECT_TRUE(isLibdeviceModule("triton.language.extra.cuda.libdevice"));
  EXPECT_TRUE(isLibdeviceModule("tl.extra.libdevice"));
  EXPECT_TRUE(isLibdeviceModule("tl.math"));
  EXPECT_TRUE(isLibdeviceModule("tl.libdevice"));
  EXPECT_FALSE(isLibdeviceModule("tl"));
  EXPECT_FALSE(isLibdeviceModule("mylib.libdevice"));
}

TEST(LibdeviceTable, EverySymbolIsInLibdevice) {
  std::string path = mlir::tilec::findLibdevice("");
  if (path.empty() || !llvm::sys::fs::exists(path))
    GTEST_SKIP() << "no libdevice.10.bc here";
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseIRFile(path, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  size_t checked = 0;
  for (const LibdeviceFunction &function : getLibdeviceFunctions()) {
    for (const LibdeviceOverload &overload : function.overloads) {
      llvm::Function *defined = module->getFunction(overload.symbol);
      ASSERT_NE(defined, nullptr) << function.name << ": " << overload.symbol;
      llvm::FunctionType *type = defined->getFunctionType();
      ASSERT_EQ(type->getNumParams(), overload.args.size()) << overload.symbol;
      for (size_t i = 0; i < overload.args.size(); ++i)
        EXPECT_TRUE(matches(type->getParamType(i), overload.args[i]))
            << overload.symbol << " argument " << i;
      EXPECT_TRUE(matches(type->getReturnType(), overload.result))
          << overload.symbol << " result";
      ++checked;
    }
  }
  EXPECT_GT(checked, 250u);
}

} // namespace
