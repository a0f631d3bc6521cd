import re,collections,sys
import statistics as st
f=sys.argv[1]; A=sys.argv[2]; B=sys.argv[3]
d=collections.defaultdict(lambda: collections.defaultdict(list))
jar=None
for l in open(f):
    if l.startswith('==='): jar=l.split()[1]; continue
    m=re.match(r'(.*?)\s+avgt\s+\d+\s+([\d.]+)',l)
    if m: d[' '.join(m.group(1).split())][jar].append(float(m.group(2)))
for k,v in d.items():
    a=v.get(A,[]);b=v.get(B,[])
    n=min(len(a),len(b))
    r=[b[i]/a[i] for i in range(n)]
    print(k, '|',A,[round(x,1) for x in a],B,[round(x,1) for x in b],'ratios',[round(x,2) for x in r],'median',round(st.median(r),3) if r else None)
