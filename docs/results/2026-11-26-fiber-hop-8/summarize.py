import sys, re, collections, statistics
# usage: summarize.py ab.txt : per mode, benchmark and jar, the JMH scores of each run and the ratio of means (new / base; base = the first jar run)
mode=None; jar=None; bench=None; first=None
scores=collections.defaultdict(list)   # (mode, bench, jar) -> [score]
iters=collections.defaultdict(list)
for line in open(sys.argv[1]):
    if line.startswith('### '): mode=line[4:].strip()
    elif line.startswith('=== '):
        jar=line.split()[1]; first=first or jar
    elif line.startswith('# Benchmark:'): bench=line.split()[-1].split('.')[-2]
    elif line.startswith('Iteration'): iters[(mode,bench,jar)].append(float(line.split()[2]))
    else:
        m=re.match(r'(\w+)\.(\w+)\s+(\w+)\s.*avgt\s+\d+\s+([\d.,]+)\s',line)
        if m: scores[(mode,m.group(1),jar)].append(float(m.group(4).replace(',','')))
jars=sorted({k[2] for k in scores})
for mode in ['pinned','two CPUs','g1']:
    for b in sorted({k[1] for k in scores if k[0]==mode}):
        row=[]
        for j in jars:
            s=scores.get((mode,b,j),[]); it=iters.get((mode,b,j),[])
            row.append((j,s,statistics.median(it) if it else float('nan')))
        base=[r for r in row if r[0]==first]; new=[r for r in row if r[0]!=first]
        def mean(x): return sum(x)/len(x) if x else float('nan')
        print("%-9s %-20s " % (mode,b) + "  ".join("%s: %s (median it %.1f)" % (j.split('/')[-1], ", ".join("%.1f"%v for v in s), md) for j,s,md in row)
              + ("  new/base means %.3f, medians %.3f" % (mean(new[0][1])/mean(base[0][1]), new[0][2]/base[0][2]) if base and new else ""))
