# lit configuration of tilec's FileCheck tests. Layout mirrors compiler/lib.
import os
import lit.formats

config.name = "tilec"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir", ".tile", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_tools_dir, "..", "tests", "lit")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

config.environment["PATH"] = os.pathsep.join(
    [config.tilec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%examples", os.path.join(config.tilec_source_dir, "dsl_examples")))
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(
    ("%runtime_include", os.path.join(config.tilec_source_dir, "runtime", "include")))
if config.ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
