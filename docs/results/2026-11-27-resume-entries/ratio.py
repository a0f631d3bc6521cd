import re,sys,glob,statistics,collections
def parse(f):
    d={}
    for line in open(f):
        m=re.match(r'^(\w+)\.(\w+)\s+(\w+)\s+(\S+)\s+avgt\s+\d+\s+([\d.]+)',line)
        if m:
            b,_,comp,tok,score=m.groups()
            d[(b,tok,comp)]=float(score)
    return d
rows=[('RingBenchmark','1'),('RingBenchmark','64'),('CommsTimeBenchmark','N/A'),('ParkUnparkBenchmark','N/A')]
dirp=sys.argv[1]
new=sys.argv[2] if len(sys.argv)>2 else 'entries'  # vt-<new>-N.txt beside vt-base-N.txt
res=collections.defaultdict(list)
rounds=sorted(int(re.search(r'-(\d+)\.txt$',f).group(1)) for f in glob.glob(f'{dirp}/vt-{new}-*.txt'))
for r in rounds:
    e=parse(f'{dirp}/vt-{new}-{r}.txt'); b=parse(f'{dirp}/vt-base-{r}.txt')
    for (bm,tok) in rows:
        vts=[v for (bb,t,c),v in e.items() if bb==bm and t==tok and c!='fiber']
        if not vts: continue
        vt=min(vts); fe=e[(bm,tok,'fiber')]; fb=b[(bm,tok,'fiber')]
        res[(bm,tok)].append((vt/fe, vt/fb, fe, fb, vt))
        print(f"round {r} {bm} {tok}: VT {vt:.1f}  fiber entries {fe:.1f} ({vt/fe:.2f}x)  fiber before {fb:.1f} ({vt/fb:.2f}x)")
for k,v in res.items():
    print(k, 'median entries', round(statistics.median(x[0] for x in v),2), 'median before', round(statistics.median(x[1] for x in v),2), 'entries/before', round(statistics.median(x[2]/x[3] for x in v),3))
