#!/usr/bin/env python3
"""Per row and jar: the median of each pass's iterations, then the median and range over the
passes, and new / base. Usage: medians.py DIR [SUFFIX] (the JSON files of deep.sh and calls.sh,
named frames-<jar>-<time>-<kind>.json; SUFFIX picks a kind, e.g. deep)."""
import glob, json, os, statistics, sys
from collections import defaultdict
rows = defaultdict(lambda: defaultdict(list))  # row -> jar -> [pass medians]
suffix = sys.argv[2] if len(sys.argv) > 2 else ""
for f in sorted(glob.glob(os.path.join(sys.argv[1], f"*{suffix}.json"))):
    jar = os.path.basename(f).split("-")[1]
    for r in json.load(open(f)):
        params = ",".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items())
                          if k not in ("tokens", "receiveDepth", "callDepth", "inlining"))
        name = r["benchmark"].rsplit(".", 2)[-2] + (" " + params if params else "")
        its = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        rows[name][jar].append(statistics.median(its))
jars = sorted({j for r in rows.values() for j in r})
print("| row | " + " | ".join(f"{j}: median of passes (range, passes)" for j in jars) + " | new ÷ base |")
print("|---|" + "---|" * (len(jars) + 1))
for name in sorted(rows):
    cells = []
    med = {}
    for j in jars:
        v = rows[name].get(j, [])
        if v:
            med[j] = statistics.median(v)
        cells.append(f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f}, {len(v)})" if v else "—")
    ratio = f"{med['new'] / med['base']:.2f}" if "new" in med and "base" in med else "—"
    print(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")
