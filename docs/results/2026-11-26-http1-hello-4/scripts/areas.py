import sys, collections, re
AREAS=[('read syscall (doReadBytes)','NioSocketChannel.doReadBytes'),
('decode: Netty HttpObjectDecoder.decode','HttpObjectDecoder.decode'),
('decode: httpd head scan (RequestDecoder.scanHead)','RequestDecoder.scanHead'),
('encode: HttpObjectEncoder.encode','HttpObjectEncoder.encode'),
('write + flush syscall (NioSocketChannel.doWrite)','NioSocketChannel.doWrite'),
('statistics (LongAdder)','LongAdder.'),
('response object and headers (DefaultHttpHeaders.<init>/add/set)','DefaultHttpHeaders.'),
('select (NioIoHandler.select)','NioIoHandler.select'),
('JIT compiler threads','CompileBroker::compiler_thread_loop'),
('GC threads','G1'),
]
for group in sys.argv[1:]:
    C=collections.Counter(); T=0; R=0
    for p in group.split(','):
        R+=int(re.search(r'requests=(\d+)',open(p+'.summary').read()).group(1))
        for line in open(p+'.collapsed'):
            stack,n=line.rstrip('\n').rsplit(' ',1); n=int(n); T+=n
            for name,key in AREAS:
                if key in stack:
                    C[name]+=n
    print(group, f"{T*1000/R:.2f}")
    for name,_ in AREAS: print(f"{name}\t{C[name]*1000/R:.3f}\t{C[name]*100/T:.1f}%")
