"""Makes the LLVM IR of the tilegpu lowering runnable on the host.

Reads LLVM IR on stdin and writes to stdout: the thread id, warp shuffle,
barrier and cp.async intrinsics become calls to the emulation in sim.h and
mma-harness.cpp, and so do the inline-asm ldmatrix and mma.sync (each a call
that exchanges the warp's operands, then one call per result register);
shared and global memory become ordinary memory; and each function `f`
taking and returning structs gets a wrapper `w_f(ptr in0, ..., ptr out)`
that loads its arguments from memory and stores its result.
"""
import re
import sys

ir = sys.stdin.read()
ir = ir.replace("addrspace(3)", "").replace("addrspace(1)", "")
for intrinsic, emulation in [
    ("@llvm.nvvm.read.ptx.sreg.tid.x", "@sim_tid"),
    ("@llvm.nvvm.shfl.sync.bfly.i32", "@sim_shfl"),
    ("@llvm.nvvm.shfl.sync.idx.i32", "@sim_shfl_idx"),
    ("@llvm.nvvm.barrier.cta.sync.aligned.all", "@sim_bar"),
    ("@llvm.nvvm.cp.async.commit.group", "@sim_cp_async_commit"),
    ("@llvm.nvvm.cp.async.wait.group", "@sim_cp_async_wait"),
]:
    ir = ir.replace(intrinsic, emulation)
# cp.async.{ca,cg}.shared.global.<bytes>[.s]: sim_cp_async_<bytes>[_s].
ir = re.sub(r"@llvm\.nvvm\.cp\.async\.c[ag]\.shared\.global\.(\d+)(\.s)?",
            lambda m: "@sim_cp_async_" + m.group(1) + ("_s" if m.group(2) else ""),
            ir)

ASM = re.compile(r'^(\s*)(%[\w.]+) = (?:tail )?call (\{[^}]*\}) asm '
                 r'(?:sideeffect )?"([^"]*)", "[^"]*"\(([^)]*)\)', re.M)


def replace_asm(match):
    """An ldmatrix or mma.sync asm call as emulation calls."""
    indent, result, struct, text, args = match.groups()
    element = struct.strip("{} ").split(",")[0].strip()
    count = struct.count(",") + 1
    name = result[1:]
    if "ldmatrix" in text:
        call = (f"call void @sim_ldmatrix({args}, i32 {count}, "
                f"i32 {int('.trans' in text)})")
        read = "sim_ldmatrix_reg"
    elif "mma.sync" in text:
        call = f"call void @sim_mma(i32 {int('bf16' in text)}, {args})"
        read = "sim_mma_reg"
    else:
        return match.group(0)
    lines = [indent + call]
    for i in range(count):
        lines.append(f"{indent}%sim.{name}.{i} = call {element} @{read}(i32 {i})")
    previous = "poison"
    for i in range(count):
        target = result if i == count - 1 else f"%sim.{name}.s{i}"
        lines.append(f"{indent}{target} = insertvalue {struct} {previous}, "
                     f"{element} %sim.{name}.{i}, {i}")
        previous = target
    return "\n".join(lines)


ir = ir.replace("i32 immarg", "i32")
ir = ASM.sub(replace_asm, ir)
ir += """
declare void @sim_ldmatrix(i64, i32, i32)
declare i32 @sim_ldmatrix_reg(i32)
declare void @sim_mma(i32, i32, i32, i32, i32, i32, i32, float, float, float, float)
declare float @sim_mma_reg(i32)
"""

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
