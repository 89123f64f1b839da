#!/usr/bin/env python3
"""Compile every case of the porting corpus (cases.py) with tilec, unmodified.

For each case and architecture this runs

    tilec kernels/FILE --arch ARCH --kernel KERNEL --signature SIG -D NAME=VALUE ...
          --num-warps W --num-stages S -o OUT/ARCH/CASE.ptx

checks that the metadata JSON lists the runtime parameters the case expects, in order,
and assembles the PTX with ptxas when it is installed. One line per compilation, a
summary, and OUT/compile_results.json for docs/porting.md and run_device.py.

Cases with `expect_fail` report XFAIL when tilec fails with that message, and XPASS
(a failure: update cases.py) once they compile. The exit status is 1 when anything
else fails.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import cases as registry  # noqa: E402


def find_ptxas(explicit):
    if explicit:
        return explicit
    found = shutil.which("ptxas")
    if found:
        return found
    fallback = Path("/usr/local/cuda/bin/ptxas")
    return str(fallback) if fallback.exists() else None


def tilec_command(tilec, case, arch, ptx_path):
    cmd = [tilec, str(HERE / "kernels" / case.file), "--arch", arch, "--kernel", case.kernel,
           "--signature", registry.signature(case)]
    for name, value in registry.defines(case):
        cmd += ["-D", f"{name}={value}"]
    cmd += ["--num-warps", str(case.num_warps), "--num-stages", str(case.num_stages), "-o", str(ptx_path)]
    return cmd


def run(cmd, timeout):
    """subprocess.run, retrying while the binary is being replaced by a build."""
    for attempt in range(4):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except OSError as e:  # ETXTBSY or a missing file while a build relinks it
            if attempt == 3:
                raise
            time.sleep(10)
            last = e
    raise last  # pragma: no cover


def first_error(text):
    lines = [l for l in text.splitlines() if l.strip()]
    for line in lines:
        if "error:" in line:
            return line.strip()
    return lines[0].strip() if lines else "(no output)"


def check_metadata(case, json_path):
    """The metadata's parameters must be the case's runtime arguments, in order."""
    meta = json.loads(Path(json_path).read_text())
    kernels = {k["name"]: k for k in meta["kernels"]}
    if case.kernel not in kernels:
        return f"metadata has no kernel {case.kernel} (has {', '.join(kernels)})", None
    k = kernels[case.kernel]
    # A host tensor descriptor's parts stand for its one argument.
    got = [p.get("descriptor", p["name"]) for p in k["params"]
           if "descriptor" not in p or "block_shape" in p]
    want = [a.name for a in case.args if not isinstance(a, registry.NoneArg)]
    if got != want:
        return f"registry mismatch: kernel parameters {got}, cases.py lists {want}", None
    if k["num_warps"] != case.num_warps:
        return f"num_warps {k['num_warps']} in the metadata, {case.num_warps} asked", None
    return None, k


def compile_one(tilec, ptxas, out_dir, case, arch, timeout):
    arch_dir = out_dir / arch
    ptx = arch_dir / f"{case.name}.ptx"
    cmd = tilec_command(tilec, case, arch, ptx)
    start = time.monotonic()
    proc = run(cmd, timeout)
    result = {
        "case": case.name, "arch": arch, "file": case.file, "kernel": case.kernel,
        "signature": registry.signature(case), "defines": dict(registry.defines(case)),
        "num_warps": case.num_warps, "num_stages": case.num_stages,
        "command": " ".join(cmd[1:]), "seconds": round(time.monotonic() - start, 2),
        "warnings": [l.strip() for l in proc.stderr.splitlines() if "warning:" in l],
    }
    if proc.returncode != 0:
        error = first_error(proc.stderr or proc.stdout)
        if case.expect_fail and case.expect_fail in (proc.stderr + proc.stdout):
            result.update(status="XFAIL", error=error)
        else:
            result.update(status="FAIL", error=error)
        return result
    problem, meta = check_metadata(case, ptx.with_suffix(".json"))
    if problem:
        result.update(status="FAIL", error=problem)
        return result
    result["shared_bytes"] = meta["shared_bytes"]
    if ptxas:
        p = run([ptxas, f"-arch={arch}", str(ptx), "-o", os.devnull], timeout)
        if p.returncode != 0:
            result.update(status="FAIL", error="ptxas: " + first_error(p.stderr or p.stdout))
            return result
    if case.expect_fail:
        result.update(status="XPASS", error=f"compiles now: remove expect_fail={case.expect_fail!r} from cases.py")
    else:
        result.update(status="OK", error="")
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", default=os.environ.get("TILEC", str(REPO / "build" / "bin" / "tilec")),
                    help="the tilec binary (default: $TILEC or build/bin/tilec)")
    ap.add_argument("--out", default=str(REPO / "build" / "porting"), help="output directory (PTX, JSON, results)")
    ap.add_argument("--arch", default="sm_90,sm_80", help="comma-separated targets (default sm_90,sm_80)")
    ap.add_argument("--ptxas", default=None, help="ptxas binary (default: PATH, then /usr/local/cuda/bin)")
    ap.add_argument("--no-ptxas", action="store_true", help="do not assemble the PTX")
    ap.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=int, default=300, help="seconds per tilec or ptxas run")
    ap.add_argument("--list", action="store_true", help="print each case's tilec command and exit")
    ap.add_argument("cases", nargs="*", help="case names (default: all)")
    args = ap.parse_args(argv)

    selected = registry.select(args.cases)
    archs = [a.strip() for a in args.arch.split(",") if a.strip()]
    out_dir = Path(args.out)
    if args.list:
        for case in selected:
            print(" ".join(tilec_command(args.tilec, case, archs[0], out_dir / archs[0] / f"{case.name}.ptx")))
        return 0
    if not Path(args.tilec).exists():
        print(f"tilec not found: {args.tilec} (pass --tilec or set TILEC)", file=sys.stderr)
        return 2
    ptxas = None if args.no_ptxas else find_ptxas(args.ptxas)
    for arch in archs:
        (out_dir / arch).mkdir(parents=True, exist_ok=True)
    print(f"tilec: {args.tilec}\nptxas: {ptxas or '(not found: PTX not assembled)'}\nout:   {out_dir}")

    jobs = [(case, arch) for case in selected for arch in archs if case.targets(arch)]
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(compile_one, args.tilec, ptxas, out_dir, c, a, args.timeout) for c, a in jobs]
        for fut in futures:  # in submission order, so the output is stable
            try:
                r = fut.result()
            except Exception as e:  # a timeout or a crash of the harness itself
                c, a = jobs[futures.index(fut)]
                r = {"case": c.name, "arch": a, "file": c.file, "kernel": c.kernel, "status": "FAIL",
                     "error": f"{type(e).__name__}: {e}"}
            results.append(r)
            detail = r["error"] if r["status"] != "OK" else f"{r['seconds']:.1f}s, {r.get('shared_bytes', 0)} B shared"
            print(f"{r['status']:5} {r['arch']:6} {r['case']:28} {detail}", flush=True)

    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    print(f"\n{len(results)} compilations of {len(selected)} cases: {summary}")
    (out_dir / "compile_results.json").write_text(json.dumps(results, indent=1) + "\n")
    bad = counts.get("FAIL", 0) + counts.get("XPASS", 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
