import json, glob, sys, statistics as st
pool = {}
for d in sys.argv[1:]:
    j = json.load(open(glob.glob(d + '/*/results.json')[0]))
    cells = j['cells']
    rounds = sorted({c['round'] for c in cells})
    conns = cells[0]['connections']
    print(f"{d}: {j['loadBefore'].split('load average: ')[1]} -> {j['loadAfter'].split('load average: ')[1]}; {j['loadBefore'][:8]}-{j['loadAfter'][:8]}")
    for r in rounds:
        n = next(c for c in cells if c['round'] == r and c['variant'] == 'netty')
        h = next(c for c in cells if c['round'] == r and c['variant'] == 'httpd-fiber')
        rr = h['windowRps'] / n['windowRps']; cr = n['serverCpuMicrosPerRequest'] / h['serverCpuMicrosPerRequest']
        key = (d.split('-')[-2], conns)
        pool.setdefault(key, []).append((rr, cr, n['serverCpuMicrosPerRequest'], h['serverCpuMicrosPerRequest']))
        print(f"| {r} | {n['windowRps']:,.0f} | {h['windowRps']:,.0f} | {rr:.3f} | {n['serverCpuMicrosPerRequest']:.2f} | {h['serverCpuMicrosPerRequest']:.2f} | {cr:.3f} | {n['serverCpuPercent']:.1f} / {h['serverCpuPercent']:.1f} | {n['wrkCpuPercent']:.1f} / {h['wrkCpuPercent']:.1f} | {n['jitCpuPercent']:.2f} / {h['jitCpuPercent']:.2f} |")
for k, v in pool.items():
    print(k, len(v), 'median rps ratio %.3f' % st.median(x[0] for x in v), 'median cpu ratio %.3f' % st.median(x[1] for x in v),
          'median netty us %.2f httpd us %.2f' % (st.median(x[2] for x in v), st.median(x[3] for x in v)),
          'range rps %.3f-%.3f cpu %.3f-%.3f' % (min(x[0] for x in v), max(x[0] for x in v), min(x[1] for x in v), max(x[1] for x in v)))
