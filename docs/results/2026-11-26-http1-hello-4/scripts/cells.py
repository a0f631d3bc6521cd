import json,sys
for f in sys.argv[1:]:
    d=json.load(open(f)); print(f, d['loadBefore'][-20:], '|', d['loadAfter'][-20:])
    by={}
    for c in d['cells']:
        by.setdefault(c['round'],{})[c['variant']]=c
        print(f"  r{c['round']} {c['variant']:12s} rps {c['rps']:9.0f} wrk {c.get('wrkRps',0):9.0f} cpu% {c['serverCpuPercent']:6.1f} cpu_us/req {c['serverCpuPercent']*1e4/c['rps']:6.2f}")
    for r,v in sorted(by.items()):
        a,b=v['httpd-fiber'],v['netty']
        print(f"  r{r} ratio harness {a['rps']/b['rps']:.3f} wrk {a['wrkRps']/b['wrkRps']:.3f}")
