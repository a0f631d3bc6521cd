##### Compiled method (c2) 1099  753       4       io.krill.benchmarks.continuations.TightLoopBenchmark::lambda$setUp$2 (87 bytes)
  7fa28befa780: nop      
  7fa28befa782: mov      r10d, dword ptr [rsi + 8]
  7fa28befa786: cmp      r10d, dword ptr [rax + 8]
  7fa28befa78a: jne      0x7fa28b9860e0
  7fa28befa790: mov      dword ptr [rsp - 0x14000], eax
  7fa28befa797: push     rbp
  7fa28befa798: sub      rsp, 0x60
  7fa28befa79c: cmp      dword ptr [r15 + 0x20], 0
  7fa28befa7a4: jne      0x7fa28befb7d2
  7fa28befa7aa: mov      qword ptr [rsp + 0x20], rsi
  7fa28befa7af: mov      r10, qword ptr [r15 + 0x468]
  7fa28befa7b6: mov      rbp, qword ptr [r10]
  7fa28befa7b9: mov      r11d, dword ptr [rbp + 8]
  7fa28befa7bd: cmp      r11d, 0x105ad78
  7fa28befa7c4: jne      0x7fa28befb598
  7fa28befa7ca: mov      r10d, dword ptr [rbp + 0x80]
  7fa28befa7d1: mov      r11d, dword ptr [r12 + r10*8 + 0x18]
  7fa28befa7d6: lea      rbp, [r12 + r10*8]
  7fa28befa7da: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7fa28befa7e0: jg       0x7fa28befa850
  7fa28befa7e2: mov      ebx, dword ptr [rdx + 0xc]
  7fa28befa7e5: test     ebx, ebx
  7fa28befa7e7: jbe      0x7fa28befaf60
  7fa28befa7ed: lea      r11d, [rbx - 1]
  7fa28befa7f1: cmp      r11d, ebx
  7fa28befa7f4: jae      0x7fa28befb130
  7fa28befa7fa: xor      eax, eax
  7fa28befa7fc: xor      r11d, r11d
  7fa28befa7ff: xor      ecx, ecx
  7fa28befa801: nop      dword ptr [rax + rax]
  7fa28befa809: nop      dword ptr [rax]
  7fa28befa810: movsxd   r8, r11d
  7fa28befa813: mov      r9d, dword ptr [rdx + r8*4 + 0x10]
  7fa28befa818: cmp      r9d, 0x80000000
  7fa28befa81f: je       0x7fa28befac3b
  7fa28befa825: mov      esi, r9d
  7fa28befa828: shl      esi, 5
  7fa28befa82b: sub      esi, r9d
  7fa28befa82e: add      esi, 7
  7fa28befa831: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7fa28befa837: jl       0x7fa28befae18
  7fa28befa83d: movsxd   r8, esi
  7fa28befa840: add      rcx, r8
  7fa28befa843: inc      r11d
  7fa28befa846: cmp      r11d, ebx
  7fa28befa849: jl       0x7fa28befa810
  7fa28befa84b: jmp      0x7fa28befaae6
  7fa28befa850: mov      r8d, dword ptr [r12 + r10*8 + 0xc]
  7fa28befa855: lea      ebx, [r8 - 1]
  7fa28befa859: mov      r9d, dword ptr [r12 + r11*8 + 0xc]
  7fa28befa85e: cmp      ebx, r9d
  7fa28befa861: jae      0x7fa28befaf67
  7fa28befa867: mov      esi, dword ptr [r12 + r10*8 + 0x10]
  7fa28befa86c: mov      eax, dword ptr [r12 + r10*8 + 0x1c]
  7fa28befa871: lea      r13d, [rsi - 1]
  7fa28befa875: mov      ecx, dword ptr [r12 + rax*8 + 0xc]
  7fa28befa87a: mov      qword ptr [rsp], rbp
  7fa28befa87e: mov      dword ptr [rsp + 8], r10d
  7fa28befa883: lea      rdi, [r12 + r11*8]
  7fa28befa887: mov      r14, qword ptr [rdi + r8*8 + 8]
  7fa28befa88c: cmp      r13d, ecx
  7fa28befa88f: jae      0x7fa28befaf88
  7fa28befa895: lea      rdx, [r12 + rax*8]
  7fa28befa899: mov      ebp, dword ptr [rdx + rsi*4 + 0xc]
  7fa28befa89d: mov      dword ptr [rdx + rsi*4 + 0xc], r12d
  7fa28befa8a2: cmp      ebp, 0xd1046b6e
  7fa28befa8a8: jne      0x7fa28befb1e4
  7fa28befa8ae: mov      r10, r14
  7fa28befa8b1: shr      r10, 0x10
  7fa28befa8b5: and      r10, 0xffffff
  7fa28befa8bc: mov      ebp, r10d
  7fa28befa8bf: mov      r10d, esi
  7fa28befa8c2: sub      r10d, ebp
  7fa28befa8c5: mov      r13d, r10d
  7fa28befa8c8: mov      ebx, dword ptr [rsp + 8]
  7fa28befa8cc: mov      dword ptr [r12 + rbx*8 + 0x10], r10d
  7fa28befa8d1: movzx    r10d, r14w
  7fa28befa8d5: shr      r14, 0x28
  7fa28befa8d9: mov      r10d, r10d
  7fa28befa8dc: mov      esi, r14d
  7fa28befa8df: sub      r8d, esi
  7fa28befa8e2: mov      dword ptr [r12 + rbx*8 + 0xc], r8d
  7fa28befa8e7: test     r10d, r10d
  7fa28befa8ea: jne      0x7fa28befb150
  7fa28befa8f0: lea      ebx, [r8 - 1]
  7fa28befa8f4: cmp      ebx, r9d
  7fa28befa8f7: jae      0x7fa28befafbc
  7fa28befa8fd: mov      r14, qword ptr [rdi + r8*8 + 8]
  7fa28befa902: lea      r10d, [r13 - 1]
  7fa28befa906: cmp      r10d, ecx
  7fa28befa909: jae      0x7fa28befafdc
  7fa28befa90f: mov      ebp, dword ptr [rdx + r13*4 + 0xc]
  7fa28befa914: mov      dword ptr [rdx + r13*4 + 0xc], r12d
  7fa28befa919: cmp      ebp, 0xd1046b5f
  7fa28befa91f: jne      0x7fa28befb20c
  7fa28befa925: mov      r10, r14
  7fa28befa928: shr      r10, 0x10
  7fa28befa92c: and      r10, 0xffffff
  7fa28befa933: mov      esi, r10d
  7fa28befa936: mov      r10d, r13d
  7fa28befa939: sub      r10d, esi
  7fa28befa93c: vmovd    xmm0, r10d
  7fa28befa941: mov      ebx, dword ptr [rsp + 8]
  7fa28befa945: mov      dword ptr [r12 + rbx*8 + 0x10], r10d
  7fa28befa94a: movzx    r10d, r14w
  7fa28befa94e: shr      r14, 0x28
  7fa28befa952: mov      r10d, r10d
  7fa28befa955: mov      esi, r14d
  7fa28befa958: sub      r8d, esi
  7fa28befa95b: mov      dword ptr [r12 + rbx*8 + 0xc], r8d
  7fa28befa960: test     r10d, r10d
  7fa28befa963: jne      0x7fa28befb16c
  7fa28befa969: lea      ebp, [r8 + 1]
  7fa28befa96d: cmp      ebp, r9d
  7fa28befa970: jae      0x7fa28befb010
  7fa28befa976: movsxd   r10, r8d
  7fa28befa979: mov      r10, qword ptr [rdi + r10*8 + 0x18]
  7fa28befa97e: mov      ebx, r10d
  7fa28befa981: mov      dword ptr [rsp + 0x10], ebx
  7fa28befa985: vmovd    ebx, xmm0
  7fa28befa989: cmp      ebx, ecx
  7fa28befa98b: jae      0x7fa28befb044
  7fa28befa991: mov      r10d, ebx
  7fa28befa994: mov      ebp, dword ptr [rdx + r10*4 + 0x10]
  7fa28befa999: mov      dword ptr [rdx + r10*4 + 0x10], r12d
  7fa28befa99e: mov      r10d, dword ptr [r12 + rbp*8 + 8]
  7fa28befa9a3: cmp      r10d, 0x173898
  7fa28befa9aa: jne      0x7fa28befb5b0
  7fa28befa9b0: lea      rcx, [r12 + rbp*8]
  7fa28befa9b4: cmp      r8d, r9d
  7fa28befa9b7: jae      0x7fa28befb088
  7fa28befa9bd: mov      qword ptr [rsp + 0x18], rcx
  7fa28befa9c2: mov      r10, qword ptr [rdi + r8*8 + 0x10]
  7fa28befa9c7: mov      qword ptr [rsp + 0x28], r10
  7fa28befa9cc: movabs   rsi, 0x688235a80
  7fa28befa9d6: mov      rdx, qword ptr [rsp]
  7fa28befa9da: mov      rbp, rdx
  7fa28befa9dd: nop      
  7fa28befa9df: call     0x7fa28b9869e0
  7fa28befa9e4: nop      dword ptr [rax + rax + 0x35c]
  7fa28befa9ec: test     eax, eax
  7fa28befa9ee: jne      0x7fa28befb188
       ;   {static_call}
  7fa28befa9f4: nop      
  7fa28befa9f7: call     0x7fa28b9869e0
  7fa28befa9fc: nop      dword ptr [rax + rax + 0x1000374]
  7fa28befaa04: mov      r10d, dword ptr [rsp + 8]
  7fa28befaa09: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7fa28befaa0f: jge      0x7fa28befaa6c
  7fa28befaa11: mov      ebp, r10d
  7fa28befaa14: movabs   rsi, 0x10000010000
  7fa28befaa1e: movabs   rdx, 0x688235a80
  7fa28befaa28: mov      rcx, qword ptr [rsp]
       ;   {static_call}
  7fa28befaa2c: nop      
  7fa28befaa2f: call     0x7fa28b9869e0
  7fa28befaa34: nop      dword ptr [rax + rax + 0x20003ac]
  7fa28befaa3c: mov      r10d, ebp
  7fa28befaa3f: movsx    ebp, byte ptr [r12 + r10*8 + 0x14]
  7fa28befaa45: test     ebp, ebp
  7fa28befaa47: jge      0x7fa28befaa6c
  7fa28befaa49: mov      esi, 0xffffff45
  7fa28befaa4e: push     qword ptr [rsp + 0x18]
  7fa28befaa53: pop      qword ptr [rsp + 8]
  7fa28befaa58: mov      dword ptr [rsp + 4], r10d
  7fa28befaa5d: nop      
  7fa28befaa5f: call     0x7fa28b9b1be0
  7fa28befaa64: nop      dword ptr [rax + rax + 0x30003dc]
  7fa28befaa6c: mov      rcx, qword ptr [rsp + 0x18]
  7fa28befaa71: mov      r8d, dword ptr [rcx + 0xc]
  7fa28befaa75: mov      r11d, dword ptr [rsp + 0x10]
  7fa28befaa7a: inc      r11d
  7fa28befaa7d: cmp      r11d, r8d
  7fa28befaa80: jge      0x7fa28befaf56
  7fa28befaa86: cmp      r11d, r8d
  7fa28befaa89: jae      0x7fa28befb0c0
  7fa28befaa8f: lea      r9d, [r8 - 1]
  7fa28befaa93: cmp      r9d, r8d
  7fa28befaa96: jae      0x7fa28befb0c0
  7fa28befaa9c: xor      esi, esi
  7fa28befaa9e: jmp      0x7fa28befaaa5
  7fa28befaaa0: mov      qword ptr [rsp + 0x28], rbx
  7fa28befaaa5: mov      edi, dword ptr [rcx + r11*4 + 0x10]
  7fa28befaaaa: cmp      edi, 0x80000000
  7fa28befaab0: je       0x7fa28befabac
  7fa28befaab6: mov      r9d, edi
  7fa28befaab9: shl      r9d, 5
  7fa28befaabd: sub      r9d, edi
  7fa28befaac0: add      r9d, 7
  7fa28befaac4: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7fa28befaaca: jl       0x7fa28befacf3
  7fa28befaad0: movsxd   r9, r9d
  7fa28befaad3: mov      rbx, qword ptr [rsp + 0x28]
  7fa28befaad8: add      rbx, r9
  7fa28befaadb: inc      r11d
  7fa28befaade: cmp      r11d, r8d
  7fa28befaae1: jl       0x7fa28befaaa0
  7fa28befaae3: mov      rcx, rbx
  7fa28befaae6: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7fa28befaaec: jge      0x7fa28befab8d
  7fa28befaaf2: mov      edi, dword ptr [r12 + r10*8 + 0xc]
  7fa28befaaf7: mov      r11d, dword ptr [r12 + r10*8 + 0x18]
  7fa28befaafc: lea      r8d, [rdi + 1]
  7fa28befab00: mov      ebp, dword ptr [r12 + r11*8 + 0xc]
  7fa28befab05: cmp      r8d, ebp
  7fa28befab08: jg       0x7fa28befb248
  7fa28befab0e: cmp      edi, ebp
  7fa28befab10: jae      0x7fa28befb0e8
  7fa28befab16: mov      dword ptr [r12 + r10*8 + 0xc], r8d
  7fa28befab1b: mov      ecx, dword ptr [r12 + r10*8 + 0x10]
  7fa28befab20: mov      r9d, dword ptr [r12 + r10*8 + 0x1c]
  7fa28befab25: shl      r11, 3
  7fa28befab29: movabs   r8, 0x10000010000
  7fa28befab33: mov      qword ptr [r11 + rdi*8 + 0x10], r8
  7fa28befab38: lea      r8d, [rcx + 1]
  7fa28befab3c: mov      ebp, dword ptr [r12 + r9*8 + 0xc]
  7fa28befab41: cmp      r8d, ebp
  7fa28befab44: jg       0x7fa28befb264
  7fa28befab4a: cmp      ecx, ebp
  7fa28befab4c: jae      0x7fa28befb10c
  7fa28befab52: mov      r11d, dword ptr [r12 + r9*8 + 8]
  7fa28befab57: cmp      r11d, 0x172408
  7fa28befab5e: jne      0x7fa28befb1c0
  7fa28befab64: mov      dword ptr [r12 + r10*8 + 0x10], r8d
  7fa28befab69: lea      r10, [r12 + r9*8]
  7fa28befab6d: lea      r10, [r10 + rcx*4 + 0x10]
  7fa28befab72: mov      dword ptr [r10], 0xd1046b6e
  7fa28befab79: shr      r10, 9
  7fa28befab7d: movabs   r11, 0x7fa2803ff000
  7fa28befab87: mov      byte ptr [r11 + r10], r12b
  7fa28befab8b: jmp      0x7fa28befab9c
  7fa28befab8d: mov      r10, qword ptr [rsp + 0x20]
  7fa28befab92: mov      qword ptr [r10 + 0x10], rcx
  7fa28befab96: lock add dword ptr [rsp - 0x40], 0
  7fa28befab9c: add      rsp, 0x60
  7fa28befaba0: pop      rbp
  7fa28befaba1: cmp      rsp, qword ptr [r15 + 0x28]
  7fa28befaba5: ja       0x7fa28befb7bc
  7fa28befabab: ret      
  7fa28befabac: mov      dword ptr [rsp + 0x14], r8d
  7fa28befabb1: mov      qword ptr [rsp + 0x18], rcx
  7fa28befabb6: mov      dword ptr [rsp + 0x10], r11d
  7fa28befabbb: mov      qword ptr [rsp + 8], rsi
       ;   {static_call}
  7fa28befabc0: mov      ebp, r10d
  7fa28befabc3: call     0x7fa28b9869e0
  7fa28befabc8: nop      dword ptr [rax + rax + 0x4000540]
  7fa28befabd0: mov      r10d, ebp
  7fa28befabd3: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7fa28befabd9: jl       0x7fa28befabf7
  7fa28befabdb: xor      r9d, r9d
  7fa28befabde: mov      rsi, qword ptr [rsp + 8]
  7fa28befabe3: mov      r11d, dword ptr [rsp + 0x10]
  7fa28befabe8: mov      rcx, qword ptr [rsp + 0x18]
  7fa28befabed: mov      r8d, dword ptr [rsp + 0x14]
  7fa28befabf2: jmp      0x7fa28befaac4
  7fa28befabf7: movabs   rsi, 0x10000010000
  7fa28befac01: movabs   rdx, 0x688235a80
  7fa28befac0b: mov      rcx, qword ptr [rsp]
  7fa28befac0f: call     0x7fa28b9869e0
  7fa28befac14: nop      dword ptr [rax + rax + 0x500058c]
  7fa28befac1c: xor      r9d, r9d
  7fa28befac1f: mov      r10d, ebp
  7fa28befac22: mov      rsi, qword ptr [rsp + 8]
  7fa28befac27: mov      r11d, dword ptr [rsp + 0x10]
  7fa28befac2c: mov      rcx, qword ptr [rsp + 0x18]
  7fa28befac31: mov      r8d, dword ptr [rsp + 0x14]
  7fa28befac36: jmp      0x7fa28befaac4
  7fa28befac3b: mov      qword ptr [rsp + 0x30], r8
  7fa28befac40: mov      qword ptr [rsp + 0x28], rcx
  7fa28befac45: mov      dword ptr [rsp + 0x18], r11d
  7fa28befac4a: mov      dword ptr [rsp + 4], ebx
  7fa28befac4e: mov      qword ptr [rsp + 0x10], rax
  7fa28befac53: mov      qword ptr [rsp + 8], rbp
  7fa28befac58: mov      dword ptr [rsp], r10d
       ;   {static_call}
  7fa28befac5c: mov      rbp, rdx
  7fa28befac5f: call     0x7fa28b9869e0
  7fa28befac64: nop      dword ptr [rax + rax + 0x60005dc]
  7fa28befac6c: mov      r10d, dword ptr [rsp]
  7fa28befac70: cmp      byte ptr [r12 + r10*8 + 0x14], 0
  7fa28befac76: jl       0x7fa28befac9f
  7fa28befac78: xor      esi, esi
  7fa28befac7a: mov      rdx, rbp
  7fa28befac7d: mov      rbp, qword ptr [rsp + 8]
  7fa28befac82: mov      rax, qword ptr [rsp + 0x10]
  7fa28befac87: mov      ebx, dword ptr [rsp + 4]
  7fa28befac8b: mov      r11d, dword ptr [rsp + 0x18]
  7fa28befac90: mov      rcx, qword ptr [rsp + 0x28]
  7fa28befac95: mov      r8, qword ptr [rsp + 0x30]
  7fa28befac9a: jmp      0x7fa28befa831
  7fa28befac9f: movabs   rsi, 0x10000010000
  7fa28befaca9: movabs   rdx, 0x688235a80
  7fa28befacb3: mov      rcx, qword ptr [rsp + 8]
       ;   {static_call}
  7fa28befacb8: nop      
  7fa28befacbb: call     0x7fa28b9869e0
  7fa28befacc0: nop      dword ptr [rax + rax + 0x7000638]
  7fa28befacc8: xor      esi, esi
  7fa28befacca: mov      rdx, rbp
  7fa28befaccd: mov      r10d, dword ptr [rsp]
  7fa28befacd1: mov      rbp, qword ptr [rsp + 8]
  7fa28befacd6: mov      rax, qword ptr [rsp + 0x10]
  7fa28befacdb: mov      ebx, dword ptr [rsp + 4]
  7fa28befacdf: mov      r11d, dword ptr [rsp + 0x18]
  7fa28beface4: mov      rcx, qword ptr [rsp + 0x28]
  7fa28beface9: mov      r8, qword ptr [rsp + 0x30]
  7fa28befacee: jmp      0x7fa28befa831
  7fa28befacf3: mov      edx, dword ptr [r12 + r10*8 + 0xc]
  7fa28befacf8: mov      eax, dword ptr [r12 + r10*8 + 0x18]
  7fa28befacfd: lea      r9d, [rdx + 3]
  7fa28befad01: mov      r13d, dword ptr [r12 + rax*8 + 0xc]
  7fa28befad06: cmp      r9d, r13d
  7fa28befad09: jg       0x7fa28befb4c4
  7fa28befad0f: lea      ebp, [rdx + 2]
  7fa28befad12: cmp      ebp, r13d
  7fa28befad15: jae      0x7fa28befb280
  7fa28befad1b: mov      rbx, rcx
  7fa28befad1e: mov      edi, r11d
  7fa28befad21: mov      rcx, rsi
  7fa28befad24: mov      dword ptr [r12 + r10*8 + 0xc], r9d
  7fa28befad29: mov      r14d, dword ptr [r12 + r10*8 + 0x10]
  7fa28befad2e: mov      r11d, dword ptr [r12 + r10*8 + 0x1c]
  7fa28befad33: vmovd    xmm1, r11d
  7fa28befad38: mov      r8d, r10d
  7fa28befad3b: lea      r9, [r12 + rax*8]
  7fa28befad3f: movsxd   rsi, edx
  7fa28befad42: movabs   r10, 0x30000020000
  7fa28befad4c: mov      qword ptr [r9 + rsi*8 + 0x20], r10
  7fa28befad51: lea      r10d, [r14 + 2]
  7fa28befad55: vmovd    xmm0, r10d
  7fa28befad5a: mov      r10d, dword ptr [r12 + r11*8 + 0xc]
  7fa28befad5f: mov      dword ptr [rsp + 0x1c], r10d
  7fa28befad64: vmovd    r10d, xmm0
  7fa28befad69: cmp      r10d, dword ptr [rsp + 0x1c]
  7fa28befad6e: jg       0x7fa28befb500
  7fa28befad74: lea      ebp, [r14 + 1]
  7fa28befad78: cmp      ebp, dword ptr [rsp + 0x1c]
  7fa28befad7c: jae      0x7fa28befb2bc
  7fa28befad82: mov      r11d, dword ptr [r12 + r11*8 + 8]
  7fa28befad87: cmp      r11d, 0x172408
  7fa28befad8e: jne      0x7fa28befb450
  7fa28befad94: vmovd    r10d, xmm0
  7fa28befad99: mov      dword ptr [r12 + r8*8 + 0x10], r10d
  7fa28befad9e: vmovd    r10d, xmm1
  7fa28befada3: lea      r11, [r12 + r10*8]
  7fa28befada7: movsxd   r10, r14d
  7fa28befadaa: lea      r10, [r11 + r10*4 + 0x14]
  7fa28befadaf: mov      dword ptr [r10], 0xd1046b5f
  7fa28befadb6: shr      r10, 9
  7fa28befadba: movabs   rbp, 0x7fa2803ff000
  7fa28befadc4: mov      byte ptr [rbp + r10], r12b
  7fa28befadc9: cmp      edx, r13d
  7fa28befadcc: jae      0x7fa28befb2f8
  7fa28befadd2: mov      rbp, qword ptr [rsp + 0x28]
  7fa28befadd7: mov      qword ptr [r9 + rdx*8 + 0x10], rbp
  7fa28befaddc: cmp      r14d, dword ptr [rsp + 0x1c]
  7fa28befade1: jae      0x7fa28befb33c
  7fa28befade7: lea      r10, [r11 + r14*4 + 0x10]
  7fa28befadec: movsxd   r11, edi
  7fa28befadef: mov      qword ptr [r9 + rsi*8 + 0x18], r11
  7fa28befadf4: mov      r11, r10
  7fa28befadf7: shr      rbx, 3
  7fa28befadfb: mov      dword ptr [r10], ebx
  7fa28befadfe: shr      r11, 9
  7fa28befae02: movabs   r10, 0x7fa2803ff000
  7fa28befae0c: mov      byte ptr [r10 + r11], r12b
  7fa28befae10: mov      r10d, r8d
  7fa28befae13: jmp      0x7fa28befaae6
  7fa28befae18: mov      esi, dword ptr [r12 + r10*8 + 0xc]
  7fa28befae1d: mov      ebx, dword ptr [r12 + r10*8 + 0x18]
  7fa28befae22: lea      r9d, [rsi + 3]
  7fa28befae26: mov      edi, dword ptr [r12 + rbx*8 + 0xc]
  7fa28befae2b: cmp      r9d, edi
  7fa28befae2e: jg       0x7fa28befb534
  7fa28befae34: lea      ebp, [rsi + 2]
  7fa28befae37: cmp      ebp, edi
  7fa28befae39: jae      0x7fa28befb378
  7fa28befae3f: mov      dword ptr [rsp], edi
  7fa28befae42: mov      r14d, esi
  7fa28befae45: mov      r13, r8
  7fa28befae48: mov      rdi, rcx
  7fa28befae4b: mov      r8d, r11d
  7fa28befae4e: mov      rcx, rax
  7fa28befae51: mov      dword ptr [r12 + r10*8 + 0xc], r9d
  7fa28befae56: mov      r11d, dword ptr [r12 + r10*8 + 0x10]
  7fa28befae5b: mov      dword ptr [rsp + 0x18], r11d
  7fa28befae60: mov      r9d, r10d
  7fa28befae63: lea      rsi, [r12 + rbx*8]
  7fa28befae67: mov      eax, ebx
  7fa28befae69: lea      r10d, [r11 + 2]
  7fa28befae6d: vmovd    xmm1, r10d
  7fa28befae72: mov      r10d, dword ptr [r12 + r9*8 + 0x1c]
  7fa28befae77: vmovd    xmm0, r10d
  7fa28befae7c: movsxd   rbx, r14d
  7fa28befae7f: movabs   r10, 0x30000020000
  7fa28befae89: mov      qword ptr [rsi + rbx*8 + 0x20], r10
  7fa28befae8e: vmovd    r10d, xmm0
  7fa28befae93: mov      r10d, dword ptr [r12 + r10*8 + 0xc]
  7fa28befae98: mov      dword ptr [rsp + 0x1c], r10d
  7fa28befae9d: vmovd    r10d, xmm1
  7fa28befaea2: cmp      r10d, dword ptr [rsp + 0x1c]
  7fa28befaea7: jg       0x7fa28befb568
  7fa28befaead: lea      ebp, [r11 + 1]
  7fa28befaeb1: cmp      ebp, dword ptr [rsp + 0x1c]
  7fa28befaeb5: jae      0x7fa28befb3ac
  7fa28befaebb: vmovd    r10d, xmm0
  7fa28befaec0: mov      r11d, dword ptr [r12 + r10*8 + 8]
  7fa28befaec5: cmp      r11d, 0x172408
  7fa28befaecc: jne      0x7fa28befb48c
  7fa28befaed2: vmovd    r10d, xmm1
  7fa28befaed7: mov      dword ptr [r12 + r9*8 + 0x10], r10d
  7fa28befaedc: vmovd    r10d, xmm0
  7fa28befaee1: lea      r11, [r12 + r10*8]
  7fa28befaee5: movsxd   r10, dword ptr [rsp + 0x18]
  7fa28befaeea: lea      r10, [r11 + r10*4 + 0x14]
  7fa28befaeef: mov      dword ptr [r10], 0xd1046b5f
  7fa28befaef6: shr      r10, 9
  7fa28befaefa: movabs   rbp, 0x7fa2803ff000
  7fa28befaf04: mov      byte ptr [rbp + r10], r12b
  7fa28befaf09: cmp      r14d, dword ptr [rsp]
  7fa28befaf0d: jae      0x7fa28befb3e4
  7fa28befaf13: mov      qword ptr [rsi + r14*8 + 0x10], rdi
  7fa28befaf18: mov      r10d, dword ptr [rsp + 0x18]
  7fa28befaf1d: cmp      r10d, dword ptr [rsp + 0x1c]
  7fa28befaf22: jae      0x7fa28befb418
  7fa28befaf28: mov      qword ptr [rsi + rbx*8 + 0x18], r13
  7fa28befaf2d: lea      r10, [r11 + r10*4 + 0x10]
  7fa28befaf32: mov      r11, rdx
  7fa28befaf35: shr      r11, 3
  7fa28befaf39: mov      dword ptr [r10], r11d
  7fa28befaf3c: shr      r10, 9
  7fa28befaf40: movabs   r11, 0x7fa2803ff000
  7fa28befaf4a: mov      byte ptr [r11 + r10], r12b
  7fa28befaf4e: mov      r10d, r9d
  7fa28befaf51: jmp      0x7fa28befaae6
  7fa28befaf56: mov      rbx, qword ptr [rsp + 0x28]
  7fa28befaf5b: jmp      0x7fa28befaae3
  7fa28befaf60: xor      ecx, ecx
  7fa28befaf62: jmp      0x7fa28befaae6
  7fa28befaf67: mov      esi, 0xffffffe4
  7fa28befaf6c: mov      dword ptr [rsp], r10d
  7fa28befaf70: mov      dword ptr [rsp + 0x10], r11d
  7fa28befaf75: mov      dword ptr [rsp + 0x14], ebx
  7fa28befaf79: nop      
  7fa28befaf7b: call     0x7fa28b9b1be0
  7fa28befaf80: nop      dword ptr [rax + rax + 0x80008f8]
  7fa28befaf88: mov      esi, 0xffffffe4
  7fa28befaf8d: mov      dword ptr [rsp], r10d
  7fa28befaf91: push     qword ptr [rsp + 0x20]
  7fa28befaf96: pop      qword ptr [rsp + 8]
  7fa28befaf9b: mov      dword ptr [rsp + 4], ebx
  7fa28befaf9f: mov      qword ptr [rsp + 0x10], r14
  7fa28befafa4: mov      dword ptr [rsp + 0x20], eax
  7fa28befafa8: mov      dword ptr [rsp + 0x24], r13d
  7fa28befafad: nop      
  7fa28befafaf: call     0x7fa28b9b1be0
  7fa28befafb4: nop      dword ptr [rax + rax + 0x900092c]
  7fa28befafbc: mov      esi, 0xffffffe4
  7fa28befafc1: mov      ebp, dword ptr [rsp + 8]
  7fa28befafc5: mov      dword ptr [rsp + 0x14], r11d
  7fa28befafca: mov      dword ptr [rsp + 0x18], ebx
  7fa28befafce: nop      
  7fa28befafcf: call     0x7fa28b9b1be0
  7fa28befafd4: nop      dword ptr [rax + rax + 0xa00094c]
  7fa28befafdc: mov      esi, 0xffffffe4
  7fa28befafe1: mov      ebp, dword ptr [rsp + 8]
  7fa28befafe5: push     qword ptr [rsp + 0x20]
  7fa28befafea: pop      qword ptr [rsp + 8]
  7fa28befafef: mov      dword ptr [rsp + 0x10], ebx
  7fa28befaff3: mov      qword ptr [rsp + 0x18], r14
  7fa28befaff8: mov      dword ptr [rsp + 0x24], eax
  7fa28befaffc: mov      dword ptr [rsp + 0x28], r10d
  7fa28befb001: nop      
  7fa28befb003: call     0x7fa28b9b1be0
  7fa28befb008: nop      dword ptr [rax + rax + 0xb000980]
  7fa28befb010: mov      esi, 0xffffffe4
  7fa28befb015: mov      dword ptr [rsp + 4], ebx
  7fa28befb019: push     qword ptr [rsp + 0x20]
  7fa28befb01e: pop      qword ptr [rsp + 8]
  7fa28befb023: mov      dword ptr [rsp + 0x14], r8d
  7fa28befb028: mov      dword ptr [rsp + 0x18], eax
  7fa28befb02c: vmovss   dword ptr [rsp + 0x1c], xmm0
  7fa28befb032: mov      dword ptr [rsp + 0x20], r11d
  7fa28befb037: call     0x7fa28b9b1be0
  7fa28befb03c: nop      dword ptr [rax + rax + 0xc0009b4]
  7fa28befb044: mov      esi, 0xffffffe4
  7fa28befb049: mov      ebp, dword ptr [rsp + 8]
  7fa28befb04d: mov      qword ptr [rsp - 8], rax
  7fa28befb052: mov      eax, dword ptr [rsp + 0x10]
  7fa28befb056: mov      dword ptr [rsp + 4], eax
  7fa28befb05a: mov      rax, qword ptr [rsp - 8]
  7fa28befb05f: push     qword ptr [rsp + 0x20]
  7fa28befb064: pop      qword ptr [rsp + 8]
  7fa28befb069: mov      dword ptr [rsp + 0x10], r11d
  7fa28befb06e: mov      dword ptr [rsp + 0x14], r8d
  7fa28befb073: mov      dword ptr [rsp + 0x20], eax
  7fa28befb077: mov      dword ptr [rsp + 0x24], ebx
  7fa28befb07b: call     0x7fa28b9b1be0
  7fa28befb080: nop      dword ptr [rax + rax + 0xd0009f8]
  7fa28befb088: mov      esi, 0xffffffe4
  7fa28befb08d: mov      ebp, dword ptr [rsp + 8]
  7fa28befb091: mov      qword ptr [rsp], rcx
  7fa28befb095: mov      qword ptr [rsp - 8], rax
  7fa28befb09a: mov      eax, dword ptr [rsp + 0x10]
  7fa28befb09e: mov      dword ptr [rsp + 0xc], eax
  7fa28befb0a2: mov      rax, qword ptr [rsp - 8]
  7fa28befb0a7: mov      dword ptr [rsp + 0x18], r11d
  7fa28befb0ac: mov      dword ptr [rsp + 0x1c], r8d
  7fa28befb0b1: nop      
  7fa28befb0b3: call     0x7fa28b9b1be0
  7fa28befb0b8: nop      dword ptr [rax + rax + 0xe000a30]
  7fa28befb0c0: mov      esi, 0xffffff6e
  7fa28befb0c5: mov      qword ptr [rsp], rcx
  7fa28befb0c9: mov      dword ptr [rsp + 8], r10d
  7fa28befb0ce: mov      dword ptr [rsp + 0x18], r11d
  7fa28befb0d3: mov      dword ptr [rsp + 0x1c], r8d
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb0d8: nop      
  7fa28befb0db: call     0x7fa28b9b1be0
  7fa28befb0e0: nop      dword ptr [rax + rax + 0xf000a58]
  7fa28befb0e8: mov      esi, 0xffffffe4
  7fa28befb0ed: mov      ebp, r10d
  7fa28befb0f0: mov      dword ptr [rsp], r8d
  7fa28befb0f4: mov      dword ptr [rsp + 4], r11d
  7fa28befb0f9: mov      dword ptr [rsp + 8], edi
  7fa28befb0fd: nop      
  7fa28befb0ff: call     0x7fa28b9b1be0
  7fa28befb104: nop      dword ptr [rax + rax + 0x10000a7c]
  7fa28befb10c: mov      esi, 0xffffffe4
  7fa28befb111: mov      ebp, r10d
  7fa28befb114: mov      dword ptr [rsp], r8d
  7fa28befb118: mov      dword ptr [rsp + 4], r9d
  7fa28befb11d: mov      dword ptr [rsp + 8], ecx
  7fa28befb121: nop      
  7fa28befb123: call     0x7fa28b9b1be0
  7fa28befb128: nop      dword ptr [rax + rax + 0x11000aa0]
  7fa28befb130: mov      esi, 0xffffff6e
  7fa28befb135: mov      qword ptr [rsp], rdx
  7fa28befb139: mov      dword ptr [rsp + 8], r10d
  7fa28befb13e: mov      dword ptr [rsp + 0xc], ebx
  7fa28befb142: nop      
  7fa28befb143: call     0x7fa28b9b1be0
  7fa28befb148: nop      dword ptr [rax + rax + 0x12000ac0]
  7fa28befb150: mov      esi, 0xffffff45
  7fa28befb155: mov      ebp, ebx
  7fa28befb157: mov      dword ptr [rsp + 8], r10d
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb15c: nop      
  7fa28befb15f: call     0x7fa28b9b1be0
  7fa28befb164: nop      dword ptr [rax + rax + 0x13000adc]
  7fa28befb16c: mov      esi, 0xffffff45
  7fa28befb171: mov      dword ptr [rsp], ebx
  7fa28befb174: mov      dword ptr [rsp + 4], r10d
  7fa28befb179: nop      
  7fa28befb17b: call     0x7fa28b9b1be0
  7fa28befb180: nop      dword ptr [rax + rax + 0x14000af8]
  7fa28befb188: mov      esi, 0xffffff45
  7fa28befb18d: mov      ebp, dword ptr [rsp + 8]
  7fa28befb191: push     qword ptr [rsp + 0x18]
  7fa28befb196: pop      qword ptr [rsp]
  7fa28befb19a: mov      qword ptr [rsp - 8], rax
  7fa28befb19f: mov      eax, dword ptr [rsp + 0x10]
  7fa28befb1a3: mov      dword ptr [rsp + 0xc], eax
  7fa28befb1a7: mov      rax, qword ptr [rsp - 8]
  7fa28befb1ac: mov      dword ptr [rsp + 0x1c], eax
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb1b0: nop      
  7fa28befb1b3: call     0x7fa28b9b1be0
  7fa28befb1b8: nop      dword ptr [rax + rax + 0x15000b30]
  7fa28befb1c0: mov      esi, 0xffffffd6
  7fa28befb1c5: mov      ebp, r10d
  7fa28befb1c8: mov      dword ptr [rsp], r8d
  7fa28befb1cc: mov      dword ptr [rsp + 4], r9d
  7fa28befb1d1: mov      dword ptr [rsp + 8], ecx
  7fa28befb1d5: nop      
  7fa28befb1d7: call     0x7fa28b9b1be0
  7fa28befb1dc: nop      dword ptr [rax + rax + 0x16000b54]
  7fa28befb1e4: mov      esi, 0xffffff45
  7fa28befb1e9: mov      dword ptr [rsp + 4], r10d
  7fa28befb1ee: mov      dword ptr [rsp + 0x10], ebx
  7fa28befb1f2: mov      qword ptr [rsp + 0x18], r14
  7fa28befb1f7: mov      dword ptr [rsp + 0x14], r13d
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb1fc: nop      
  7fa28befb1ff: call     0x7fa28b9b1be0
  7fa28befb204: nop      dword ptr [rax + rax + 0x17000b7c]
  7fa28befb20c: mov      esi, 0xffffff45
  7fa28befb211: mov      qword ptr [rsp - 8], rax
  7fa28befb216: mov      eax, dword ptr [rsp + 8]
  7fa28befb21a: mov      dword ptr [rsp], eax
  7fa28befb21d: mov      rax, qword ptr [rsp - 8]
  7fa28befb222: push     qword ptr [rsp + 0x20]
  7fa28befb227: pop      qword ptr [rsp + 0x10]
  7fa28befb22c: mov      dword ptr [rsp + 0xc], ebx
  7fa28befb230: mov      qword ptr [rsp + 0x18], r14
  7fa28befb235: mov      dword ptr [rsp + 0x20], r10d
  7fa28befb23a: nop      
  7fa28befb23b: call     0x7fa28b9b1be0
  7fa28befb240: nop      dword ptr [rax + rax + 0x18000bb8]
  7fa28befb248: mov      esi, 0xffffff45
  7fa28befb24d: mov      dword ptr [rsp], r10d
  7fa28befb251: mov      dword ptr [rsp + 8], r8d
  7fa28befb256: nop      
  7fa28befb257: call     0x7fa28b9b1be0
  7fa28befb25c: nop      dword ptr [rax + rax + 0x19000bd4]
  7fa28befb264: mov      esi, 0xffffff45
  7fa28befb269: mov      dword ptr [rsp], r10d
  7fa28befb26d: mov      dword ptr [rsp + 8], r8d
  7fa28befb272: nop      
  7fa28befb273: call     0x7fa28b9b1be0
  7fa28befb278: nop      dword ptr [rax + rax + 0x1a000bf0]
  7fa28befb280: mov      esi, 0xffffffe4
  7fa28befb285: mov      qword ptr [rsp + 8], rcx
  7fa28befb28a: mov      dword ptr [rsp + 4], r10d
  7fa28befb28f: mov      dword ptr [rsp + 0x10], r11d
  7fa28befb294: push     qword ptr [rsp + 0x28]
  7fa28befb299: pop      qword ptr [rsp + 0x18]
  7fa28befb29e: mov      dword ptr [rsp + 0x14], r10d
  7fa28befb2a3: mov      dword ptr [rsp + 0x28], r9d
  7fa28befb2a8: mov      dword ptr [rsp + 0x2c], eax
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb2ac: nop      
  7fa28befb2af: call     0x7fa28b9b1be0
  7fa28befb2b4: nop      dword ptr [rax + rax + 0x1b000c2c]
  7fa28befb2bc: mov      esi, 0xffffffe4
  7fa28befb2c1: mov      qword ptr [rsp + 8], rbx
  7fa28befb2c6: mov      dword ptr [rsp + 4], r8d
  7fa28befb2cb: mov      dword ptr [rsp + 0x10], edi
  7fa28befb2cf: push     qword ptr [rsp + 0x28]
  7fa28befb2d4: pop      qword ptr [rsp + 0x18]
  7fa28befb2d9: mov      dword ptr [rsp + 0x14], r8d
  7fa28befb2de: mov      dword ptr [rsp + 0x28], r10d
  7fa28befb2e3: mov      dword ptr [rsp + 0x2c], r11d
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb2e8: nop      
  7fa28befb2eb: call     0x7fa28b9b1be0
  7fa28befb2f0: nop      dword ptr [rax + rax + 0x1c000c68]
  7fa28befb2f8: mov      esi, 0xffffffe4
  7fa28befb2fd: mov      ebp, r8d
  7fa28befb300: mov      qword ptr [rsp], rbx
  7fa28befb304: mov      dword ptr [rsp + 8], edi
  7fa28befb308: push     qword ptr [rsp + 0x28]
  7fa28befb30d: pop      qword ptr [rsp + 0x10]
  7fa28befb312: push     qword ptr [rsp + 0x20]
  7fa28befb317: pop      qword ptr [rsp + 0x18]
  7fa28befb31c: vmovss   dword ptr [rsp + 0x24], xmm1
  7fa28befb322: mov      dword ptr [rsp + 0x28], r14d
  7fa28befb327: mov      dword ptr [rsp + 0x2c], eax
  7fa28befb32b: mov      dword ptr [rsp + 0x30], edx
  7fa28befb32f: call     0x7fa28b9b1be0
  7fa28befb334: nop      dword ptr [rax + rax + 0x1d000cac]
  7fa28befb33c: mov      esi, 0xffffffe4
  7fa28befb341: mov      ebp, r8d
  7fa28befb344: mov      dword ptr [rsp], edi
  7fa28befb347: mov      qword ptr [rsp + 8], rbx
  7fa28befb34c: push     qword ptr [rsp + 0x20]
  7fa28befb351: pop      qword ptr [rsp + 0x10]
  7fa28befb356: mov      dword ptr [rsp + 4], eax
  7fa28befb35a: mov      dword ptr [rsp + 0x18], edx
  7fa28befb35e: vmovss   dword ptr [rsp + 0x1c], xmm1
  7fa28befb364: mov      dword ptr [rsp + 0x20], r14d
  7fa28befb369: nop      
  7fa28befb36b: call     0x7fa28b9b1be0
  7fa28befb370: nop      dword ptr [rax + rax + 0x1e000ce8]
  7fa28befb378: mov      esi, 0xffffffe4
  7fa28befb37d: mov      qword ptr [rsp + 8], rdx
  7fa28befb382: mov      dword ptr [rsp + 4], r10d
  7fa28befb387: mov      dword ptr [rsp + 0x10], r11d
  7fa28befb38c: mov      qword ptr [rsp + 0x18], rcx
  7fa28befb391: mov      dword ptr [rsp + 0x14], r10d
  7fa28befb396: mov      dword ptr [rsp + 0x28], r9d
  7fa28befb39b: mov      dword ptr [rsp + 0x2c], ebx
  7fa28befb39f: call     0x7fa28b9b1be0
  7fa28befb3a4: nop      dword ptr [rax + rax + 0x1f000d1c]
  7fa28befb3ac: mov      esi, 0xffffffe4
  7fa28befb3b1: mov      qword ptr [rsp + 8], rdx
  7fa28befb3b6: mov      dword ptr [rsp + 4], r9d
  7fa28befb3bb: mov      dword ptr [rsp + 0x10], r8d
  7fa28befb3c0: mov      qword ptr [rsp + 0x18], rdi
  7fa28befb3c5: mov      dword ptr [rsp + 0x14], r9d
  7fa28befb3ca: mov      dword ptr [rsp + 0x28], r10d
  7fa28befb3cf: vmovss   dword ptr [rsp + 0x2c], xmm0
  7fa28befb3d5: nop      
  7fa28befb3d7: call     0x7fa28b9b1be0
  7fa28befb3dc: nop      dword ptr [rax + rax + 0x20000d54]
  7fa28befb3e4: mov      esi, 0xffffffe4
  7fa28befb3e9: mov      ebp, r9d
  7fa28befb3ec: mov      qword ptr [rsp], rdx
  7fa28befb3f0: mov      dword ptr [rsp + 8], r8d
  7fa28befb3f5: mov      qword ptr [rsp + 0x10], rdi
  7fa28befb3fa: vmovss   dword ptr [rsp + 0x28], xmm0
  7fa28befb400: mov      dword ptr [rsp + 0x2c], eax
  7fa28befb404: mov      dword ptr [rsp + 0x30], r14d
  7fa28befb409: nop      
  7fa28befb40b: call     0x7fa28b9b1be0
  7fa28befb410: nop      dword ptr [rax + rax + 0x21000d88]
  7fa28befb418: mov      esi, 0xffffffe4
  7fa28befb41d: mov      ebp, r9d
  7fa28befb420: mov      dword ptr [rsp], r8d
  7fa28befb424: mov      qword ptr [rsp + 8], rdx
  7fa28befb429: push     qword ptr [rsp + 0x20]
  7fa28befb42e: pop      qword ptr [rsp + 0x10]
  7fa28befb433: mov      dword ptr [rsp + 4], eax
  7fa28befb437: mov      dword ptr [rsp + 0x1c], r14d
  7fa28befb43c: vmovss   dword ptr [rsp + 0x20], xmm0
  7fa28befb442: nop      
  7fa28befb443: call     0x7fa28b9b1be0
  7fa28befb448: nop      dword ptr [rax + rax + 0x22000dc0]
  7fa28befb450: mov      esi, 0xffffffd6
  7fa28befb455: mov      qword ptr [rsp + 8], rbx
  7fa28befb45a: mov      dword ptr [rsp + 4], r8d
  7fa28befb45f: mov      dword ptr [rsp + 0x10], edi
  7fa28befb463: push     qword ptr [rsp + 0x28]
  7fa28befb468: pop      qword ptr [rsp + 0x18]
  7fa28befb46d: mov      dword ptr [rsp + 0x14], r8d
  7fa28befb472: vmovss   dword ptr [rsp + 0x28], xmm0
  7fa28befb478: vmovss   dword ptr [rsp + 0x2c], xmm1
  7fa28befb47e: nop      
  7fa28befb47f: call     0x7fa28b9b1be0
  7fa28befb484: nop      dword ptr [rax + rax + 0x23000dfc]
  7fa28befb48c: mov      esi, 0xffffffd6
  7fa28befb491: mov      qword ptr [rsp + 8], rdx
  7fa28befb496: mov      dword ptr [rsp + 4], r9d
  7fa28befb49b: mov      dword ptr [rsp + 0x10], r8d
  7fa28befb4a0: mov      qword ptr [rsp + 0x18], rdi
  7fa28befb4a5: mov      dword ptr [rsp + 0x14], r9d
  7fa28befb4aa: vmovss   dword ptr [rsp + 0x28], xmm1
  7fa28befb4b0: mov      dword ptr [rsp + 0x2c], r10d
  7fa28befb4b5: nop      
  7fa28befb4b7: call     0x7fa28b9b1be0
  7fa28befb4bc: nop      dword ptr [rax + rax + 0x24000e34]
  7fa28befb4c4: mov      esi, 0xffffff45
  7fa28befb4c9: mov      qword ptr [rsp], rcx
  7fa28befb4cd: mov      dword ptr [rsp + 8], r10d
  7fa28befb4d2: mov      dword ptr [rsp + 0xc], r11d
  7fa28befb4d7: push     qword ptr [rsp + 0x28]
  7fa28befb4dc: pop      qword ptr [rsp + 0x10]
  7fa28befb4e1: mov      dword ptr [rsp + 0x18], r10d
  7fa28befb4e6: mov      dword ptr [rsp + 0x28], r9d
  7fa28befb4eb: mov      dword ptr [rsp + 0x2c], r13d
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb4f0: nop      
  7fa28befb4f3: call     0x7fa28b9b1be0
  7fa28befb4f8: nop      dword ptr [rax + rax + 0x25000e70]
  7fa28befb500: mov      esi, 0xffffff45
  7fa28befb505: mov      qword ptr [rsp], rbx
  7fa28befb509: mov      dword ptr [rsp + 8], r8d
  7fa28befb50e: mov      dword ptr [rsp + 0xc], edi
  7fa28befb512: push     qword ptr [rsp + 0x28]
  7fa28befb517: pop      qword ptr [rsp + 0x10]
  7fa28befb51c: mov      dword ptr [rsp + 0x18], r8d
  7fa28befb521: mov      dword ptr [rsp + 0x2c], r10d
  7fa28befb526: nop      
  7fa28befb527: call     0x7fa28b9b1be0
  7fa28befb52c: nop      dword ptr [rax + rax + 0x26000ea4]
  7fa28befb534: mov      esi, 0xffffff45
  7fa28befb539: mov      qword ptr [rsp], rdx
  7fa28befb53d: mov      dword ptr [rsp + 8], r10d
  7fa28befb542: mov      dword ptr [rsp + 0xc], r11d
  7fa28befb547: mov      qword ptr [rsp + 0x10], rcx
  7fa28befb54c: mov      dword ptr [rsp + 0x18], r10d
  7fa28befb551: mov      dword ptr [rsp + 0x28], r9d
  7fa28befb556: mov      dword ptr [rsp + 0x2c], edi
  7fa28befb55a: nop      
  7fa28befb55b: call     0x7fa28b9b1be0
  7fa28befb560: nop      dword ptr [rax + rax + 0x27000ed8]
  7fa28befb568: mov      esi, 0xffffff45
  7fa28befb56d: mov      qword ptr [rsp], rdx
  7fa28befb571: mov      dword ptr [rsp + 8], r9d
  7fa28befb576: mov      dword ptr [rsp + 0xc], r8d
  7fa28befb57b: mov      qword ptr [rsp + 0x10], rdi
  7fa28befb580: mov      dword ptr [rsp + 0x18], r9d
  7fa28befb585: mov      dword ptr [rsp + 0x2c], r10d
  7fa28befb58a: nop      
  7fa28befb58b: call     0x7fa28b9b1be0
  7fa28befb590: nop      dword ptr [rax + rax + 0x28000f08]
  7fa28befb598: mov      esi, 0xffffffde
  7fa28befb59d: mov      qword ptr [rsp], rdx
  7fa28befb5a1: nop      
  7fa28befb5a3: call     0x7fa28b9b1be0
  7fa28befb5a8: nop      dword ptr [rax + rax + 0x29000f20]
  7fa28befb5b0: mov      esi, 0xffffffde
  7fa28befb5b5: mov      qword ptr [rsp - 8], rax
  7fa28befb5ba: mov      eax, dword ptr [rsp + 8]
  7fa28befb5be: mov      dword ptr [rsp], eax
  7fa28befb5c1: mov      rax, qword ptr [rsp - 8]
  7fa28befb5c6: mov      qword ptr [rsp - 8], rax
  7fa28befb5cb: mov      eax, dword ptr [rsp + 0x10]
  7fa28befb5cf: mov      dword ptr [rsp + 8], eax
  7fa28befb5d3: mov      rax, qword ptr [rsp - 8]
  7fa28befb5d8: mov      dword ptr [rsp + 0xc], r11d
  7fa28befb5dd: mov      dword ptr [rsp + 0x18], r8d
  7fa28befb5e2: nop      
  7fa28befb5e3: call     0x7fa28b9b1be0
  7fa28befb5e8: nop      dword ptr [rax + rax + 0x2a000f60]
  7fa28befb5f0: mov      rsi, rax
  7fa28befb5f3: jmp      0x7fa28befb60b
  7fa28befb5f5: mov      rsi, rax
  7fa28befb5f8: jmp      0x7fa28befb60b
  7fa28befb5fa: mov      rsi, rax
  7fa28befb5fd: jmp      0x7fa28befb60b
  7fa28befb5ff: jmp      0x7fa28befb601
  7fa28befb601: mov      rsi, rax
  7fa28befb604: jmp      0x7fa28befb60b
  7fa28befb606: jmp      0x7fa28befb608
  7fa28befb608: mov      rsi, rax
  7fa28befb60b: add      rsp, 0x60
  7fa28befb60f: pop      rbp
       ;   {runtime_call C2 Runtime rethrow}
  7fa28befb610: jmp      0x7fa28ba4e060
  7fa28befb615: mov      esi, 0xfffffff6
  7fa28befb61a: nop      
  7fa28befb61b: call     0x7fa28b9b1be0
  7fa28befb620: nop      dword ptr [rax + rax + 0x2b000f98]
  7fa28befb628: mov      esi, 0xfffffff6
  7fa28befb62d: mov      ebp, ebx
  7fa28befb62f: call     0x7fa28b9b1be0
  7fa28befb634: nop      dword ptr [rax + rax + 0x2c000fac]
  7fa28befb63c: mov      esi, 0xfffffff6
  7fa28befb641: mov      ebp, r13d
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb644: nop      
  7fa28befb647: call     0x7fa28b9b1be0
  7fa28befb64c: nop      dword ptr [rax + rax + 0x2d000fc4]
  7fa28befb654: mov      esi, 0xfffffff4
  7fa28befb659: mov      ebp, dword ptr [rsp + 8]
  7fa28befb65d: mov      qword ptr [rsp - 8], rax
  7fa28befb662: mov      eax, dword ptr [rsp + 0x10]
  7fa28befb666: mov      dword ptr [rsp + 4], eax
  7fa28befb66a: mov      rax, qword ptr [rsp - 8]
  7fa28befb66f: mov      dword ptr [rsp + 0x10], r11d
  7fa28befb674: mov      dword ptr [rsp + 0x14], r8d
  7fa28befb679: nop      
  7fa28befb67b: call     0x7fa28b9b1be0
  7fa28befb680: nop      dword ptr [rax + rax + 0x2e000ff8]
  7fa28befb688: mov      esi, 0xfffffff6
  7fa28befb68d: nop      
  7fa28befb68f: call     0x7fa28b9b1be0
  7fa28befb694: nop      dword ptr [rax + rax + 0x2f00100c]
  7fa28befb69c: mov      esi, 0xffffff45
  7fa28befb6a1: mov      ebp, r10d
  7fa28befb6a4: mov      dword ptr [rsp], r8d
  7fa28befb6a8: mov      dword ptr [rsp + 8], r11d
  7fa28befb6ad: nop      
  7fa28befb6af: call     0x7fa28b9b1be0
  7fa28befb6b4: nop      dword ptr [rax + rax + 0x3000102c]
  7fa28befb6bc: mov      esi, 0xffffff45
  7fa28befb6c1: mov      ebp, r10d
  7fa28befb6c4: mov      dword ptr [rsp], r8d
  7fa28befb6c8: mov      dword ptr [rsp + 8], r9d
  7fa28befb6cd: nop      
  7fa28befb6cf: call     0x7fa28b9b1be0
  7fa28befb6d4: nop      dword ptr [rax + rax + 0x3100104c]
  7fa28befb6dc: mov      esi, 0xffffff45
  7fa28befb6e1: mov      qword ptr [rsp], rcx
  7fa28befb6e5: mov      dword ptr [rsp + 8], r10d
  7fa28befb6ea: mov      dword ptr [rsp + 0xc], r11d
  7fa28befb6ef: push     qword ptr [rsp + 0x28]
  7fa28befb6f4: pop      qword ptr [rsp + 0x10]
  7fa28befb6f9: mov      dword ptr [rsp + 0x18], r10d
  7fa28befb6fe: mov      dword ptr [rsp + 0x1c], r9d
  7fa28befb703: mov      dword ptr [rsp + 0x2c], eax
  7fa28befb707: call     0x7fa28b9b1be0
  7fa28befb70c: nop      dword ptr [rax + rax + 0x32001084]
  7fa28befb714: mov      esi, 0xffffff45
  7fa28befb719: mov      qword ptr [rsp], rbx
  7fa28befb71d: mov      dword ptr [rsp + 8], r8d
  7fa28befb722: mov      dword ptr [rsp + 0xc], edi
  7fa28befb726: push     qword ptr [rsp + 0x28]
  7fa28befb72b: pop      qword ptr [rsp + 0x10]
  7fa28befb730: mov      dword ptr [rsp + 0x18], r8d
  7fa28befb735: vmovss   dword ptr [rsp + 0x1c], xmm0
  7fa28befb73b: mov      dword ptr [rsp + 0x2c], r11d
       ;   {runtime_call UncommonTrapBlob}
  7fa28befb740: nop      
  7fa28befb743: call     0x7fa28b9b1be0
  7fa28befb748: nop      dword ptr [rax + rax + 0x330010c0]
  7fa28befb750: mov      esi, 0xffffff45
  7fa28befb755: mov      qword ptr [rsp], rdx
  7fa28befb759: mov      dword ptr [rsp + 8], r10d
  7fa28befb75e: mov      dword ptr [rsp + 0xc], r11d
  7fa28befb763: mov      qword ptr [rsp + 0x10], rcx
  7fa28befb768: mov      dword ptr [rsp + 0x18], r10d
  7fa28befb76d: mov      dword ptr [rsp + 0x1c], r9d
  7fa28befb772: mov      dword ptr [rsp + 0x2c], ebx
  7fa28befb776: nop      
  7fa28befb777: call     0x7fa28b9b1be0
  7fa28befb77c: nop      dword ptr [rax + rax + 0x340010f4]
  7fa28befb784: mov      esi, 0xffffff45
  7fa28befb789: mov      qword ptr [rsp], rdx
  7fa28befb78d: mov      dword ptr [rsp + 8], r9d
  7fa28befb792: mov      dword ptr [rsp + 0xc], r8d
  7fa28befb797: mov      qword ptr [rsp + 0x10], rdi
  7fa28befb79c: mov      dword ptr [rsp + 0x18], r9d
  7fa28befb7a1: vmovss   dword ptr [rsp + 0x1c], xmm1
  7fa28befb7a7: vmovss   dword ptr [rsp + 0x2c], xmm0
  7fa28befb7ad: nop      
  7fa28befb7af: call     0x7fa28b9b1be0
  7fa28befb7b4: nop      dword ptr [rax + rax + 0x3500112c]
  7fa28befb7bc: movabs   r10, 0x7fa28befaba1
  7fa28befb7c6: mov      qword ptr [r15 + 0x538], r10
  7fa28befb7cd: jmp      0x7fa28b988560
  7fa28befb7d2: call     0x7fa28b971940
  7fa28befb7d7: jmp      0x7fa28befa7aa
  7fa28befb7dc: hlt      
  7fa28befb7dd: hlt      
  7fa28befb7de: hlt      
  7fa28befb7df: hlt      
