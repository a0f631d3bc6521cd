import sys, collections, re
def load(f):
    self_=collections.Counter(); incl=collections.Counter(); total=0
    for line in open(f):
        stack, n = line.rstrip('\n').rsplit(' ',1); n=int(n); total+=n
        frames=[re.sub(r'\$\$Lambda.*','$$Lambda',x) for x in stack.split(';')]
        self_[frames[-1]]+=n
        for fr in set(frames): incl[fr]+=n
    return self_, incl, total
def req(prefix):
    s=open(prefix+'.summary').read(); return int(re.search(r'requests=(\d+)',s).group(1))
mode=sys.argv[1]; fa=sys.argv[2].split(','); fb=sys.argv[3].split(','); top=int(sys.argv[4]) if len(sys.argv)>4 else 40
def merged(files):
    S=collections.Counter(); I=collections.Counter(); T=0; R=0
    for p in files:
        s,i,t=load(p+'.collapsed'); S+=s; I+=i; T+=t; R+=req(p)
    return S,I,T,R
Sa,Ia,Ta,Ra=merged(fa); Sb,Ib,Tb,Rb=merged(fb)
print(f"A: {Ta} samples, {Ra} requests, {Ta*1000/Ra:.2f} us/req | B: {Tb} samples, {Rb} requests, {Tb*1000/Rb:.2f} us/req")
if mode=='incl-krill':
    rows=[k for k in Ia if 'io/krill' in k]; rows.sort(key=lambda k:-Ia[k])
    for k in rows[:top]: print(f"| {Ia[k]*100/Ta:5.1f}% | {Sa[k]*100/Ta:5.1f}% | {Ia[k]*1000/Ra:5.2f} | `{k}` |")
    sys.exit()
D = Sa if mode=='self' else Ia; E = Sb if mode=='self' else Ib
rows=[(D[k]*1000/Ra - E[k]*1000/Rb, k) for k in set(D)|set(E)]
rows.sort(key=lambda r:-abs(r[0]))
for d,k in rows[:top]:
    print(f"| {d:+.3f} | {D[k]*100/Ta:5.2f}% | {D[k]*1000/Ra:.3f} | {E[k]*100/Tb:5.2f}% | {E[k]*1000/Rb:.3f} | `{k}` |")
