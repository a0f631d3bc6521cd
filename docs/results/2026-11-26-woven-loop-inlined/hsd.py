# Disassembles the hex bytes HotSpot prints with -XX:+PrintAssembly when no hsdis plugin loads
# (the Debian hsdis package exports the pre-JDK 13 entry point only). Needs: pip install capstone.
# Usage: python3 hsd.py print-assembly-output.txt c2 > out.s  (run it from outside its directory)
import sys, re, capstone
md = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
text = open(sys.argv[1]).read().split('\n')
want = sys.argv[2] if len(sys.argv) > 2 else 'c2'
i = 0
out = []
while i < len(text):
    l = text[i]
    if l.startswith('Compiled method (') :
        hdr = l; i += 1
        if '(%s)' % want not in hdr:
            continue
        print('#####', hdr)
        code = bytearray(); base = None; notes = {}
        while i < len(text) and not text[i].startswith('Compiled method (') and not text[i].startswith('[Exception Handler]') and not text[i].startswith('[Stub Code]'):
            t = text[i]
            m = re.match(r'\s*0x([0-9a-f]+): (.*)$', t)
            if m:
                addr = int(m.group(1), 16); rest = m.group(2)
                if rest.startswith(';'):
                    notes.setdefault(addr, []).append(rest.strip())
                    j = i + 1
                    while j < len(text) and re.match(r'^\s+;', text[j]) and not re.match(r'\s*0x', text[j]):
                        notes[addr].append(text[j].strip()); j += 1
                    i = j; continue
                else:
                    hx = rest.replace('|', ' ').split()
                    if all(re.fullmatch(r'[0-9a-f]{2,8}', h) for h in hx):
                        if base is None: base = addr
                        if addr != base + len(code):
                            code.extend(b'\x00' * max(0, addr - base - len(code)))
                        for h in hx:
                            code.extend(bytes.fromhex(h))
            i += 1
        if base is None: continue
        for ins in md.disasm(bytes(code), base):
            for n in notes.get(ins.address, []):
                if n.startswith(';*') or '- ' in n or 'runtime_call' in n or 'static' in n or 'optimized' in n:
                    print('      ', n[:150])
            print('  %x: %-8s %s' % (ins.address, ins.mnemonic, ins.op_str))
        continue
    i += 1
