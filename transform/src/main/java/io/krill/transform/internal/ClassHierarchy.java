package io.krill.transform.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reads class headers (supertypes and method declarations) without loading classes, and
 * answers the questions the weaver asks: is this method suspendable, what does it override,
 * what is the common superclass of two types.
 *
 * <p>Thread-safe; results are cached.
 */
public final class ClassHierarchy {
  /** A class header. */
  public static final class ClassInfo {
    final String name;
    final String superName;
    final String[] interfaces;
    final int access;
    final Map<String, MethodInfo> methods = new HashMap<>();
    /** The access flags of the declared fields, by name and descriptor ({@code name + ' ' + desc}). */
    final Map<String, Integer> fields = new HashMap<>();
    /** The class file's major version. */
    int version;
    /** True when the class file carries the woven marker: its stack entries are in {@link #methods}. */
    boolean woven;

    ClassInfo(String name, String superName, String[] interfaces, int access) {
      this.name = name;
      this.superName = superName;
      this.interfaces = interfaces == null ? new String[0] : interfaces;
      this.access = access;
    }

    /** @return true for interfaces */
    public boolean isInterface() {
      return (access & Opcodes.ACC_INTERFACE) != 0;
    }
  }

  /**
   * A method declaration.
   *
   * @param owner the declaring class
   * @param name the method's name
   * @param desc the method's descriptor
   * @param access the method's access flags
   * @param suspendable true if declared {@code throws Suspendable}
   * @param primitive true if annotated as a hand-written primitive, which is never woven
   * @param calls the methods a method declared {@code throws Suspendable} calls, as owner, name
   *     and descriptor in threes, outside the JDK (empty for other methods): whether it will be
   *     woven, for {@link #hasStackEntry}
   */
  public record MethodInfo(String owner, String name, String desc, int access, boolean suspendable,
      boolean primitive, List<String> calls) {}

  private static final ClassInfo MISSING = new ClassInfo("?", null, null, 0);

  private final Function<String, byte[]> source;
  private final Map<String, ClassInfo> cache = new ConcurrentHashMap<>();

  /** @param source returns the class file of an internal name, or null when absent */
  public ClassHierarchy(Function<String, byte[]> source) {
    this.source = source;
  }

  /** Remembers a class that is being woven, so lookups see it before it is written. */
  public void add(byte[] classFile) {
    ClassInfo info = parse(classFile);
    cache.put(info.name, info);
  }

  /** @return the header of {@code name}, or null if it cannot be found */
  public ClassInfo find(String name) {
    ClassInfo info = cache.get(name);
    if (info == null) {
      byte[] bytes = null;
      try {
        bytes = source.apply(name);
      } catch (RuntimeException e) {
        bytes = null;
      }
      info = bytes == null ? MISSING : parse(bytes);
      cache.put(name, info);
    }
    return info == MISSING ? null : info;
  }

  private static ClassInfo parse(byte[] bytes) {
    ClassReader reader = new ClassReader(bytes);
    ClassInfo[] out = new ClassInfo[1];
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        out[0] = new ClassInfo(name, superName, interfaces, access);
        out[0].version = version & 0xFFFF;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        boolean suspendable = false;
        if (exceptions != null) {
          for (String e : exceptions) {
            suspendable |= Names.SUSPENDABLE.equals(e);
          }
        }
        ClassInfo info = out[0];
        String key = name + descriptor;
        info.methods.put(key, new MethodInfo(info.name, name, descriptor, access, suspendable, false, List.of()));
        if (!suspendable) {
          return null; // only a suspendable method's code and annotations matter: skip the rest unread
        }
        List<String> calls = new ArrayList<>();
        boolean[] primitive = new boolean[1];
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
            primitive[0] |= Names.PRIMITIVE_DESC.equals(desc);
            return null;
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String callName, String callDesc, boolean itf) {
            if (!ClassWeaver.isJdk(owner)) {
              calls.add(owner);
              calls.add(callName);
              calls.add(callDesc);
            }
          }

