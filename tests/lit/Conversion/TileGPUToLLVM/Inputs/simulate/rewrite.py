"""Makes the LLVM IR of the tilegpu lowering runnable on the host.

Reads LLVM IR on stdin and writes to stdout: the thread id, warp shuffle and
barrier intrinsics become calls to the emulation in harness.cpp, shared memory
becomes ordinary memory, and each function `f` taking and returning structs
gets a wrapper `w_f(ptr in0, ..., ptr out)` that loads its arguments from
memory and stores its result.
"""
import re
import sys

ir = sys.stdin.read()
ir = ir.replace("addrspace(3)", "")
for intrinsic, emulation in [
    ("@llvm.nvvm.read.ptx.sreg.tid.x", "@sim_tid"),
    ("@llvm.nvvm.shfl.sync.bfly.i32", "@sim_shfl"),
    ("@llvm.nvvm.barrier.cta.sync.aligned.all", "@sim_bar"),
]:
    ir = ir.replace(intrinsic, emulation)

wrappers = []
pattern = r"^define (\{[^}]*\}|float|i32) @(\w+)\((.*)\) #\d+ \{"
for match in re.finditer(pattern, ir, re.M):
    result, name, params = match.groups()
    types = re.findall(r"(\{[^}]*\}) %\d+", params)
    args = ", ".join(f"ptr %in{i}" for i in range(len(types)))
    body = [f"  %v{i} = load {t}, ptr %in{i}" for i, t in enumerate(types)]
    call = ", ".join(f"{t} %v{i}" for i, t in enumerate(types))
    body.append(f"  %r = call {result} @{name}({call})")
    body.append(f"  store {result} %r, ptr %out")
    wrappers.append(f"define void @w_{name}({args}, ptr %out) {{\n"
                    + "\n".join(body) + "\n  ret void\n}\n")
sys.stdout.write(ir + "\n" + "\n".join(wrappers))
