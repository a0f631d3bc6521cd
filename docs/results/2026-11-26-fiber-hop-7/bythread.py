import sys,collections
# usage: bythread.py file cat1=substr cat2=substr ... (priority order; first that appears anywhere in the stack)
cats=[a.split('=',1) for a in sys.argv[2:]]
c=collections.Counter();tot=0
sub=collections.defaultdict(collections.Counter)
selfc=collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    s,_,n=line.rstrip().rpartition(' ');n=int(n);tot+=n
    fr=s.split(';')
    th=fr[0].split(' tid=')[0].strip('[]')
    th=''.join(ch for ch in th if not ch.isdigit())
    c[th]+=n
    key='other'
    for name,pat in cats:
        if any(pat in x for x in fr): key=name;break
    sub[th][key]+=n
    selfc[th][fr[-1]]+=n
for k,v in c.most_common(3):
    print("%6.2f%% %s"%(100*v/tot,k))
    for kk,vv in sub[k].most_common(20): print("      %6.2f%% %s"%(100*vv/tot,kk))
    print("    self:")
    for kk,vv in selfc[k].most_common(25): print("      %6.2f%% %s"%(100*vv/tot,kk))