          @Override
          public void visitEnd() {
            info.methods.put(key, new MethodInfo(info.name, name, descriptor, access, true, primitive[0],
                List.copyOf(calls)));
          }
        };
      }

      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        if (Names.WOVEN_FIELD.equals(name)) {
          out[0].woven = true;
        }
        out[0].fields.put(name + ' ' + descriptor, access);
        return null;
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return out[0];
  }

  /**
   * Resolves a method the way the JVM does: the class chain first, then superinterfaces.
   *
   * @return the declaration, or null when it cannot be found
   */
  public MethodInfo resolve(String owner, String name, String desc) {
    if (owner.startsWith("[")) {
      return null;
    }
    String key = name + desc;
    for (String c = owner; c != null; ) {
      ClassInfo info = find(c);
      if (info == null) {
        break;
      }
      MethodInfo m = info.methods.get(key);
      if (m != null) {
        return m;
      }
      c = info.superName;
    }
    List<String> seen = new ArrayList<>();
    return resolveInInterfaces(owner, key, seen);
  }

  private MethodInfo resolveInInterfaces(String type, String key, List<String> seen) {
    ClassInfo info = find(type);
    if (info == null || seen.contains(type)) {
      return null;
    }
    seen.add(type);
    for (String itf : info.interfaces) {
      ClassInfo i = find(itf);
      if (i != null) {
        MethodInfo m = i.methods.get(key);
        if (m != null && (m.access & Opcodes.ACC_STATIC) == 0) {
          return m;
        }
      }
      MethodInfo m = resolveInInterfaces(itf, key, seen);
      if (m != null) {
        return m;
      }
    }
    return info.superName == null ? null : resolveInInterfaces(info.superName, key, seen);
  }

  /**
   * Whether a call can go to the target's stack entry (see {@link StackEntries}): the call is
   * bound to one method at weave time, and that method has a stack entry, or will have one
   * when its class is woven.
   *
   * @param opcode the call's opcode
   * @return true when the call may pass the caller's stack to {@code name(args..., Stack, byte)}
   */
  public boolean hasStackEntry(int opcode, String owner, String name, String desc) {
    if (opcode == Opcodes.INVOKEINTERFACE || opcode == Opcodes.INVOKEDYNAMIC || ClassWeaver.isJdk(owner)) {
      return false;
    }
    MethodInfo m = resolve(owner, name, desc);
    if (m == null || ClassWeaver.isJdk(m.owner())) {
      return false;
    }
    ClassInfo declaring = find(m.owner());
    if (declaring == null || (opcode == Opcodes.INVOKESTATIC) != ((m.access() & Opcodes.ACC_STATIC) != 0)) {
      return false;
    }
    MethodInfo entry = declaring.methods.get(name + StackEntries.desc(desc));
    if (declaring.woven) {
      return entry != null && (entry.access() & Opcodes.ACC_SYNTHETIC) != 0;
    }
    return entry == null
        && StackEntries.qualifies(declaring.access, m.access(), name, m.suspendable(), m.primitive())
        && callsSuspendable(m);
  }

  /**
   * Whether a call to a hand-written primitive can pass the caller's stack and flow: the
   * primitive's class declares {@code name(args..., Stack, byte)} beside it, annotated as a
   * primitive and declared {@code throws Suspendable} too, with the same access and
   * staticness, and bound to that one method at weave time (static, private, final, or in a
   * final class), so that a virtual call cannot land in a subclass's override of the one
   * without the other.
   *
   * @param opcode the call's opcode
   * @return true when the call may go to the primitive's stack entry
   */
  public boolean hasPrimitiveEntry(int opcode, String owner, String name, String desc) {
    if (opcode == Opcodes.INVOKEINTERFACE || opcode == Opcodes.INVOKEDYNAMIC || ClassWeaver.isJdk(owner)) {
      return false;
    }
    MethodInfo m = resolve(owner, name, desc);
    if (m == null || !m.primitive() || ClassWeaver.isJdk(m.owner())) {
      return false;
    }
    ClassInfo declaring = find(m.owner());
    boolean isStatic = (m.access() & Opcodes.ACC_STATIC) != 0;
    if (declaring == null || (opcode == Opcodes.INVOKESTATIC) != isStatic) {
      return false;
    }
    MethodInfo entry = declaring.methods.get(name + StackEntries.desc(desc));
    int kind = Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED | Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC;
    if (entry == null || !entry.primitive() || (entry.access() & kind) != (m.access() & kind)) {
      return false;
    }
    return (entry.access() & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0
        || (declaring.access & Opcodes.ACC_FINAL) != 0;
  }

  /*
   * Whether the weaver will weave the method: it calls a suspendable method, as ClassWeaver
   * finds its call sites. A method that calls none is left as compiled and gets no stack entry:
   * it has no entry test for the stack to save.
   */
  private boolean callsSuspendable(MethodInfo m) {
    List<String> c = m.calls();
    for (int i = 0; i < c.size(); i += 3) {
      if (isSuspendable(c.get(i), c.get(i + 1), c.get(i + 2))) {
        return true;
      }
    }
    return false;
  }

  /*
   * A final field of a class file of version 53 (Java 9) or later is written only by its own
   * class's constructors (<init> for an instance field, <clinit> for a static one): the JVM
   * refuses a putfield or putstatic on it from any other method. Older class files may write it
   * from any method of the class, so their fields do not count. JDK classes do not count either:
   * the JDK changes some of its static finals (System.out through System.setOut).
   */
  private static final int FINAL_ENFORCED = 53;

  /**
   * Whether a field read by {@code getfield} or {@code getstatic} reads a field that keeps its
   * value once set: it resolves (as the JVM resolves fields) to a {@code final} field, static
   * as the opcode says, of a class outside the JDK whose class file is of version 53 or later.
   * A {@code volatile} field is never final.
   *
   * @param opcode {@code GETFIELD} or {@code GETSTATIC}
   * @return false when the field is not final or cannot be found
   */
  public boolean isFinalField(int opcode, String owner, String name, String desc) {
    String key = name + ' ' + desc;
    ClassInfo declaring = resolveField(owner, key, new ArrayList<>());
    if (declaring == null || declaring == MISSING || ClassWeaver.isJdk(declaring.name)
        || declaring.version < FINAL_ENFORCED) {
      return false;
    }
    int access = declaring.fields.get(key);
    boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
    return (access & Opcodes.ACC_FINAL) != 0 && isStatic == (opcode == Opcodes.GETSTATIC);
  }

  /*
   * JVMS 5.4.3.2: the class itself, then its superinterfaces (recursively), then its superclass.
   * Returns null when no type declares the field and MISSING when a type outside the JDK on the
   * way cannot be read (it might declare it). A JDK type that cannot be read is passed over: a
   * JDK declaration never counts as final here, and if one did shadow the field the read would
   * fail (or read a JDK interface's constant) on the first run, before any suspension.
   */
  private ClassInfo resolveField(String type, String key, List<String> seen) {
    if (type == null || type.startsWith("[") || seen.contains(type)) {
      return null;
    }
    seen.add(type);
    ClassInfo info = find(type);
    if (info == null) {
      return ClassWeaver.isJdk(type) ? null : MISSING;
    }
    if (info.fields.containsKey(key)) {
      return info;
    }
    for (String itf : info.interfaces) {
      ClassInfo found = resolveField(itf, key, seen);
      if (found != null) {
        return found;
      }
    }
    return resolveField(info.superName, key, seen);
  }

  /** @return true if the call target is declared {@code throws Suspendable} */
  public boolean isSuspendable(String owner, String name, String desc) {
    MethodInfo m = resolve(owner, name, desc);
    return m != null && m.suspendable();
  }

  /**
   * Lists the methods in the supertypes of {@code className} that a method named
   * {@code name + desc} of it overrides.
   */
  public List<MethodInfo> overridden(String className, String name, String desc) {
    List<MethodInfo> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    ClassInfo self = find(className);
    if (self == null) {
      return out;
    }
    if (self.superName != null) {
      collectOverridden(self.superName, name + desc, out, seen);
    }
    for (String itf : self.interfaces) {
      collectOverridden(itf, name + desc, out, seen);
    }
    return out;
  }

  private void collectOverridden(String type, String key, List<MethodInfo> out, List<String> seen) {
    if (seen.contains(type)) {
      return;
    }
    seen.add(type);
    ClassInfo info = find(type);
    if (info == null) {
      return;
    }
    MethodInfo m = info.methods.get(key);
    if (m != null && (m.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC)) == 0) {
      out.add(m);
    }
    if (info.superName != null) {
      collectOverridden(info.superName, key, out, seen);
    }
    for (String itf : info.interfaces) {
      collectOverridden(itf, key, out, seen);
    }
  }

  /** @return true if {@code type} is an interface; unknown types count as classes */
  public boolean isInterface(String type) {
    ClassInfo info = find(type);
    return info != null && info.isInterface();
  }

  /** @return the superclass of {@code type}, or null for Object, interfaces and unknown types */
  public String superName(String type) {
    ClassInfo info = find(type);
    if (info == null) {
      return "java/lang/Object".equals(type) ? null : "java/lang/Object";
    }
    return info.superName;
  }

  /** @return true if {@code sub} is {@code sup} or a subclass or implementation of it */
  public boolean isSubtype(String sub, String sup) {
    if (sub.equals(sup) || "java/lang/Object".equals(sup)) {
      return true;
    }
    ClassInfo info = find(sub);
    if (info == null) {
      return false;
    }
    if (info.superName != null && isSubtype(info.superName, sup)) {
      return true;
    }
    for (String itf : info.interfaces) {
      if (isSubtype(itf, sup)) {
        return true;
      }
    }
    return false;
  }

  /** @return the most specific common superclass, as the verifier computes it */
  public String commonSuperClass(String a, String b) {
    if (isSubtype(a, b)) {
      return b;
    }
    if (isSubtype(b, a)) {
      return a;
    }
    if (isInterface(a) || isInterface(b)) {
      return "java/lang/Object";
    }
    String c = a;
    do {
      c = superName(c);
      if (c == null) {
        return "java/lang/Object";
      }
    } while (!isSubtype(b, c));
    return c;
  }
}
