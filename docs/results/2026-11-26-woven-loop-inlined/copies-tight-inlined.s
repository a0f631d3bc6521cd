##### iteration copies: TightLoopBenchmark::lambda$setUp$0 with tight and step inlined (the code that runs), the loop
  7f7f6fef9d06: nop      word ptr [rax + rax]
  7f7f6fef9d10: mov      eax, r11d
  7f7f6fef9d13: shl      eax, 5
  7f7f6fef9d16: sub      eax, r11d
  7f7f6fef9d19: add      eax, 7
  7f7f6fef9d1c: mov      qword ptr [rsp + 0x10], r13
  7f7f6fef9d21: mov      qword ptr [rsp], r9
  7f7f6fef9d25: mov      dword ptr [rsp + 0x18], edx
  7f7f6fef9d29: mov      qword ptr [rsp + 0x28], rbp
  7f7f6fef9d2e: mov      qword ptr [rsp + 0x38], r14
  7f7f6fef9d33: mov      dword ptr [rsp + 0x20], edi
  7f7f6fef9d37: mov      r9d, dword ptr [r12 + r10*8 + 0x18]
  7f7f6fef9d3c: mov      r11d, dword ptr [r12 + r10*8 + 0x1c]
  7f7f6fef9d41: mov      ecx, dword ptr [r12 + r10*8 + 0xc]
  7f7f6fef9d46: mov      edi, r10d
  7f7f6fef9d49: mov      ebx, dword ptr [r12 + r10*8 + 0x10]
  7f7f6fef9d4e: test     r8d, r8d
  7f7f6fef9d51: jl       0x7f7f6fef9e48
  7f7f6fef9d57: movsxd   r10, eax
  7f7f6fef9d5a: mov      r14, qword ptr [rsp + 0x38]
  7f7f6fef9d5f: add      r14, r10
  7f7f6fef9d62: mov      edx, dword ptr [rsp + 0x18]
  7f7f6fef9d66: inc      edx
  7f7f6fef9d68: cmp      edx, dword ptr [rsp + 0x20]
  7f7f6fef9d6c: jge      0x7f7f6fef9e30
  7f7f6fef9d72: mov      r10d, edi
  7f7f6fef9d75: mov      r13, qword ptr [rsp + 0x10]
  7f7f6fef9d7a: mov      r9, qword ptr [rsp]
  7f7f6fef9d7e: mov      rbp, qword ptr [rsp + 0x28]
  7f7f6fef9d83: mov      edi, dword ptr [rsp + 0x20]
  7f7f6fef9d87: movsx    r8d, byte ptr [r12 + r10*8 + 0x14]
  7f7f6fef9d8d: test     r8d, r8d
  7f7f6fef9d90: jg       0x7f7f6fef9cad
  7f7f6fef9d96: mov      r11d, dword ptr [rbp + rdx*4 + 0x10]
  7f7f6fef9d9b: cmp      r11d, 0x80000000
  7f7f6fef9da2: jne      0x7f7f6fef9d10
  7f7f6fef9da8: mov      dword ptr [rsp + 8], r10d
  7f7f6fef9dad: mov      qword ptr [rsp], r9
  7f7f6fef9db1: mov      dword ptr [rsp + 0x20], edi
  7f7f6fef9db5: mov      qword ptr [rsp + 0x38], r14
