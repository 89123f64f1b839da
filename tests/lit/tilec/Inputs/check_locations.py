"""Compiles every kernel of the repository's tests and examples (the GPU test
modules with their flags, every .tile under tests/lit split at its `#---`
markers, the examples) to PTX with tilec, whose pass manager runs the MLIR
verifier after every pass, and fails on any message that does not point into
the user's source: an error without `file.tile:line:col`, an MLIR verifier
message about an op (`'arith.truncf' op ...`), an internal error, an LLVM
fatal error, or a crash. Errors that the test files expect are fine when
they are located. Prints one line per problem and a summary."""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

# The prelude (triton.language's random numbers, written in the language)
# reports inside itself, then notes the calls back to the user's line.
LOCATED = re.compile(
    r"^([^:\s]+\.tile|<triton\.language>):\d+:\d+: (error|warning|note|remark): ")
OP_MESSAGE = re.compile(r"'[a-z_]+\.[a-z_.]+' op ")


def split_file(path, directory):
    """The files of a split-file input (or the file itself)."""
    text = open(path, encoding="utf-8", errors="replace").read()
    if "\n#--- " not in text:
        return [path]
    parts, name, lines = [], None, []
    for line in text.split("\n"):
        if line.startswith("#--- "):
            if name:
                parts.append((name, lines))
            name, lines = line[5:].strip(), []
        elif name:
            lines.append(line)
    if name:
        parts.append((name, lines))
    stem = os.path.basename(path).replace(".", "_")
    out = []
    for part, body in parts:
        if not part.endswith(".tile"):
            continue
        target = os.path.join(directory, stem + "__" + part)
        os.makedirs(os.path.dirname(target), exist_ok=True)  # parts in subdirectories
        with open(target, "w") as f:
            f.write("\n".join(body))
        out.append(target)
    return out


def jobs(root, directory):
    """(source, extra flags) for every kernel to compile."""
    result = []
    for name in sorted(os.listdir(os.path.join(root, "dsl_examples"))):
        if name.endswith(".tile"):
            result.append((os.path.join(root, "dsl_examples", name), []))
    kernels = os.path.join(root, "tests", "gpu", "kernels")
    for line in open(os.path.join(kernels, "KERNELS")):
        fields = line.split()
        if not fields or line.startswith("#"):
            continue
        result.append((os.path.join(kernels, fields[1] + ".tile"),
                       ["--kernel", fields[2]] + fields[3:]))
    for base, _, files in os.walk(os.path.join(root, "tests", "lit")):
        for name in sorted(files):
            if name.endswith(".tile") and "Output" not in base:
                for source in split_file(os.path.join(base, name), directory):
                    result.append((source, []))
    return result


def check(tilec, source, flags, directory, index):
    out = os.path.join(directory, "k%d.ptx" % index)
    try:
        proc = subprocess.run([tilec, source, "-o", out] + flags, capture_output=True,
                              text=True, errors="replace", timeout=120)
    except subprocess.TimeoutExpired:
        return ["%s: timed out" % source]
    problems = []
    if proc.returncode not in (0, 1):
        problems.append("%s: exit status %d" % (source, proc.returncode))
    for line in proc.stderr.splitlines():
        bad = ("LLVM ERROR" in line or "internal error" in line or
               OP_MESSAGE.search(line) or
               ("error:" in line and not LOCATED.match(line) and
                not line.startswith("tilec: error:")))
        if bad:
            problems.append("%s %s: %s" % (source, " ".join(flags), line))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilec", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        work = jobs(args.root, directory)
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda item: check(args.tilec, item[1][0], item[1][1],
                                                       directory, item[0]),
                                    enumerate(work)))
    problems = [p for r in results for p in r]
    for problem in problems:
        print("FAIL:", problem)
    print("%d compilations checked, %d problems" % (len(work), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
