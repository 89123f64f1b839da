"""Compiles one kernel with several --num-warps values to one -o path from
many processes at once, round after round, and checks after every round that
the PTX and the metadata beside it come from the same compilation (the
metadata's num_warps matches the PTX's .reqntid and its ptx_hash the PTX
bytes) and that no temporary file is left. Prints 'ok' or what went wrong."""
import argparse
import json
import os
import re
import subprocess
import sys


def fnv1a64(data):
    value = 0xCBF29CE484222325
    for byte in data:
        value ^= byte
        value = (value * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "fnv1a64:%016x" % value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilec", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ptx_path = os.path.join(args.out, "k.ptx")
    json_path = os.path.join(args.out, "k.json")
    warps = [1, 2, 4, 8, 16, 32, 4, 8]
    for round_index in range(args.rounds):
        procs = [subprocess.Popen([args.tilec, args.source, "-o", ptx_path,
                                   "--num-warps", str(warps[i % len(warps)])],
                                  stderr=subprocess.PIPE)
                 for i in range(args.processes)]
        for proc in procs:
            _, err = proc.communicate()
            if proc.returncode != 0:
                print("FAIL: tilec exited %d: %s" % (proc.returncode, err.decode()))
                return 1
        with open(ptx_path, "rb") as f:
            ptx = f.read()
        with open(json_path) as f:
            metadata = json.load(f)
        kernel = metadata["kernels"][0]
        reqntid = int(re.search(rb"\.reqntid (\d+)", ptx).group(1))
        if reqntid != 32 * kernel["num_warps"]:
            print("FAIL: round %d: PTX .reqntid %d beside num_warps %d" %
                  (round_index, reqntid, kernel["num_warps"]))
            return 1
        if metadata.get("ptx_hash") != fnv1a64(ptx):
            print("FAIL: round %d: ptx_hash %s, the PTX hashes to %s" %
                  (round_index, metadata.get("ptx_hash"), fnv1a64(ptx)))
            return 1
        leftovers = [name for name in os.listdir(args.out) if "tmp" in name]
        if leftovers:
            print("FAIL: temporary files left: %s" % leftovers)
            return 1
    print("ok: %d rounds of %d processes" % (args.rounds, args.processes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
