import re,sys,statistics,collections
d=collections.defaultdict(list)
for v in ('base','d36'):
  for r in (1,2,3):
    try: f=open(f'{sys.argv[1]}/deep-{v}-{r}.txt')
    except: continue
    for line in f:
      m=re.match(r'^DeepRingBenchmark\.hops\s+(\w+)\s+fiber\s+(\d+)\s+(\d+)\s+avgt\s+\d+\s+([\d.]+)',line)
      if m:
        above,loop,recv,score=m.groups(); d[(v,above,int(loop))].append(float(score))
for v in ('base','d36'):
  for above in ('static','interface'):
    row=[statistics.median(d[(v,above,l)]) if d[(v,above,l)] else float('nan') for l in (1,5,20)]
    print(v, above, ' '.join(f'{x:.1f}' for x in row), '20/1 = %.2f' % (row[2]/row[0]), [ [round(x,1) for x in d[(v,above,l)]] for l in (1,5,20)])
