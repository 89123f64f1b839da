//===- Imports.cpp - Device functions imported from other files -----------===//
//
// See Imports.h. Each file is read once (by its real path) and owned by the
// importing root module. A module is registered as soon as it is parsed,
// before its own imports are read, so files may import each other (as in
// Python, a name bound by an import still being read is not yet there).
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Imports.h"

#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace tilec;

namespace {

/// The largest file an import reads, as for the main source.
constexpr uint64_t kMaxImportBytes = 16u << 20;

class ImportResolver {
public:
  ImportResolver(Module &root, const std::vector<std::string> &searchPaths,
                 DiagnosticEngine &diag, std::vector<std::string> &dependencies,
                 std::vector<std::string> &misses)
      : root(root), searchPaths(searchPaths), diag(diag), dependencies(dependencies),
        misses(misses) {}

  /// Resolves the imports of `module`, a file in directory `dir` ("" when it
  /// has none).
  bool resolve(Module &module, llvm::StringRef dir) {
    bool ok = true;
    std::vector<ForeignImport> unresolved;
    for (ForeignImport &import : module.foreignImports) {
      // `import a.b` binds `a`, which names no file of its own.
      bool bindsPackage = import.symbol.empty() && llvm::StringRef(import.module).contains('.') &&
                          import.name == llvm::StringRef(import.module).split('.').first;
      std::vector<std::string> candidates = getCandidates(import.module, dir);
      auto found = findFile(candidates);
      Module *imported = nullptr;
      if (!bindsPackage && found != candidates.end()) {
        misses.insert(misses.end(), candidates.begin(), found);
        if (!(imported = load(*found, import.loc))) {
          ok = false;
          continue;
        }
      }
      // `from pkg import sub` (`from . import utils`): the submodule
      // pkg/sub.* when pkg has no file or binds no `sub`, as in Python.
      if (!import.symbol.empty() && (!imported || !definesSymbol(*imported, import.symbol))) {
        std::string submodule =
            llvm::StringRef(import.module).find_first_not_of('.') == llvm::StringRef::npos
                ? import.module + import.symbol
                : import.module + "." + import.symbol;
        std::vector<std::string> subCandidates = getCandidates(submodule, dir);
        if (auto subFound = findFile(subCandidates); subFound != subCandidates.end()) {
          misses.insert(misses.end(), subCandidates.begin(), subFound);
          Module *sub = load(*subFound, import.loc);
          if (!sub)
            ok = false;
          else
            module.moduleAliases[import.name] = sub;
          continue;
        }
        if (!imported)
          candidates.insert(candidates.end(), subCandidates.begin(), subCandidates.end());
      }
      if (!imported) {
        import.searched = candidates.empty()
                              ? std::string("the source is not a file (stdin, or a JIT "
                                            "source): a relative import finds nothing, "
                                            "an absolute one only looks in -I directories")
                              : "tilec looked for " + llvm::join(candidates, ", ");
        unresolved.push_back(std::move(import));
        continue;
      }
      if (import.symbol == "*") {
        importEverything(module, *imported);
      } else if (import.symbol.empty()) {
        module.moduleAliases[import.name] = imported;
      } else if (const FunctionDef *function = imported->lookup(import.symbol);
                 function && !function->isHostFunction()) {
        module.importedFunctions[import.name] = function;
      } else if (const GlobalDef *global = imported->lookupGlobal(import.symbol)) {
        module.importedGlobals[import.name] = global;
      } else if (auto alias = imported->tritonAliases.find(import.symbol);
                 alias != imported->tritonAliases.end()) {
        // `triton_tanh = libdevice.tanh` there: the same function here.
        module.tritonAliases[import.name] = alias->second;
      } else {
        // Host code (a class, a wrapper) is fine until a kernel uses it.
        import.searched = "'" + *found + "' defines no device function or module-level "
                                         "constant '" + import.symbol + "'";
        unresolved.push_back(std::move(import));
      }
    }
    module.foreignImports = std::move(unresolved);
    return ok;
  }

private:
  /// `from m import *`: binds in `module` each public name (not starting
  /// with `_`) that `imported` defines as a device function, a constant or
  /// an alias of a triton function, unless `module` binds it itself.
  static void importEverything(Module &module, const Module &imported) {
    auto bound = [&](llvm::StringRef name) {
      return name.starts_with("_") || module.lookup(name) || module.lookupGlobal(name) ||
             module.importedFunctions.count(name.str()) ||
             module.importedGlobals.count(name.str()) || module.tritonAliases.count(name.str());
    };
    for (const auto &function : imported.functions)
      if (!function->isHostFunction() && !bound(function->getName()))
        module.importedFunctions[function->getName().str()] = function.get();
    for (const GlobalDef &global : imported.globals)
      if (!bound(global.name))
        module.importedGlobals[global.name] = &global;
    for (const auto &[name, path] : imported.tritonAliases)
      if (!bound(name))
        module.tritonAliases[name] = path;
  }

