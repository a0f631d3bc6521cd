##### iteration copies: WovenLoops::tight compiled on its own, the loop
  7efd3fef6094: nop      word ptr [rax + rax]
  7efd3fef609a: nop      word ptr [rax + rax]
  7efd3fef60a0: mov      r11d, edi
  7efd3fef60a3: shl      r11d, 5
  7efd3fef60a7: sub      r11d, edi
  7efd3fef60aa: add      r11d, 7
  7efd3fef60ae: test     r9d, r9d
  7efd3fef60b1: jl       0x7efd3fef6183
  7efd3fef60b7: movsxd   r11, r11d
  7efd3fef60ba: add      r8, r11
  7efd3fef60bd: inc      r10d
  7efd3fef60c0: cmp      r10d, ecx
  7efd3fef60c3: jge      0x7efd3fef635e
  7efd3fef60c9: movsx    r9d, byte ptr [rdx + 0x14]
  7efd3fef60ce: test     r9d, r9d
  7efd3fef60d1: jg       0x7efd3fef6040
  7efd3fef60d7: mov      edi, dword ptr [r14 + r10*4 + 0x10]
  7efd3fef60dc: cmp      edi, 0x80000000
  7efd3fef60e2: jne      0x7efd3fef60a0
  7efd3fef60e4: mov      qword ptr [rsp + 8], rax
  7efd3fef60e9: mov      dword ptr [rsp + 0x14], ecx
