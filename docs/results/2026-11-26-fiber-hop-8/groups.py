import sys, collections
# usage: groups.py collapsed.csv... : self samples of the carrier thread grouped by part of a hop, in %
def group(leaf):
    if leaf.startswith('io/krill/fibers/Stack.run') or leaf.startswith('io/krill/fibers/Stack.bind'): return 'Stack.runStack + bind'
    if leaf.startswith('io/krill/fibers/Stack.'): return 'woven frames: Stack ABI (reserve/open/takeRef/current)'
    if leaf.startswith('io/krill/benchmarks/') and 'jmh' not in leaf: return 'woven frames: benchmark methods and lambdas'
    if leaf.startswith('io/krill/fibers/Channel') or leaf.startswith('io/krill/fibers/Waiter'): return 'Channel + Waiter'
    if leaf.startswith('io/krill/fibers/LocalRunQueue'): return 'run queue'
    if leaf.startswith('io/krill/fibers/Fiber') or leaf.startswith('io/krill/fibers/CarrierThread'): return 'Fiber (park/unpark/slice)'
    if 'VarHandle' in leaf: return 'VarHandle stores (Fiber/Channel)'
    if leaf.startswith('io/netty'): return 'Netty (inEventLoop, loop)'
    return 'other (kernel, JMH thread, GC, JIT)'
for f in sys.argv[1:]:
    g=collections.Counter(); tot=0
    for line in open(f):
        stack,_,c=line.rstrip('\n').rpartition(' ')
        if not stack: continue
        c=int(c); tot+=c; g[group(stack.split(';')[-1])]+=c
    print(f)
    for k,v in g.most_common(): print("  %5.1f%%  %s"%(100*v/tot,k))
