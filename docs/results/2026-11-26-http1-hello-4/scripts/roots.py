import sys, collections, re
for group in sys.argv[1:]:
    C=collections.Counter(); T=0; R=0
    for p in group.split(','):
        R+=int(re.search(r'requests=(\d+)',open(p+'.summary').read()).group(1))
        for line in open(p+'.collapsed'):
            stack,n=line.rstrip('\n').rsplit(' ',1); n=int(n); T+=n
            fr=stack.split(';')
            if any('CompileBroker' in f for f in fr): k='JIT compiler threads'
            elif any(f.startswith('G1') or 'GCTaskThread' in f or 'WorkerThread' in f for f in fr): k='GC threads'
            elif any('SingleThreadIoEventLoop.run' in f for f in fr):
                if any('processSelectedKeys' in f for f in fr): k='loop: channel I/O and handlers'
                elif any('runAllTasks' in f or 'runTasks' in f for f in fr): k='loop: tasks'
                else: k='loop: select and other'
            else: k='other (VM, interpreter, ...)'
            C[k]+=n
    print(group, T, R)
    for k,n in sorted(C.items()): print(f"| {k} | {n*100/T:.1f}% | {n*1000/R:.2f} |")
