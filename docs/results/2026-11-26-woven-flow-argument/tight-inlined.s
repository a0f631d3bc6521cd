##### woven ABI 6: TightLoopBenchmark::lambda$setUp$0 with tight and step inlined, the loop (first version C2 made; a second, for the path through the restore, follows it in the method)
  7efe87efa1ea: nop      word ptr [rax + rax]
  7efe87efa1f0: mov      r11d, eax
  7efe87efa1f3: shl      r11d, 5
  7efe87efa1f7: sub      r11d, eax
  7efe87efa1fa: add      r11d, 7
  7efe87efa1fe: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7efe87efa204: jl       0x7efe87efa4c1
  7efe87efa20a: mov      rsi, qword ptr [r15 + 0x30]
  7efe87efa20e: movsxd   r11, r11d
  7efe87efa211: add      rcx, r11
       ;*goto {reexecute=1 rethrow=0 return_oop=0}
       ; - (reexecute) io.krill.benchmarks.continuations.WovenLoops::tight@47 (line 25)
       ; - io.krill.benchmarks.continuations.TightLoopBenchmark::lambda$setUp$0@15 (line 48)
  7efe87efa214: inc      r9d
  7efe87efa217: test     dword ptr [rsi], eax
  7efe87efa219: cmp      r9d, edx
  7efe87efa21c: jge      0x7efe87efa4b9
  7efe87efa222: cmp      r9d, edx
  7efe87efa225: jae      0x7efe87efa7d1
  7efe87efa22b: mov      eax, dword ptr [r8 + r9*4 + 0x10]
  7efe87efa230: cmp      eax, 0x80000000
