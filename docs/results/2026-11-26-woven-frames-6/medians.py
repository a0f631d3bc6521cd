#!/usr/bin/env python3
"""Median and spread (min-max of the passes' medians) per row and jar over the JSON files of abj.sh.
Usage: medians.py DIR"""
import glob, json, os, statistics, sys
from collections import defaultdict
rows = defaultdict(lambda: defaultdict(list))  # row -> jar -> [pass medians]
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    jar = os.path.basename(f).split("-")[1]
    for r in json.load(open(f)):
        params = ",".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items())
                          if k not in ("competitor", "tokens", "receiveDepth", "callDepth", "inlining"))
        name = r["benchmark"].rsplit(".", 2)[-2] + (" " + params if params else "")
        its = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        rows[name][jar].append(statistics.median(its))
jars = sorted({j for r in rows.values() for j in r})
print("| row | " + " | ".join(f"{j} (median of passes; range)" for j in jars) + " |")
print("|---|" + "---|" * len(jars))
for name in sorted(rows):
    cells = []
    for j in jars:
        v = rows[name].get(j, [])
        cells.append(f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f}, n={len(v)})" if v else "—")
    print(f"| {name} | " + " | ".join(cells) + " |")
