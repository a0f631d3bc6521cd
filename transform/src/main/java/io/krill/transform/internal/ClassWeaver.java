package io.krill.transform.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;

/**
 * Checks one class against the rules of suspendable code and weaves its suspendable methods.
 *
 * <p>Stateless apart from the shared {@link ClassHierarchy}; safe to use from many threads.
 */
public final class ClassWeaver {
  private final ClassHierarchy hierarchy;

  /** @param hierarchy answers class relations without loading classes */
  public ClassWeaver(ClassHierarchy hierarchy) {
    this.hierarchy = hierarchy;
  }

  /** A lambda or method reference site: which method implements which interface method. */
  private record LambdaSite(MethodNode enclosing, AbstractInsnNode insn, String samOwner, String samName,
      String samDesc) {}

  /**
   * Weaves a class file.
   *
   * @param original the class file
   * @return the woven class file, or null when the class has nothing to weave or is woven already
   * @throws WeaveFailure when the class breaks a rule of suspendable code
   */
  public byte[] weave(byte[] original) {
    ClassNode cn = new ClassNode();
    new ClassReader(original).accept(cn, ClassReader.SKIP_FRAMES);
    for (FieldNode f : cn.fields) {
      if (Names.WOVEN_FIELD.equals(f.name)) {
        checkAbi(cn.name, f.value);
        return null;
      }
    }
    hierarchy.add(original);

    Map<MethodNode, List<MethodInsnNode>> calls = new LinkedHashMap<>();
    for (MethodNode m : cn.methods) {
      if (m.instructions.size() == 0 || isPrimitive(m)) {
        continue;
      }
      List<MethodInsnNode> sites = new ArrayList<>();
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof MethodInsnNode) {
          MethodInsnNode call = (MethodInsnNode) insn;
          if (!isJdk(call.owner) && hierarchy.isSuspendable(call.owner, call.name, call.desc)) {
            sites.add(call);
          }
        }
      }
      if (!sites.isEmpty()) {
        calls.put(m, sites);
      }
    }

    Map<String, LambdaSite> lambdaBodies = new HashMap<>();
    List<MethodNode> referenceBodies = new ArrayList<>();
    for (MethodNode m : cn.methods) {
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof InvokeDynamicInsnNode) {
          checkLambdaSite(cn, m, (InvokeDynamicInsnNode) insn, calls, lambdaBodies, referenceBodies);
        }
      }
    }
    for (MethodNode body : referenceBodies) {
      cn.methods.add(body);
      List<MethodInsnNode> sites = new ArrayList<>();
      for (AbstractInsnNode insn : body.instructions) {
        if (insn instanceof MethodInsnNode && MethodReferences.isTargetCall((MethodInsnNode) insn)) {
          sites.add((MethodInsnNode) insn);
        }
      }
      calls.put(body, sites);
    }

    for (MethodNode m : cn.methods) {
      if (!isPrimitive(m)) {
        checkOverride(cn, m);
      }
    }

    List<MethodNode> toWeave = new ArrayList<>();
    for (Map.Entry<MethodNode, List<MethodInsnNode>> e : calls.entrySet()) {
      MethodNode m = e.getKey();
      MethodInsnNode first = e.getValue().get(0);
      checkPlacement(cn, m, e.getValue());
      boolean declared = declaresSuspendable(m);
      boolean bridge = (m.access & (Opcodes.ACC_BRIDGE | Opcodes.ACC_SYNTHETIC)) != 0;
      LambdaSite lambda = lambdaBodies.get(m.name + m.desc);
      if (!declared && lambda == null && !bridge) {
        throw new WeaveFailure(cn.name, m.name, m.desc, lineOf(first),
            "calls suspendable " + describe(first) + " but is not declared 'throws Suspendable'"
                + " (a broader throws clause such as 'throws Exception', or a catch of Exception or Throwable,"
                + " hides it); add 'throws Suspendable'");
      }
      toWeave.add(m);
    }
    if (toWeave.isEmpty()) {
      return null;
    }

    java.util.function.Predicate<MethodInsnNode> passesStack =
        call -> hierarchy.hasStackEntry(call.getOpcode(), call.owner, call.name, call.desc);
    boolean lazy = lazyResume();
    String version = version(original) + ABI_TAG + Names.WOVEN_ABI + (lazy ? Names.LAZY_RESUME : "");
    StringBuilder marker = new StringBuilder(version);
    StringBuilder lines = new StringBuilder(cn.sourceFile == null ? "" : cn.sourceFile.replace("|", ""));
    List<MethodNode> added = new ArrayList<>();
    List<ResumeEntries.Target> entries = new ArrayList<>();
    for (MethodNode m : toWeave) {
      String frameId = cn.name + "." + m.name + m.desc + "#" + version;
      String key = m.name + m.desc;
      String desc = m.desc; // as compiled: a stack entry's split changes m's
      Set<AbstractInsnNode> sites = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
      sites.addAll(calls.get(m));
      MethodInsnNode first = calls.get(m).get(0);
      boolean pure = sites.size() == 1 && Forwarders.isPure(m, first, hierarchy);
      marker.append('|').append(m.name).append(m.desc);
      int stackParam = -1;
      if (StackEntries.qualifies(cn.access, m.access, m.name, declaresSuspendable(m), false)
          && !declares(cn, m.name, StackEntries.desc(m.desc))) {
        stackParam = StackEntries.stackSlot(m.access, m.desc);
        added.add(StackEntries.split(cn.name, m));
        marker.append('|').append(m.name).append(m.desc);
      }
      if (!pure) {
        entries.add(new ResumeEntries.Target(m.name, desc, m.access, stackParam >= 0 ? m.desc : null));
        MethodWeaver weaver = new MethodWeaver(hierarchy, cn, m, sites, frameId, stackParam, passesStack);
        weaver.weave();
        lines.append('|').append(key).append(':');
        List<Integer> at = weaver.siteLines();
        for (int i = 0; i < at.size(); i++) {
          lines.append(i == 0 ? "" : ",").append(at.get(i));
        }
      } else if (stackParam >= 0 && (passesStack.test(first)
          || hierarchy.hasPrimitiveEntry(first.getOpcode(), first.owner, first.name, first.desc))) {
        m.instructions.insertBefore(first, new VarInsnNode(Opcodes.ALOAD, stackParam));
        m.instructions.insertBefore(first, new VarInsnNode(Opcodes.ILOAD, stackParam + 1)); // a resume passes through
        first.desc = StackEntries.desc(first.desc);
      }
    }
    cn.methods.addAll(added);
    if (lazy && !entries.isEmpty() && ResumeEntries.fits(cn.access, cn.version)) {
      cn.methods.addAll(ResumeEntries.build(cn.name, entries));
      marker.append('|').append(Names.ENTER).append(Names.ENTER_DESC); // a suspension passes through it
    }
    int fieldAccess = Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC;
    cn.fields.add(new FieldNode(fieldAccess, Names.WOVEN_FIELD, "Ljava/lang/String;", null, marker.toString()));
    String table = lines.toString();
    if (table.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 65535) { // a constant's limit; without the table, traces and dumps name no lines
      cn.fields.add(new FieldNode(fieldAccess, Names.LINES_FIELD, "Ljava/lang/String;", null, table));
    }

    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
      @Override
      protected String getCommonSuperClass(String a, String b) {
        return hierarchy.commonSuperClass(a, b);
      }
    };
    try {
      cn.accept(cw);
      return cw.toByteArray();
    } catch (MethodTooLargeException e) {
      throw tooLarge(cn, e, calls);
    } catch (RuntimeException e) {
      if (e instanceof WeaveFailure) {
        throw e;
      }
      throw new WeaveFailure(cn.name, null, null, -1, "cannot write the woven class: " + e);
    }
  }

  /*
   * A woven method saves and restores each live local at each suspendable call site, so its
   * code grows with sites x live locals; past 64 KiB say which method and what to change.
   */
  private static WeaveFailure tooLarge(ClassNode cn, MethodTooLargeException e,
      Map<MethodNode, List<MethodInsnNode>> calls) {
    for (Map.Entry<MethodNode, List<MethodInsnNode>> entry : calls.entrySet()) {
      MethodNode m = entry.getKey();
      if (m.name.equals(e.getMethodName()) && m.desc.equals(e.getDescriptor())) {
        String desc = StackEntries.isEntry(m) ? StackEntries.originalDesc(m.desc) : m.desc; // the name users wrote
        return new WeaveFailure(cn.name, m.name, desc, lineOf(entry.getValue().get(0)),
            "woven, the method needs " + e.getCodeSize() + " bytes of code, over the JVM's limit of 65535:"
                + " each of its " + entry.getValue().size() + " suspendable calls saves and restores every local"
                + " that is live across it; split the method, or keep fewer locals live across suspendable calls");
      }
    }
    return new WeaveFailure(cn.name, e.getMethodName(), e.getDescriptor(), -1,
        "cannot write the woven class: " + e.getMessage());
  }

  private void checkLambdaSite(ClassNode cn, MethodNode enclosing, InvokeDynamicInsnNode indy,
      Map<MethodNode, List<MethodInsnNode>> calls, Map<String, LambdaSite> lambdaBodies,
      List<MethodNode> referenceBodies) {
    Handle bsm = indy.bsm;
    if (!"java/lang/invoke/LambdaMetafactory".equals(bsm.getOwner()) || indy.bsmArgs.length < 3
        || !(indy.bsmArgs[1] instanceof Handle) || !(indy.bsmArgs[0] instanceof Type)) {
      return;
    }
    Handle impl = (Handle) indy.bsmArgs[1];
    String samOwner = Type.getReturnType(indy.desc).getInternalName();
    String samDesc = ((Type) indy.bsmArgs[0]).getDescriptor();
    boolean samSuspendable = hierarchy.isSuspendable(samOwner, indy.name, samDesc);
    LambdaSite site = new LambdaSite(enclosing, indy, samOwner, indy.name, samDesc);

    MethodNode local = null;
    if (impl.getOwner().equals(cn.name)) {
      for (MethodNode m : cn.methods) {
        if (m.name.equals(impl.getName()) && m.desc.equals(impl.getDesc())) {
          local = m;
        }
      }
    }
    boolean implSuspends;
    String what;
    if (local != null && (local.access & Opcodes.ACC_SYNTHETIC) != 0) {
      List<MethodInsnNode> sites = calls.get(local);
      implSuspends = sites != null;
      what = implSuspends ? "a lambda body that calls suspendable " + describe(sites.get(0)) : null;
      if (implSuspends && samSuspendable) {
        lambdaBodies.put(local.name + local.desc, site);
      }
      if (implSuspends && !samSuspendable) {
        throw new WeaveFailure(cn.name, enclosing.name, enclosing.desc, lineOf(sites.get(0)),
            what + " implements " + samOwner.replace('/', '.') + "." + indy.name + samDesc
                + ", which is not declared 'throws Suspendable'; use a suspendable interface such as"
                + " io.krill.fibers.SuspendableRunnable, or declare 'throws Suspendable' on the interface method");
      }
      return;
    }
    implSuspends = !isJdk(impl.getOwner()) && hierarchy.isSuspendable(impl.getOwner(), impl.getName(), impl.getDesc());
    if (implSuspends && !samSuspendable) {
      throw new WeaveFailure(cn.name, enclosing.name, enclosing.desc, lineOf(indy),
          "method reference to suspendable " + impl.getOwner().replace('/', '.') + "." + impl.getName() + impl.getDesc()
              + " implements " + samOwner.replace('/', '.') + "." + indy.name + samDesc
              + ", which is not declared 'throws Suspendable'; use a suspendable interface such as"
              + " io.krill.fibers.SuspendableRunnable, or declare 'throws Suspendable' on the interface method");
    }
    if (implSuspends && impl.getTag() != Opcodes.H_NEWINVOKESPECIAL) {
      MethodNode body = MethodReferences.body(cn, impl, Type.getArgumentTypes(indy.desc), (Type) indy.bsmArgs[2],
          "lambda$krill$ref$" + (referenceBodies.size()));
      indy.bsmArgs[1] = new Handle(Opcodes.H_INVOKESTATIC, cn.name, body.name, body.desc,
          (cn.access & Opcodes.ACC_INTERFACE) != 0);
      referenceBodies.add(body);
    }
  }

  /*
   * A bridge overrides through erasure (Callable<String>.call()Object forwarding to
   * call()String); it is checked in the name of the method it forwards to, so generic
   * overrides follow the same rule as exact ones.
   */
  private void checkOverride(ClassNode cn, MethodNode m) {
    if ((m.access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) != 0 || m.name.startsWith("<")) {
      return;
    }
    MethodNode subject = m;
    if ((m.access & Opcodes.ACC_BRIDGE) != 0) {
      subject = bridgeTarget(cn, m);
      if (subject == null) {
        return;
      }
    } else if ((m.access & Opcodes.ACC_SYNTHETIC) != 0) {
      return;
    }
    boolean declared = declaresSuspendable(subject);
    for (ClassHierarchy.MethodInfo sup : hierarchy.overridden(cn.name, m.name, m.desc)) {
      if (sup.suspendable() == declared) {
        continue;
      }
      String other = sup.owner().replace('/', '.') + "." + m.name + m.desc;
      int line = firstLine(subject);
      if (declared) {
        throw new WeaveFailure(cn.name, subject.name, subject.desc, line,
            "is declared 'throws Suspendable' but overrides " + other + ", which is not, so callers through "
                + other + " cannot suspend; declare 'throws Suspendable' there too, or remove it here");
      }
      throw new WeaveFailure(cn.name, subject.name, subject.desc, line,
          "overrides suspendable " + other + " but is not declared 'throws Suspendable'; declare it, so that"
              + " every implementation of the method may suspend");
    }
  }

  private static MethodNode bridgeTarget(ClassNode cn, MethodNode bridge) {
    for (AbstractInsnNode insn : bridge.instructions) {
      if (insn instanceof MethodInsnNode) {
        MethodInsnNode call = (MethodInsnNode) insn;
        if (call.owner.equals(cn.name) && call.name.equals(bridge.name)) {
          for (MethodNode candidate : cn.methods) {
            if (candidate.name.equals(call.name) && candidate.desc.equals(call.desc)
                && (candidate.access & Opcodes.ACC_BRIDGE) == 0) {
              return candidate;
            }
          }
        }
      }
    }
    return null;
  }

  /** @return the first source line of a method's body, or -1 */
  static int firstLine(MethodNode m) {
    for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
      if (n instanceof LineNumberNode) {
        return ((LineNumberNode) n).line;
      }
    }
    return -1;
  }

  private void checkPlacement(ClassNode cn, MethodNode m, List<MethodInsnNode> sites) {
    MethodInsnNode first = sites.get(0);
    if ("<init>".equals(m.name)) {
      throw new WeaveFailure(cn.name, m.name, m.desc, lineOf(first),
          "calls suspendable " + describe(first) + " in a constructor, which cannot suspend;"
              + " move the call into a method or static factory that runs after construction");
    }
    if ("<clinit>".equals(m.name)) {
      throw new WeaveFailure(cn.name, m.name, m.desc, lineOf(first),
          "calls suspendable " + describe(first) + " in a static initializer, which cannot suspend;"
              + " initialize lazily from a suspendable method instead");
    }
    if ((m.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
      throw new WeaveFailure(cn.name, m.name, m.desc, lineOf(first),
          "calls suspendable " + describe(first) + " in a synchronized method, which would hold the monitor"
              + " while suspended; use a fiber-aware io.krill.fibers lock instead of synchronized");
    }
    AbstractInsnNode inMonitor = suspendsUnderMonitor(cn, m, sites);
    if (inMonitor != null) {
      throw new WeaveFailure(cn.name, m.name, m.desc, lineOf(inMonitor),
          "calls suspendable " + describe((MethodInsnNode) inMonitor) + " inside a synchronized block, which would"
              + " hold the monitor while suspended; use a fiber-aware io.krill.fibers lock instead of synchronized");
    }
  }

  /*
   * Forward dataflow of the number of monitors held; javac's blocks are balanced on every path.
   * An exception edge leaves from before the instruction (a throwing monitorenter holds
   * nothing new) and goes only to the handlers that can catch first: the covering handlers in
   * table order up to the first catch-all, which is how javac's synchronized handler shields
   * the outer handlers. Depths are capped at the number of monitorenters so that code that is
   * not balanced still terminates (and counts as holding a monitor).
   */
  private static AbstractInsnNode suspendsUnderMonitor(ClassNode cn, MethodNode m, List<MethodInsnNode> sites) {
    int enters = 0;
    for (AbstractInsnNode insn : m.instructions) {
      enters += insn.getOpcode() == Opcodes.MONITORENTER ? 1 : 0;
    }
    if (enters == 0) {
      return null;
    }
    int n = m.instructions.size();
    List<List<Integer>> succ = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      succ.add(new ArrayList<>(2));
    }
    Analyzer<BasicValue> analyzer = new Analyzer<>(new BasicInterpreter()) {
      @Override
      protected void newControlFlowEdge(int insn, int successor) {
        succ.get(insn).add(successor);
      }
    };
    try {
      analyzer.analyze(cn.name, m);
    } catch (AnalyzerException e) {
      throw new WeaveFailure(cn.name, m.name, m.desc, lineOf(e.node), "cannot analyse the method: " + e.getMessage());
    }
    List<List<Integer>> handlers = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      List<Integer> hs = new ArrayList<>(1);
      for (org.objectweb.asm.tree.TryCatchBlockNode tcb : m.tryCatchBlocks) {
        int from = m.instructions.indexOf(tcb.start);
        int to = m.instructions.indexOf(tcb.end);
        if (i >= from && i < to) {
          hs.add(m.instructions.indexOf(tcb.handler));
          if (tcb.type == null) {
            break;
          }
        }
      }
      handlers.add(hs);
    }
    int[] depth = new int[n];
    java.util.Arrays.fill(depth, -1);
    ArrayDeque<Integer> work = new ArrayDeque<>();
    depth[0] = 0;
    work.add(0);
    while (!work.isEmpty()) {
      int i = work.poll();
      int op = m.instructions.get(i).getOpcode();
      int before = depth[i];
      int after = Math.min(enters, Math.max(0, before + (op == Opcodes.MONITORENTER ? 1 : op == Opcodes.MONITOREXIT ? -1 : 0)));
      for (int s : succ.get(i)) {
        if (depth[s] < after) {
          depth[s] = after;
          work.add(s);
        }
      }
      if (op >= 0) {
        for (int h : handlers.get(i)) {
          if (depth[h] < before) {
            depth[h] = before;
            work.add(h);
          }
        }
      }
    }
    for (MethodInsnNode call : sites) {
      if (depth[m.instructions.indexOf(call)] > 0) {
        return call;
      }
    }
    return null;
  }

  private static boolean declares(ClassNode cn, String name, String desc) {
    for (MethodNode m : cn.methods) {
      if (m.name.equals(name) && m.desc.equals(desc)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isPrimitive(MethodNode m) {
    return hasAnnotation(m.visibleAnnotations) || hasAnnotation(m.invisibleAnnotations);
  }

  private static boolean hasAnnotation(List<AnnotationNode> annotations) {
    if (annotations != null) {
      for (AnnotationNode a : annotations) {
        if (Names.PRIMITIVE_DESC.equals(a.desc)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean declaresSuspendable(MethodNode m) {
    return m.exceptions != null && m.exceptions.contains(Names.SUSPENDABLE);
  }

  static boolean isJdk(String owner) {
    return owner.startsWith("java/") || owner.startsWith("javax/") || owner.startsWith("jdk/")
        || owner.startsWith("sun/") || owner.startsWith("[");
  }

  private static String describe(MethodInsnNode call) {
    return call.owner.replace('/', '.') + "." + call.name + call.desc;
  }

  /** @return the source line of the instruction, or -1 */
  static int lineOf(AbstractInsnNode insn) {
    for (AbstractInsnNode n = insn; n != null; n = n.getPrevious()) {
      if (n instanceof LineNumberNode) {
        return ((LineNumberNode) n).line;
      }
    }
    return -1;
  }

  /** The build-time property that weaves classes for lazy resume: true (the default) or false. */
  static final String LAZY_RESUME_PROPERTY = "krill.weave.lazyResume";

  /** @throws IllegalArgumentException naming the property, for a value other than true or false */
  static boolean lazyResume() {
    String v = System.getProperty(LAZY_RESUME_PROPERTY, "true").trim();
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    if (v.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(LAZY_RESUME_PROPERTY + ": " + v + " (expected: true or false)");
  }

  /** Separates a woven class's version hash from its woven ABI: "hash/abi3". */
  private static final String ABI_TAG = "/abi";

  /*
   * A class that carries the marker is woven already and comes back unchanged, but only if
   * this weaver's ABI wove it. Classes woven by an older weaver (left in target/classes by an
   * incremental build) would otherwise pass as woven and fail at run time with a
   * NoSuchFieldError, or hang; re-weaving them is impossible (the woven code is in the way),
   * so the build stops with one line that says what to do.
   */
  /**
   * Whether a woven class holds resume entries of an earlier shape (a {@code $krill$enter} that
   * does not take the stack): the runtime then resumes its frames through a method handle, which
   * is correct but slower, until the class is woven again from its compiled form.
   *
   * @param classFile a class file, woven or not
   * @return true if its woven marker lists a {@code $krill$enter} of another descriptor
   */
  public static boolean hasOlderResumeEntries(byte[] classFile) {
    if (!contains(classFile, OLDER_ENTRY_HINT)) { // most classes: no woven marker naming an entry; skip the parse
      return false;
    }
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, ClassReader.SKIP_CODE);
    for (FieldNode f : cn.fields) {
      if (Names.WOVEN_FIELD.equals(f.name)) {
        String marker = String.valueOf(f.value);
        return marker.contains("|" + Names.ENTER + "(") && !marker.contains("|" + Names.ENTER + Names.ENTER_DESC);
      }
    }
    return false;
  }

  /* What a woven marker holds when it lists an entry: ASCII, so the same bytes in the constant pool. */
  private static final byte[] OLDER_ENTRY_HINT =
      ("|" + Names.ENTER + "(").getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0, last = haystack.length - needle.length; i <= last; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static void checkAbi(String className, Object marker) {
    String version = String.valueOf(marker);
    int bar = version.indexOf('|');
    if (bar >= 0) {
      version = version.substring(0, bar);
    }
    int tag = version.lastIndexOf(ABI_TAG);
    String abi = tag < 0 ? "1" : version.substring(tag + ABI_TAG.length());
    if (abi.endsWith(Names.LAZY_RESUME)) { // the same ABI, frames that can also be resumed lazily
      abi = abi.substring(0, abi.length() - Names.LAZY_RESUME.length());
    }
    if (!abi.equals(Integer.toString(Names.WOVEN_ABI))) {
      throw new WeaveFailure(className, null, null, -1, "woven by another krill weaver (woven ABI " + abi
          + ", this weaver's is " + Names.WOVEN_ABI + "); rebuild clean (mvn clean) so that it is woven from"
          + " the compiled class");
    }
  }

  private static String version(byte[] original) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(original);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 8; i++) {
        sb.append(String.format("%02x", d[i]));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      return Integer.toHexString(new String(original, StandardCharsets.ISO_8859_1).hashCode());
    }
  }
}
