import sys, collections
# usage: agg.py file [N] : self time by frame (leaf), and inclusive by krill method
f=sys.argv[1]; N=int(sys.argv[2]) if len(sys.argv)>2 else 15
self_=collections.Counter(); incl=collections.Counter(); tot=0
for line in open(f):
    line=line.rstrip('\n')
    if not line: continue
    stack,_,cnt=line.rpartition(' ')
    c=int(cnt); tot+=c
    frames=stack.split(';')
    leaf=frames[-1]
    self_[leaf]+=c
    for fr in set(frames):
        incl[fr]+=c
print("total samples",tot)
print("-- self")
for k,v in self_.most_common(N): print("%6.2f%% %s"%(100*v/tot,k))
print("-- inclusive (krill)")
for k,v in incl.most_common(200):
    if 'krill' in k and N>0:
        print("%6.2f%% %s"%(100*v/tot,k))
