# Medians per (jar, workload) over every sitting's runs.
import re, sys, statistics as st
rows = {}
for f in sys.argv[1:]:
    for line in open(f):
        m = re.match(r'\S+ (\S+) cpu (\w+) (\w+) median=([\d.]+)', line)
        if m:
            jar, w, comp, v = m.group(1), m.group(2), m.group(3), float(m.group(4))
            rows.setdefault((w, comp, jar), []).append(v)
for k in sorted(rows):
    v = rows[k]
    print(k, 'n=%d median=%.1f' % (len(v), st.median(v)), v)