  /// The first of `candidates` that is a file.
  static std::vector<std::string>::iterator findFile(std::vector<std::string> &candidates) {
    return llvm::find_if(candidates,
                         [](const std::string &path) { return llvm::sys::fs::is_regular_file(path); });
  }

  /// Whether `module` binds `symbol` to a device function or a constant.
  static bool definesSymbol(const Module &module, llvm::StringRef symbol) {
    const FunctionDef *function = module.lookup(symbol);
    return (function && !function->isHostFunction()) || module.lookupGlobal(symbol) ||
           module.tritonAliases.count(symbol.str());
  }

  /// The files module `name` may be ("helpers" -> helpers.tile, helpers.py;
  /// "pkg.helpers" -> pkg/helpers.*; ".helpers" beside the importer only,
  /// "..helpers" one directory up), in search order.
  std::vector<std::string> getCandidates(llvm::StringRef name, llvm::StringRef dir) {
    size_t dots = name.find_first_not_of('.');
    if (dots == llvm::StringRef::npos)
      return {};
    std::string relative = name.drop_front(dots).str();
    std::replace(relative.begin(), relative.end(), '.', '/');
    std::vector<std::string> dirs;
    if (dots > 0) {
      if (dir.empty())
        return {};
      llvm::SmallString<256> up(dir);
      for (size_t i = 1; i < dots; ++i)
        llvm::sys::path::remove_filename(up);
      dirs.push_back(std::string(up));
    } else {
      if (!dir.empty())
        dirs.push_back(dir.str());
      dirs.insert(dirs.end(), searchPaths.begin(), searchPaths.end());
    }
    std::vector<std::string> candidates;
    for (const std::string &directory : dirs)
      for (llvm::StringRef extension : {".tile", ".py"}) {
        llvm::SmallString<256> path(directory);
        llvm::sys::path::append(path, relative + extension);
        candidates.push_back(std::string(path));
      }
    return candidates;
  }

  /// Parses `path` (once) and resolves its own imports; null after an error.
  Module *load(const std::string &path, SourceLoc importLoc) {
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(path, real))
      real = path;
    if (auto it = loaded.find(std::string(real)); it != loaded.end())
      return it->second;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer) {
      diag.error(importLoc, "cannot read '" + path + "': " + buffer.getError().message());
      return nullptr;
    }
    if ((*buffer)->getBufferSize() > kMaxImportBytes) {
      diag.error(importLoc, "'" + path + "' is larger than 16 MiB");
      return nullptr;
    }
    dependencies.push_back(path);
    unsigned bufferId =
        diag.getSourceMgr().AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    std::unique_ptr<Module> module = parseFile(bufferId, diag);
    if (!module) {
      diag.note(importLoc, "imported here");
      return nullptr;
    }
    Module *raw = module.get();
    root.importedModules.push_back(std::move(module));
    loaded[std::string(real)] = raw;
    return resolve(*raw, llvm::sys::path::parent_path(path)) ? raw : nullptr;
  }

public:
  /// Registers `module`, read from `path`, as loaded (the root module: a
  /// file that imports it gets it, not a second copy).
  void registerLoaded(const std::string &path, Module &module) {
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(path, real))
      loaded[std::string(real)] = &module;
  }

private:

  Module &root;
  const std::vector<std::string> &searchPaths;
  DiagnosticEngine &diag;
  std::vector<std::string> &dependencies;
  std::vector<std::string> &misses;
  /// Files read, by real path.
  std::map<std::string, Module *> loaded;
};

} // namespace

bool tilec::resolveImports(Module &module, const std::string &importingPath,
                           const std::vector<std::string> &searchPaths, DiagnosticEngine &diag,
                           std::vector<std::string> &dependencies,
                           std::vector<std::string> &misses) {
  // The importing file's directory, absolute so that `..` can climb out of
  // it; none when the source is not a file (stdin, a JIT source's name).
  std::string dir;
  llvm::SmallString<256> absolute(importingPath);
  if (!importingPath.empty() && llvm::sys::fs::is_regular_file(importingPath) &&
      !llvm::sys::fs::make_absolute(absolute)) {
    llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
    dir = std::string(llvm::sys::path::parent_path(absolute));
  }
  ImportResolver resolver(module, searchPaths, diag, dependencies, misses);
  if (!dir.empty())
    resolver.registerLoaded(std::string(absolute), module);
  return resolver.resolve(module, dir);
}
