#!/usr/bin/env python3
"""Interleaved A/B timing of whole commands: each round runs every command once, in turn, so a
noisy minute hits them all alike; prints each median and its ratio to the first command's.

    scripts/ab-bench.py RUNS "CMD_A …" "CMD_B …" [...]

The figures per change in the notes come from it (e.g. two builds of `petspot photo prepare`).
"""
import shlex
import statistics
import subprocess
import sys
import time

runs = int(sys.argv[1])
commands = sys.argv[2:]
if runs < 1 or not commands:
    sys.exit(__doc__)
times = [[] for _ in commands]
for command in commands:  # warm-up, and a failing command stops here
    subprocess.run(shlex.split(command), check=True, stdout=subprocess.DEVNULL)
for _ in range(runs):
    for i, command in enumerate(commands):
        start = time.perf_counter()
        subprocess.run(shlex.split(command), check=True, stdout=subprocess.DEVNULL)
        times[i].append(time.perf_counter() - start)
base = statistics.median(times[0])
for command, samples in zip(commands, times):
    median = statistics.median(samples)
    print(f"{median * 1000:8.2f} ms  x{median / base:.3f}  {command}")
