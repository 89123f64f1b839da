#!/usr/bin/env python3
"""Compile kernels from files this repository does not hold, as a held-out check.

Each line of each MANIFEST (JSON lines) names one kernel of a Triton source file beside
it:

    {"file": "ops.py", "kernel": "add_kernel", "signature": "x_ptr=*fp32,n=i32",
     "defines": {"BLOCK": 1024}, "num_warps": 4}

and this runs `tilec FILE --kernel KERNEL --signature SIG -D NAME=VALUE ... --num-warps W
--arch ARCH` for each, printing PASS or FAIL with the first error and a summary. Files
may import each other as in their repository (`-I` is the manifest's directory). The
exit status is 0; the summary line is the result.
"""

import argparse
import concurrent.futures
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def define(value):
    if isinstance(value, bool):
        return "True" if value else "False"
    if value is None:
        return "None"
    return str(value)


def command(tilec, arch, manifest_dir, entry, out):
    cmd = [tilec, str(manifest_dir / entry["file"]), "--arch", arch, "--kernel", entry["kernel"],
           "-I", str(manifest_dir)]
    if entry.get("signature"):
        cmd += ["--signature", entry["signature"]]
    for name, value in (entry.get("defines") or {}).items():
        cmd += ["-D", f"{name}={define(value)}"]
    return cmd + ["--num-warps", str(entry.get("num_warps", 4)), "-o", str(out)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifests", nargs="+", type=Path)
    parser.add_argument("--tilec", default="build/bin/tilec")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("-j", type=int, default=2)
    args = parser.parse_args()
    jobs = []
    for manifest in args.manifests:
        for number, line in enumerate(manifest.read_text().splitlines()):
            if line.strip():
                jobs.append((manifest, number, json.loads(line)))
    with tempfile.TemporaryDirectory() as scratch:
        def run(job):
            manifest, number, entry = job
            out = Path(scratch) / f"{manifest.parent.name}_{number}.ptx"
            try:
                done = subprocess.run(command(args.tilec, args.arch, manifest.parent, entry, out),
                                      capture_output=True, text=True, timeout=600)
                return job, done.returncode, done.stderr
            except subprocess.TimeoutExpired:
                return job, -1, "timed out after 600 s"

        passed = 0
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            for (manifest, number, entry), rc, err in pool.map(run, jobs):
                name = f"{manifest.parent.name}/{entry['file']}:{entry['kernel']}"
                if rc == 0:
                    passed += 1
                    print("PASS", name)
                    continue
                errors = [line for line in err.splitlines() if "error" in line] or err.splitlines()
                print("FAIL", name, "|", errors[0] if errors else f"exit {rc}")
    print(f"{passed}/{len(jobs)} kernels compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
