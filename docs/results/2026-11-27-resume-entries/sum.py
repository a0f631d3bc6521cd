import sys,collections,statistics,os
BASE=os.environ.get('BASE','jar-base.jar@2')
d=collections.defaultdict(lambda: collections.defaultdict(list))
c=None
for f in sys.argv[1:]:
  for line in open(f):
    if line.startswith('==='):
        c=line.split()[1].split('/')[-1]
    elif 'avgt' in line:
        parts=line.split(); d[parts[0]][c].append(float(parts[-4]))
for b,cs in d.items():
    base=statistics.median(cs.get(BASE,[float('nan')]))
    for c,v in sorted(cs.items()):
        m=statistics.median(v)
        print(f"{b:32s} {c:18s} n={len(v)} median={m:8.2f} vs base {m/base:5.3f}  [{', '.join(f'{x:.1f}' for x in v)}]")
