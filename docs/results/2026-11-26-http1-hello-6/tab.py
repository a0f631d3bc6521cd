import json, glob, sys, statistics as st
# tab.py LABEL:DIR ... -> markdown rows; pooled medians per label
pool = {}
print("| run (UTC, load at start → end) | jar | round | netty req/s | httpd-fiber req/s | ÷ netty | netty CPU µs/req | httpd CPU µs/req | netty's ÷ httpd's | server CPU % (netty / httpd) | wrk CPU % (netty / httpd) | JIT % (netty / httpd) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for arg in sys.argv[1:]:
    label, d, note = (arg.split(':') + [''])[:3]
    j = json.load(open(glob.glob(d + '/*/results.json')[0]))
    cells = j['cells']
    lb = j['loadBefore'].split('load average: ')[1].split(',')[0]; la = j['loadAfter'].split('load average: ')[1].split(',')[0]
    first = True
    for r in sorted({c['round'] for c in cells}):
        n = next(c for c in cells if c['round'] == r and c['variant'] == 'netty')
        h = next(c for c in cells if c['round'] == r and c['variant'] == 'httpd-fiber')
        rr = h['windowRps'] / n['windowRps']; cr = n['serverCpuMicrosPerRequest'] / h['serverCpuMicrosPerRequest']
        if not note.strip().startswith("¹"):
            pool.setdefault((label, n['connections']), []).append((rr, cr, n['serverCpuMicrosPerRequest'], h['serverCpuMicrosPerRequest']))
        run = f"{j['loadBefore'][:5]}–{j['loadAfter'][:5]} ({lb} → {la}){note}" if first else ""
        first = False
        print(f"| {run} | {label if r == 1 else ''} | {r} | {n['windowRps']:,.0f} | {h['windowRps']:,.0f} | {rr:.3f} | {n['serverCpuMicrosPerRequest']:.2f} | {h['serverCpuMicrosPerRequest']:.2f} | {cr:.3f} | {n['serverCpuPercent']:.1f} / {h['serverCpuPercent']:.1f} | {n['wrkCpuPercent']:.1f} / {h['wrkCpuPercent']:.1f} | {n['jitCpuPercent']:.2f} / {h['jitCpuPercent']:.2f} |")
print()
for k, v in pool.items():
    print(f"- {k[0]} at {k[1]:,} connections, {len(v)} rounds: requests/s ratio median {st.median(x[0] for x in v):.3f} ({min(x[0] for x in v):.3f}–{max(x[0] for x in v):.3f}), CPU ratio median {st.median(x[1] for x in v):.3f} ({min(x[1] for x in v):.3f}–{max(x[1] for x in v):.3f}), CPU µs/req median netty {st.median(x[2] for x in v):.2f}, httpd {st.median(x[3] for x in v):.2f}")
