##### Compiled method (c2) 664  730       4       io.krill.benchmarks.continuations.PlainLoops::tight (28 bytes)
  7f63ebef7500: mov      dword ptr [rsp - 0x14000], eax
  7f63ebef7507: push     rbp
  7f63ebef7508: sub      rsp, 0x20
  7f63ebef750c: cmp      dword ptr [r15 + 0x20], 0
  7f63ebef7514: jne      0x7f63ebef76aa
  7f63ebef751a: mov      r11, rsi
  7f63ebef751d: mov      ebp, dword ptr [rsi + 0xc]
  7f63ebef7520: test     ebp, ebp
  7f63ebef7522: jbe      0x7f63ebef7662
  7f63ebef7528: lea      r8d, [rbp - 1]
  7f63ebef752c: cmp      r8d, ebp
  7f63ebef752f: jae      0x7f63ebef7669
  7f63ebef7535: mov      r10d, dword ptr [rsi + 0x10]
  7f63ebef7539: cmp      r10d, 0x80000000
  7f63ebef7540: je       0x7f63ebef7652
  7f63ebef7546: mov      r8d, r10d
  7f63ebef7549: shl      r8d, 5
  7f63ebef754d: sub      r8d, r10d
  7f63ebef7550: add      r8d, 7
  7f63ebef7554: movsxd   rax, r8d
  7f63ebef7557: lea      r9d, [rbp - 3]
  7f63ebef755b: mov      edi, 1
  7f63ebef7560: cmp      r9d, 1
  7f63ebef7564: jg       0x7f63ebef75de
  7f63ebef756a: cmp      edi, ebp
  7f63ebef756c: jge      0x7f63ebef759c
  7f63ebef756e: nop      
  7f63ebef7570: mov      r10d, dword ptr [r11 + rdi*4 + 0x10]
  7f63ebef7575: cmp      r10d, 0x80000000
  7f63ebef757c: je       0x7f63ebef765a
  7f63ebef7582: mov      r8d, r10d
  7f63ebef7585: shl      r8d, 5
  7f63ebef7589: sub      r8d, r10d
  7f63ebef758c: add      r8d, 7
  7f63ebef7590: movsxd   r10, r8d
  7f63ebef7593: add      rax, r10
  7f63ebef7596: inc      edi
  7f63ebef7598: cmp      edi, ebp
  7f63ebef759a: jl       0x7f63ebef7570
  7f63ebef759c: add      rsp, 0x20
  7f63ebef75a0: pop      rbp
  7f63ebef75a1: cmp      rsp, qword ptr [r15 + 0x28]
  7f63ebef75a5: ja       0x7f63ebef7694
  7f63ebef75ab: ret      
