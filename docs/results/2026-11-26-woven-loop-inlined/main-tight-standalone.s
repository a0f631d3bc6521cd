##### main: WovenLoops::tight compiled on its own (C2, JDK 25), the loop
  7fa337ef75c6: jmp      0x7fa337ef7638
  7fa337ef75c8: nop      dword ptr [rax + rax]
  7fa337ef75d0: mov      eax, r9d
  7fa337ef75d3: shl      eax, 5
  7fa337ef75d6: sub      eax, r9d
  7fa337ef75d9: add      eax, 7
  7fa337ef75dc: mov      r9d, dword ptr [r10 + 0x18]
  7fa337ef75e0: mov      ebx, dword ptr [r10 + 0xc]
  7fa337ef75e4: test     edx, edx
  7fa337ef75e6: jl       0x7fa337ef76d2
  7fa337ef75ec: mov      rdx, qword ptr [r15 + 0x30]
  7fa337ef75f0: inc      r11d
  7fa337ef75f3: movsxd   rax, eax
  7fa337ef75f6: add      rax, rcx
  7fa337ef75f9: test     dword ptr [rdx], eax
  7fa337ef75fb: mov      rcx, rax
  7fa337ef75fe: test     r8d, r8d
  7fa337ef7601: jge      0x7fa337ef78ad
  7fa337ef7607: cmp      r11d, esi
  7fa337ef760a: jge      0x7fa337ef789a
  7fa337ef7610: cmp      r11d, esi
  7fa337ef7613: jae      0x7fa337ef78db
  7fa337ef7619: mov      r9d, dword ptr [rdi + r11*4 + 0x10]
  7fa337ef761e: movsx    edx, byte ptr [r10 + 0x14]
  7fa337ef7623: test     edx, edx
  7fa337ef7625: jg       0x7fa337ef7573
  7fa337ef762b: cmp      r9d, 0x80000000
  7fa337ef7632: jne      0x7fa337ef75d0
