#!/usr/bin/env python3
"""check_kernels: compiles kernelgen's kernels with tilec and assembles the PTX.

Each kernel is compiled for sm_80 and sm_90; ptxas (when it is found) must
accept every PTX. A finding is a tilec crash, a non-zero exit on a generated
(so valid) kernel, a compilation over 10 s, or PTX that ptxas rejects. Each
finding's kernel and message are saved under --work/findings; with --reduce
the first kernel of each distinct message is cut down line by line first.

  check_kernels.py --tilec build/bin/tilec --count 300 --seed 1 --jobs 2
Prints one summary line and exits 1 when there are findings.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import kernelgen

ARCHS = ["sm_80", "sm_90"]
SLOW_SECONDS = 10
LIBDEVICE_MISSING = "comes from NVIDIA's libdevice, which was not found"


def find_ptxas():
    cuda = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    return cuda if os.access(cuda, os.X_OK) else shutil.which("ptxas")


def signature(kind, message):
    """What identifies a finding: its kind and first error line, without
    locations and numbers."""
    lines = [l for l in message.splitlines() if "error" in l.lower()] or message.splitlines()
    first = re.sub(r"^\S+:\d+:\d+: ", "", lines[0] if lines else "")
    first = re.sub(r"line \d+", "line N", first)
    return kind + ": " + re.sub(r"\d+", "N", first)[:200]


class Checker:
    def __init__(self, args):
        self.tilec = args.tilec
        self.ptxas = find_ptxas()
        self.work = args.work
        self.skipped = 0

    def check_file(self, path):
        """[(kind, message, command)] for the kernel at `path`."""
        findings = []
        for arch in ARCHS:
            ptx = "%s.%s.ptx" % (path[:-len(".tile")], arch)
            command = [self.tilec, path, "--arch", arch, "-o", ptx]
            start = time.monotonic()
            try:
                run = subprocess.run(command, capture_output=True, text=True,
                                     timeout=120)
            except subprocess.TimeoutExpired:
                findings.append(("hang", "tilec ran over 120 s", command))
                continue
            seconds = time.monotonic() - start
            if run.returncode < 0 or run.returncode > 1:
                findings.append(("crash", "exit %d\n%s" % (run.returncode, run.stderr),
                                 command))
            elif run.returncode == 1:
                if LIBDEVICE_MISSING in run.stderr:
                    self.skipped += 1
                    return []
                findings.append(("rejected", run.stderr, command))
            elif seconds > SLOW_SECONDS:
                findings.append(("slow", "%.1f s" % seconds, command))
            if run.returncode != 0 or not self.ptxas:
                continue
            assemble = [self.ptxas, "-arch=" + arch, ptx, "-o", os.devnull]
            run = subprocess.run(assemble, capture_output=True, text=True)
            if run.returncode != 0:
                findings.append(("ptxas", run.stderr, assemble))
        return findings

    def reduce(self, path, wanted):
        """Deletes lines of the kernel at `path` while `wanted` still fails."""
        lines = open(path).read().splitlines(keepends=True)
        trial = path[:-len(".tile")] + ".reduce.tile"
        changed = True
        while changed:
            changed = False
            for i in range(len(lines) - 1, -1, -1):
                candidate = lines[:i] + lines[i + 1:]
                with open(trial, "w") as f:
                    f.writelines(candidate)
                if any(signature(k, m) == wanted for k, m, _ in self.check_file(trial)):
                    lines, changed = candidate, True
        with open(path, "w") as f:
            f.writelines(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilec", required=True)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work", default="build/kernelgen")
    parser.add_argument("--reduce", action="store_true")
    args = parser.parse_args()
    os.makedirs(os.path.join(args.work, "findings"), exist_ok=True)
    checker = Checker(args)
    if not checker.ptxas:
        print("check_kernels: ptxas not found: PTX is compiled but not assembled")

    def one(index):
        path = os.path.join(args.work, "kgen_%d_%d.tile" % (args.seed, index))
        with open(path, "w") as f:
            f.write(kernelgen.generate(args.seed, index))
        return path, checker.check_file(path)

    start = time.monotonic()
    seen = {}
    indices = range(args.first, args.first + args.count)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for path, findings in pool.map(one, indices):
            for kind, message, command in findings:
                key = signature(kind, message)
                seen.setdefault(key, []).append((path, message, command))
    for key, cases in sorted(seen.items()):
        path, message, command = cases[0]
        saved = os.path.join(args.work, "findings", os.path.basename(path))
        shutil.copy(path, saved)
        if args.reduce:
            checker.reduce(saved, key)
        print("FINDING (%d kernels): %s\n  %s\n  kernel: %s\n%s" % (
            len(cases), key, " ".join(command), saved,
            "\n".join("    " + l for l in message.splitlines()[:12])))
    print("check_kernels: %d kernels (seed %d, from %d), %d compilations, %d findings"
          " in %d distinct messages, %d skipped (no libdevice), %.0f s" % (
              args.count, args.seed, args.first, args.count * len(ARCHS),
              sum(len(c) for c in seen.values()), len(seen), checker.skipped,
              time.monotonic() - start))
    return 1 if seen else 0


if __name__ == "__main__":
    sys.exit(main())
