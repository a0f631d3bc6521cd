# usage: ab.py base-config file...  (configs named as ab.sh prints them, e.g. jar-base.jar@1)
# per row and configuration: the median over the passes, its ratio to the base's median, and
# the median of the per-pass ratios (each pass runs every configuration once, order alternated)
import sys, collections, statistics
base = sys.argv[1]
d = collections.defaultdict(lambda: collections.defaultdict(list))
c = None
for f in sys.argv[2:]:
    for line in open(f):
        if line.startswith('==='):
            c = line.split()[1].split('/')[-1]
        elif 'avgt' in line:
            p = line.split()
            key = p[0] + (' ' + p[2] if p[2] != 'N/A' else '')
            d[key][c].append(float(p[-4]))
for row, cs in d.items():
    b = cs[base]
    for cfg, v in sorted(cs.items()):
        if cfg == base:
            print(f"{row:34s} {cfg:18s} n={len(v):2d} median {statistics.median(v):7.1f}")
            continue
        paired = [x / y for x, y in zip(v, b)]
        print(f"{row:34s} {cfg:18s} n={len(v):2d} median {statistics.median(v):7.1f}  ÷ base {statistics.median(v) / statistics.median(b):.3f}"
              f"  paired median {statistics.median(paired):.3f} ({min(paired):.2f}-{max(paired):.2f})")
