import sys, collections, re
# attribute each sample to its deepest io/krill frame and the first callee below it (or 'self')
files=sys.argv[1].split(','); top=int(sys.argv[2])
C=collections.Counter(); T=0; R=0
for p in files:
    R+=int(re.search(r'requests=(\d+)',open(p+'.summary').read()).group(1))
    for line in open(p+'.collapsed'):
        stack,n=line.rstrip('\n').rsplit(' ',1); n=int(n); T+=n
        fr=stack.split(';')
        idx=[i for i,f in enumerate(fr) if f.startswith('io/krill/')]
        if not idx: continue
        i=idx[-1]; callee=fr[i+1] if i+1<len(fr) else '(self)'
        C[(re.sub(r'\$\$Lambda.*','$$Lambda',fr[i]),callee)]+=n
print(T,R)
for (k,c),n in C.most_common(top):
    print(f"| {n*100/T:5.2f}% | {n*1000/R:.3f} | `{k}` | `{c}` |")
