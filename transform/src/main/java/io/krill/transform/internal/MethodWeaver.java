package io.krill.transform.internal;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Rewrites one suspendable method into a resumable state machine.
 *
 * <p>One instance per method; not thread-safe.
 */
final class MethodWeaver {
  /*
   * Implementation notes.
   *
   * The woven method has four parts:
   *
   * 1. Entry: s = Stack.current(); if (s.flow > 0) goto DISPATCH (restoring); a stack entry
   *    has s and its caller's flow as parameters and tests the flow. Then the original code.
   * 2. Each suspendable call site i. A call with a receiver first spills its arguments and
   *    receiver into reserved locals (the JIT turns these moves into nothing), so the
   *    receiver can be saved if the callee captures. RESUME_i labels the reload of the
   *    spilled values (or, for static calls, the call itself). After the call:
   *    if (s.flow < 0) goto CAPTURE_i (capturing). Both tests are one byte load and one
   *    branch on its sign (IFLT, IFGT): no compare against a constant on the hot path.
   * 3. CAPTURE_i (appended, outside every try range): pops the dummy result, moves the
   *    operand stack below the call into scratch locals, calls Stack.reserveFrame (the only
   *    call: it takes the frame's room on both arrays, growing them, and writes the header
   *    and frame id at the top) and stores, at fixed offsets from the frame's bases, the
   *    operand stack (top first), the live locals and the receiver; returns a dummy value.
   *    Plain array stores (primitives) and Stack.putRef (references: a store only when the
   *    slot holds another value, so a frame saved again where it was saved before runs no
   *    write barrier for what did not change; C2 inlines it) instead of a call per value keep
   *    the capture path small when C2 inlines it (it is hot in a loop that suspends often).
   * 4. DISPATCH and RESTORE_i (appended): Stack.openFrame takes the frame off the store
   *    (checking its id) and returns the resume index for a tableswitch; RESTORE_i reads the
   *    receiver, locals and stack at the same offsets from the store's new tops (plain array
   *    loads; the slots keep their values until the next capture saves over them or clears
   *    them, see Stack.runStack), fills argument slots with zeros and
   *    nulls (the callee restores its own locals and ignores them), and calls the callee
   *    again so that it restores in turn, mostly from a call instruction of its own (covered
   *    by the call site's handlers), then goes on after the normal call (AFTER_i). To a stack
   *    entry that call passes flow 1 and the normal one the constant 0: where the JIT inlines
   *    the normal call, the callee's restore path is gone from the compiled caller (in a loop
   *    it was a call returning into the loop, which C2 spilled around). If the restore's call
   *    suspends again and the frames below end where this frame begins, the frame is still
   *    whole in the store and is saved again by moving the tops over it (waitingAgain);
   *    otherwise AFTER_i's test takes the full capture. A call to a primitive (it never
   *    suspends again on its restore), and inside a loop a call to a callee without a stack
   *    entry (an interface call), is made again by jumping to RESUME_i instead: the latter
   *    keeps a small loop method within what C2 inlines (FreqInlineSize).
   * 5. Loops stay reducible. A jump from DISPATCH straight to a RESUME_i inside a loop would
   *    give the loop a second entry, and C2 compiles such an irreducible loop slowly and
   *    badly. So a restore whose call site lies in loops enters each of them through its
   *    header: DISPATCH stores the resume index in a local (-1 on a normal entry, reset by
   *    every RESTORE_i) and jumps to the call site's ENTER_i_h of the outermost loop. That
   *    block restores the saved locals live at every header on the way in (a counter, the
   *    array walked: so they enter the loop as one value, and C2 keeps its induction
   *    variables and hoisted range checks), gives the other locals and stack slots live at
   *    the header zeros of their types (so the verifier's merge there keeps them typed) and
   *    jumps to the header. Each such header starts with
   *    `if (resumeIndex >= 0) goto LOOP_DISPATCH_h`: one test of a local per iteration.
   *    LOOP_DISPATCH_h drops the zeroed stack slots and switches to the next inner loop's
   *    ENTER_i_h or to RESTORE_i, which restores what is left. Every block on that path is
   *    dominated by the loop's header.
   *    A method whose graph javac already made irreducible keeps the direct jump.
   *    Where the copies fit, no header test is needed: RESTORE_i goes on in a copy of the
   *    rest of the iteration (IterationCopies: from AFTER_i, or RESUME_i for a call without a
   *    stack entry, and from the handlers of RESTORE_i's own call; an inner loop's header
   *    reached from there starts a copy of that loop whole), whose jumps to the outermost
   *    header go to the original header. The loops then keep one entry, no header test and
   *    nothing of the restore (C2 still keeps each call's flow test in them, and does not
   *    unroll a loop whose call may suspend, so they are not as fast as the unwoven loops: see
   *    docs/transform.md). The copies are bounded
   *    per method (IterationCopies.MAX_COPIED); beyond it the header tests stay.
   *
   * Parameters are never saved: on restore the caller passes the saved receiver and dummy
   * arguments, and each frame re-reads its own saved locals, so only `this` (slot 0) must be
   * right, and the caller supplies it. Values typed null are not saved: restore pushes
   * aconst_null. Dead locals are not saved (backward liveness over normal and exception
   * edges). Uninitialized objects cannot be saved, so a `new X(..suspend..)` is first
   * rewritten to evaluate the arguments into locals before `new X; dup`.
   *
   * Frames are recomputed by ClassWriter.COMPUTE_FRAMES with the same hierarchy the analysis
   * used, so the types restored with checkcast are the types the verifier expects. A merged
   * type this class may not name (a package-private common superclass) is cast to its nearest
   * accessible superclass instead, which every later use of the value accepts.
   *
   * A method reference to a suspendable method never reaches here as such: ClassWeaver first
   * rewrites it into a synthetic lambda body (MethodReferences), so the metafactory's hidden
   * frame only forwards arguments and never uses the dummy ones passed on resume.
   */
  /** Which capture and restore calls go to the runtime's cold, never-inlined variants. */
  enum ColdFrames {
    /** None: C2 inlines every hot capture and restore. */
    NONE,
    /** The restore of every method. */
    RESTORE,
    /** The restore of a method with a site inside a loop. */
    LOOP_RESTORE,
    /** The capture of a site inside a loop, and the restore of a method with such a site. */
    LOOPS,
    /**
     * Every capture and the restore of a method with no site inside a loop: the small methods
     * C2 inlines into a caller's loop, where their rare paths would become part of that loop.
     */
    NO_LOOP,
    /** Every capture and restore. */
    ALL;

    /** The build-time property that chooses; its values are the constants' names in lower case, '-' for '_'. */
    static final String PROPERTY = "krill.weave.coldFrames";

    static ColdFrames fromProperty() {
      return parse(System.getProperty(PROPERTY, "none"));
    }

    /** @throws IllegalArgumentException naming the property, for a value that names no choice */
    static ColdFrames parse(String v) {
      for (ColdFrames c : values()) {
        if (c.name().replace('_', '-').equalsIgnoreCase(v)) {
          return c;
        }
      }
      throw new IllegalArgumentException(PROPERTY + ": " + v + " (expected: none, restore, loop-restore, loops, no-loop or all)");
    }

    boolean coldCapture(boolean inLoop, boolean anyInLoop) {
      return this == ALL || (this == LOOPS && inLoop) || (this == NO_LOOP && !anyInLoop);
    }

    boolean coldRestore(boolean anyInLoop) {
      return this == ALL || this == RESTORE || ((this == LOOPS || this == LOOP_RESTORE) && anyInLoop)
          || (this == NO_LOOP && !anyInLoop);
    }
  }

  /** The most call sites a method may have: the resume indices above are the runtime's (see Stack). */
  static final int MAX_SITES = 0x7FFC;

  private final ColdFrames cold = ColdFrames.fromProperty(); // per weave: a bad value fails each, not the class's initialization

  private final ClassHierarchy hierarchy;
  private final ClassNode owner;
  private final MethodNode method;
  private final Set<AbstractInsnNode> calls;
  private final String frameId;
  private final int stackParam;
  private final java.util.function.Predicate<MethodInsnNode> passesStack;
  /** Woven for lazy resume (the frame id's version says so): see {@link Names#LAZY_RESUME}. */
  private final boolean lazy;
  private int nextLocal;
  private Scratch scratch;
  /** The source line of each resume index's call site (-1 where unknown), once woven. */
  private final List<Integer> siteLines = new ArrayList<>();

  /**
   * @param stackParam the slot of the method's stack parameter when it is a stack entry
   *     ({@link StackEntries}), or -1 when it looks the stack up at entry
   * @param passesStack whether a suspendable call goes to its callee's stack entry
   */
  MethodWeaver(ClassHierarchy hierarchy, ClassNode owner, MethodNode method, Set<AbstractInsnNode> calls, String frameId,
      int stackParam, java.util.function.Predicate<MethodInsnNode> passesStack) {
    this.hierarchy = hierarchy;
    this.owner = owner;
    this.method = method;
    this.calls = calls;
    this.frameId = frameId;
    this.stackParam = stackParam;
    this.passesStack = passesStack;
    this.lazy = frameId.endsWith(Names.LAZY_RESUME);
  }

  private WeaveFailure fail(AbstractInsnNode at, String reason) {
    String desc = stackParam >= 0 ? StackEntries.originalDesc(method.desc) : method.desc; // the name users wrote
    return new WeaveFailure(owner.name, method.name, desc, ClassWeaver.lineOf(at), reason);
  }

  /** @return the source line of each resume index's call site, -1 where unknown (after {@link #weave}) */
  List<Integer> siteLines() {
    return siteLines;
  }

  void weave() {
    nextLocal = method.maxLocals;
    for (AbstractInsnNode insn : method.instructions) {
      int op = insn.getOpcode();
      if (op == Opcodes.JSR || op == Opcodes.RET) {
        throw fail(insn, "uses jsr/ret subroutines (class files before Java 6); recompile with a current javac");
      }
    }
    relocateNews();
    method.maxLocals = nextLocal;

    InsnList insns = method.instructions;
    AbstractInsnNode[] code = insns.toArray();
    List<int[]> normalEdges = new ArrayList<>();
    List<int[]> exceptionEdges = new ArrayList<>();
    Frame<BasicValue>[] frames = analyze(normalEdges, exceptionEdges);
    BitSet[] liveOut = Liveness.liveOut(code, normalEdges, exceptionEdges, nextLocal);
    boolean writesThis = writesSlotZero(code);
    Copies copies = new Copies(code, method);

    int stackLocal = stackParam >= 0 ? stackParam : nextLocal++;
    int maxArgSlots = 0;
    int maxSpill = 0;
    for (int i = 0; i < code.length; i++) {
      if (calls.contains(code[i])) {
        MethodInsnNode call = (MethodInsnNode) code[i];
        maxArgSlots = Math.max(maxArgSlots, argSlots(call.desc));
        if (frames[i] != null) {
          int below = frames[i].getStackSize() - Type.getArgumentTypes(call.desc).length
              - (call.getOpcode() == Opcodes.INVOKESTATIC ? 0 : 1);
          int size = 0;
          for (int k = 0; k < below; k++) {
            size += frames[i].getStack(k).getSize();
          }
          maxSpill = Math.max(maxSpill, size);
        }
      }
    }
    int recvLocal = nextLocal;
    nextLocal += 1 + maxArgSlots;
    scratch = new Scratch(nextLocal);
    nextLocal += 4 + maxSpill;
    Loops loops = Loops.find(code.length, normalEdges, exceptionEdges);
    List<org.objectweb.asm.tree.TryCatchBlockNode> restoreCalls = new ArrayList<>(); // handlers of the restores' own calls
    Set<Loops.Loop> copied = copiedLoops(loops, code, frames, normalEdges, exceptionEdges);
    List<IterationCopy> iterationCopies = new ArrayList<>(); // the restores that resume through copies
    int resumeLocal = -1; // allocated when a call site inside a loop resumes through its headers
    Map<Loops.Loop, LoopGuard> guards = new LinkedHashMap<>();
    List<LabelNode> entries = new ArrayList<>();

    LabelNode dispatch = new LabelNode();
    InsnList tail = new InsnList();
    List<LabelNode> restores = new ArrayList<>();
    InsnList restoreCode = new InsnList();
    InsnList enterCode = new InsnList();

    int index = 0;
    boolean anyInLoop = false;
    for (int i = 0; i < code.length && loops != null; i++) {
      anyInLoop |= calls.contains(code[i]) && frames[i] != null && !loops.chain(i).isEmpty();
    }
    for (int i = 0; i < code.length; i++) {
      AbstractInsnNode insn = code[i];
      if (!calls.contains(insn)) {
        continue;
      }
      MethodInsnNode call = (MethodInsnNode) insn;
      Frame<BasicValue> frame = frames[i];
      if (frame == null) {
        continue; // unreachable: javac never emits it, and it can never suspend
      }
      boolean hasReceiver = call.getOpcode() != Opcodes.INVOKESTATIC;
      Type[] args = Type.getArgumentTypes(call.desc);
      int consumed = args.length + (hasReceiver ? 1 : 0);
      int below = frame.getStackSize() - consumed;

      List<Slot> stack = new ArrayList<>();
      for (int k = 0; k < below; k++) {
        stack.add(Slot.of(-1, frame.getStack(k), () -> fail(call, "an uninitialized or return-address value is on the operand stack at a suspendable call")));
      }
      BitSet saveSet = liveOut[i];
      List<Slot> locals = new ArrayList<>();
      boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
      for (int slot = saveSet.nextSetBit(0); slot >= 0; slot = saveSet.nextSetBit(slot + 1)) {
        if (slot == 0 && !isStatic && !writesThis) {
          continue;
        }
        if (slot >= frame.getLocals()) {
          continue;
        }
        BasicValue v = frame.getLocal(slot);
        if (v == null || v.getType() == null) {
          continue;
        }
        Slot s = Slot.of(slot, v, () -> fail(call, "local " + v + " cannot be saved at a suspendable call"));
        locals.add(s);
      }

      LabelNode resume = new LabelNode();
      LabelNode capture = new LabelNode();
      LabelNode restore = new LabelNode();
      restores.add(restore);

      // -- call site
      InsnList before = new InsnList();
      if (hasReceiver) {
        int[] argLocals = argLocals(args, recvLocal + 1);
        for (int a = args.length - 1; a >= 0; a--) {
          before.add(new VarInsnNode(args[a].getOpcode(Opcodes.ISTORE), argLocals[a]));
        }
        before.add(new VarInsnNode(Opcodes.ASTORE, recvLocal));
        before.add(resume);
        before.add(new VarInsnNode(Opcodes.ALOAD, recvLocal));
        for (int a = 0; a < args.length; a++) {
          before.add(new VarInsnNode(args[a].getOpcode(Opcodes.ILOAD), argLocals[a]));
        }
      } else {
        before.add(resume);
      }
      boolean entryCall = passesStack.test(call);
      boolean primitiveCall = callsPrimitive(call);
      if (entryCall) { // a normal call: flow 0; the restore calls the entry with 1 from a call of its own
        before.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
        before.add(new InsnNode(Opcodes.ICONST_0));
        call.desc = StackEntries.desc(call.desc);
      } else if (primitiveCall && hierarchy.hasPrimitiveEntry(call.getOpcode(), call.owner, call.name, call.desc)) {
        // A primitive's stack entry: the stack and its flow, read here, since a restore makes this
        // same call again at RESUME_i (with flow 1 then), so the primitive need not look the stack up.
        before.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
        before.add(new InsnNode(Opcodes.DUP));
        before.add(new FieldInsnNode(Opcodes.GETFIELD, Names.STACK, Names.FLOW, "B"));
        call.desc = StackEntries.desc(call.desc);
      }
      insns.insertBefore(call, before);
      LabelNode afterCall = new LabelNode();
      InsnList after = new InsnList();
      after.add(afterCall);
      after.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
      after.add(new FieldInsnNode(Opcodes.GETFIELD, Names.STACK, Names.FLOW, "B"));
      after.add(new JumpInsnNode(Opcodes.IFLT, capture));
      insns.insert(call, after);

      // -- capture: one reservation per array, then plain stores at fixed offsets
      // A value below the call or its receiver that is a copy of a saved local (or of `this`,
      // which the caller supplies) takes no room: the restore reloads it from that local.
      boolean thisKept = !isStatic && !writesThis;
      int[] stackCopy = new int[stack.size()];
      for (int k = 0; k < stack.size(); k++) {
        stackCopy[k] = copies.of(i, k, stack.get(k), locals, thisKept);
      }
      int recvCopy = hasReceiver ? copies.of(i, below, Slot.of(-1, frame.getStack(below),
          () -> fail(call, "the receiver of a suspendable call is not an object")), locals, thisKept) : -1;
      int[] stackPos = new int[stack.size()];
      int[] localPos = new int[locals.size()];
      int prims = 1;
      int refs = 1;
      for (int k = stack.size() - 1; k >= 0; k--) {
        Kind kd = stack.get(k).kind;
        stackPos[k] = kd == Kind.NULL || stackCopy[k] >= 0 ? -1 : kd == Kind.REF ? refs++ - 1 : prims++ - 1;
      }
      for (int l = 0; l < locals.size(); l++) {
        Kind kd = locals.get(l).kind;
        localPos[l] = kd == Kind.NULL ? -1 : kd == Kind.REF ? refs++ - 1 : prims++ - 1;
      }
      int recvPos = hasReceiver && recvCopy < 0 ? refs++ - 1 : -1;
      int selfPos = lazy ? refs++ - 1 : -1; // lazy resume: the method's own receiver or class, below the id
      if (refs > 0xFFFFFF || prims > 0xFFFFFF) {
        throw fail(call, "frame too large to save");
      }
      tail.add(capture);
      int line = ClassWeaver.lineOf(call);
      if (line >= 0) { // the capture and restore code sit at the method's end: they name the call's line
        tail.add(new org.objectweb.asm.tree.LineNumberNode(line, capture));
      }
      Type ret = Type.getReturnType(call.desc);
      if (ret.getSize() == 2) {
        tail.add(new InsnNode(Opcodes.POP2));
      } else if (ret.getSize() == 1) {
        tail.add(new InsnNode(Opcodes.POP));
      }
      int[] spill = new int[stack.size()]; // the operand stack goes to locals first: an array store needs it below
      int spillSlot = scratch.spillBase;
      for (int k = stack.size() - 1; k >= 0; k--) {
        Slot sl = stack.get(k);
        if (sl.kind == Kind.NULL || stackCopy[k] >= 0) { // not saved: a copy is reloaded from its local
          tail.add(new InsnNode(sl.type.getSize() == 2 ? Opcodes.POP2 : Opcodes.POP));
        } else {
          spill[k] = spillSlot;
          tail.add(new VarInsnNode(sl.kind.store, spillSlot));
          spillSlot += sl.type.getSize();
        }
      }
      long header = index | ((long) refs << 16) | ((long) prims << 40);
      tail.add(new LdcInsnNode(header));
      tail.add(new LdcInsnNode(frameId));
      tail.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
      List<Loops.Loop> chain = loops == null ? List.of() : loops.chain(i);
      tail.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.STACK,
          cold.coldCapture(!chain.isEmpty(), anyInLoop) ? "reserveColdFrame" : "reserveFrame",
          "(JLjava/lang/String;" + Names.STACK_DESC + ")V", false));
      frameBases(tail, stackLocal, prims, refs);
      for (int k = 0; k < stack.size(); k++) {
        Slot sl = stack.get(k);
        if (stackCopy[k] >= 0) {
          continue;
        }
        if (sl.kind == Kind.REF) {
          storeRef(tail, stackPos[k], new VarInsnNode(Opcodes.ALOAD, spill[k]));
        } else if (sl.kind != Kind.NULL) {
          storePrim(tail, stackPos[k], sl.kind, spill[k]);
        }
      }
      for (int l = 0; l < locals.size(); l++) {
        Slot sl = locals.get(l);
        if (sl.kind == Kind.REF) {
          storeRef(tail, localPos[l], new VarInsnNode(Opcodes.ALOAD, sl.index));
        } else if (sl.kind != Kind.NULL) {
          storePrim(tail, localPos[l], sl.kind, sl.index);
        }
      }
      if (recvPos >= 0) {
        storeRef(tail, recvPos, new VarInsnNode(Opcodes.ALOAD, recvLocal));
      }
      if (selfPos >= 0) { // a method that writes slot 0 saves null: its frame is never a lazy resume's entry
        storeRef(tail, selfPos, isStatic ? new LdcInsnNode(Type.getObjectType(owner.name))
            : writesThis ? new InsnNode(Opcodes.ACONST_NULL) : new VarInsnNode(Opcodes.ALOAD, 0));
      }
      tail.add(dummyReturn(Type.getReturnType(method.desc)));

      // -- the path from the dispatch to RESTORE_i: through the header of each enclosing loop
      BitSet restoredEarly = new BitSet(); // locals that an ENTER block restores before a loop header
      boolean throughCopy = !chain.isEmpty() && copied.contains(chain.get(0));
      if (throughCopy) {
        entries.add(restore);
      } else if (!chain.isEmpty() && enterableAtHeaders(chain, code, frames, liveOut)) {
        if (resumeLocal < 0) {
          resumeLocal = nextLocal++;
        }
        List<LoopGuard> path = new ArrayList<>();
        List<LabelNode> enters = new ArrayList<>();
        for (Loops.Loop loop : chain) {
          path.add(guards.computeIfAbsent(loop, l -> new LoopGuard(l.header, (LabelNode) code[l.header])));
          enters.add(new LabelNode());
        }
        for (int c = 0; c < path.size(); c++) {
          path.get(c).keys.add(index);
          path.get(c).targets.add(c + 1 < path.size() ? enters.get(c + 1) : restore);
          enterLoop(enterCode, enters.get(c), path.subList(c, path.size()), frames, liveOut, stackLocal, writesThis,
              locals, localPos, prims, refs, restoredEarly);
        }
        entries.add(enters.get(0));
      } else {
        entries.add(restore);
      }

      // -- restore: the frame is open (DISPATCH took it off the store); read it at its offsets
      restoreCode.add(restore);
      if (line >= 0) { // a trace through the restore's own call names the call's line, not the method's last
        restoreCode.add(new org.objectweb.asm.tree.LineNumberNode(line, restore));
      }
      boolean primsLeft = false; // what the ENTER blocks did not restore already
      boolean refsLeft = recvPos >= 0;
      for (int k = 0; k < stack.size(); k++) {
        Slot sl = stack.get(k);
        primsLeft |= stackCopy[k] < 0 && sl.kind != Kind.REF && sl.kind != Kind.NULL;
        refsLeft |= stackCopy[k] < 0 && sl.kind == Kind.REF;
      }
      for (Slot sl : locals) {
        if (!restoredEarly.get(sl.index)) {
          primsLeft |= sl.kind != Kind.REF && sl.kind != Kind.NULL;
          refsLeft |= sl.kind == Kind.REF;
        }
      }
      frameBases(restoreCode, stackLocal, primsLeft ? 0 : -1, refsLeft ? 0 : -1);
      for (int l = locals.size() - 1; l >= 0; l--) {
        Slot sl = locals.get(l);
        if (restoredEarly.get(sl.index)) {
          continue;
        }
        load(restoreCode, sl, localPos[l]);
        restoreCode.add(new VarInsnNode(sl.kind.store, sl.index));
      }
      if (hasReceiver) { // after the locals: it may be a copy of one
        if (recvCopy >= 0) {
          restoreCode.add(new VarInsnNode(Opcodes.ALOAD, recvCopy));
        } else {
          loadRef(restoreCode, recvPos);
        }
        String recvType = receiverType(call, frame.getStack(below));
        if (!"java/lang/Object".equals(recvType)) {
          restoreCode.add(new TypeInsnNode(Opcodes.CHECKCAST, recvType));
        }
        restoreCode.add(new VarInsnNode(Opcodes.ASTORE, recvLocal));
      }
      for (int k = 0; k < stack.size(); k++) {
        Slot sl = stack.get(k);
        if (stackCopy[k] >= 0) {
          restoreCode.add(new VarInsnNode(sl.kind.load, stackCopy[k]));
          castIfNeeded(restoreCode, sl);
        } else {
          load(restoreCode, sl, stackPos[k]);
        }
      }
      if (hasReceiver) {
        int[] argLocals = argLocals(args, recvLocal + 1);
        for (int a = 0; a < args.length; a++) {
          restoreCode.add(zero(args[a]));
          restoreCode.add(new VarInsnNode(args[a].getOpcode(Opcodes.ISTORE), argLocals[a]));
        }
      } else {
        for (Type a : args) {
          restoreCode.add(zero(a));
        }
      }
      if (entryCall || (chain.isEmpty() && !primitiveCall)) {
        // The restore's own call: to a stack entry with flow 1 (at the normal call the constant
        // 0 lets the JIT drop the callee's restore path wherever it inlines it); to another
        // callee as the normal call is made, for the test after it (see waitingAgain), but not
        // inside a loop: there the second call would make a small loop method (a forwarding
        // loop) too large for C2 to inline into its caller, which costs more than the capture it
        // saves. The tops as the restore left them are this frame's bases. A primitive never
        // suspends again on its restore, so its call is made again at RESUME_i, the normal one.
        if (!primsLeft) { // else frameBases above read it already
          restoreCode.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
          restoreCode.add(new FieldInsnNode(Opcodes.GETFIELD, Names.STACK, "primTop", "I"));
          restoreCode.add(new VarInsnNode(Opcodes.ISTORE, scratch.primBase));
        }
        if (!refsLeft) {
          restoreCode.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
          restoreCode.add(new FieldInsnNode(Opcodes.GETFIELD, Names.STACK, "refTop", "I"));
          restoreCode.add(new VarInsnNode(Opcodes.ISTORE, scratch.refBase));
        }
        if (hasReceiver) {
          int[] argLocals = argLocals(args, recvLocal + 1);
          restoreCode.add(new VarInsnNode(Opcodes.ALOAD, recvLocal));
          for (int a = 0; a < args.length; a++) {
            restoreCode.add(new VarInsnNode(args[a].getOpcode(Opcodes.ILOAD), argLocals[a]));
          }
        }
        if (entryCall) {
          restoreCode.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
          restoreCode.add(new InsnNode(Opcodes.ICONST_1));
        }
        LabelNode from = new LabelNode();
        LabelNode to = new LabelNode();
        restoreCode.add(from);
        restoreCode.add(new MethodInsnNode(call.getOpcode(), call.owner, call.name, call.desc, call.itf));
        restoreCode.add(to);
        LabelNode rejoin = new LabelNode();
        waitingAgain(restoreCode, stackLocal, prims, refs, rejoin);
        restoreCode.add(rejoin);
        JumpInsnNode toAfter = new JumpInsnNode(Opcodes.GOTO, afterCall);
        restoreCode.add(toAfter);
        IterationCopy copy = throughCopy ? new IterationCopy(chain, afterCall, toAfter) : null;
        int at = insns.indexOf(call);
        for (org.objectweb.asm.tree.TryCatchBlockNode t : method.tryCatchBlocks) { // the handlers of the call, in their order
          if (insns.indexOf(t.start) <= at && at < insns.indexOf(t.end)) {
            org.objectweb.asm.tree.TryCatchBlockNode h = new org.objectweb.asm.tree.TryCatchBlockNode(from, to, t.handler, t.type);
            restoreCalls.add(h);
            if (copy != null) {
              copy.handlers.add(h);
            }
          }
        }
        if (copy != null) {
          iterationCopies.add(copy);
        }
      } else {
        JumpInsnNode toResume = new JumpInsnNode(Opcodes.GOTO, resume);
        restoreCode.add(toResume);
        if (throughCopy) {
          iterationCopies.add(new IterationCopy(chain, resume, toResume));
        }
      }
      siteLines.add(line);
      index++;
    }
    if (index == 0) {
      return;
    }

    if (index > MAX_SITES) {
      throw fail(null, "more than " + MAX_SITES + " suspendable call sites");
    }

    // -- entry
    InsnList entry = new InsnList();
    if (stackParam < 0) {
      entry.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.STACK, "current", "()" + Names.STACK_DESC, false));
      entry.add(new VarInsnNode(Opcodes.ASTORE, stackLocal));
    }
    if (resumeLocal >= 0) {
      entry.add(new InsnNode(Opcodes.ICONST_M1));
      entry.add(new VarInsnNode(Opcodes.ISTORE, resumeLocal));
    }
    if (stackParam >= 0) { // the caller passed its flow: 1 when this frame resumes
      entry.add(new VarInsnNode(Opcodes.ILOAD, stackParam + 1));
    } else {
      entry.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
      entry.add(new FieldInsnNode(Opcodes.GETFIELD, Names.STACK, Names.FLOW, "B"));
    }
    entry.add(new JumpInsnNode(Opcodes.IFGT, dispatch));
    insns.insert(entry);

    // -- dispatch
    LabelNode bad = new LabelNode();
    tail.add(dispatch);
    tail.add(new LdcInsnNode(frameId));
    tail.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
    tail.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.STACK, cold.coldRestore(anyInLoop) ? "openColdFrame" : "openFrame",
        "(Ljava/lang/String;" + Names.STACK_DESC + ")I", false));
    if (resumeLocal >= 0) {
      tail.add(new InsnNode(Opcodes.DUP));
      tail.add(new VarInsnNode(Opcodes.ISTORE, resumeLocal));
    }
    LabelNode noSite = bad;
    InsnList resultCode = new InsnList();
    if (lazy) { // an index that is no call site: the result of this method's lazily resumed run
      int indexLocal = nextLocal++;
      tail.add(new InsnNode(Opcodes.DUP));
      tail.add(new VarInsnNode(Opcodes.ISTORE, indexLocal));
      noSite = new LabelNode();
      resultCode.add(noSite);
      resultCode.add(new VarInsnNode(Opcodes.ILOAD, indexLocal));
      resultCode.add(new LdcInsnNode(frameId));
      resultCode.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
      resultCode.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.STACK, "resumeResult",
          "(ILjava/lang/String;" + Names.STACK_DESC + ")Ljava/lang/Object;", false));
      resultCode.add(unboxedReturn(Type.getReturnType(method.desc)));
    }
    tail.add(new TableSwitchInsnNode(0, index - 1, noSite, entries.toArray(new LabelNode[0])));
    for (LoopGuard g : guards.values()) {
      Frame<BasicValue> at = frames[g.index];
      // At the header: one test of a local per iteration, and a restore enters the loop here.
      LabelNode dispatchHere = new LabelNode();
      InsnList test = new InsnList();
      test.add(new VarInsnNode(Opcodes.ILOAD, resumeLocal));
      test.add(new JumpInsnNode(Opcodes.IFGE, dispatchHere));
      insns.insert(g.header, test);
      tail.add(dispatchHere);
      for (int k = at.getStackSize() - 1; k >= 0; k--) {
        tail.add(new InsnNode(at.getStack(k).getSize() == 2 ? Opcodes.POP2 : Opcodes.POP)); // the zeros above; a restore block pushes the saved values
      }
      tail.add(new VarInsnNode(Opcodes.ILOAD, resumeLocal));
      int[] keys = new int[g.keys.size()];
      for (int k = 0; k < keys.length; k++) {
        keys[k] = g.keys.get(k);
      }
      tail.add(new LookupSwitchInsnNode(bad, keys, g.targets.toArray(new LabelNode[0])));
    }
    if (resumeLocal >= 0) {
      for (LabelNode r : restores) {
        InsnList reset = new InsnList();
        reset.add(new InsnNode(Opcodes.ICONST_M1));
        reset.add(new VarInsnNode(Opcodes.ISTORE, resumeLocal));
        restoreCode.insert(r, reset);
      }
    }
    tail.add(enterCode);
    tail.add(bad);
    tail.add(new TypeInsnNode(Opcodes.NEW, "java/lang/IllegalStateException"));
    tail.add(new InsnNode(Opcodes.DUP));
    tail.add(new LdcInsnNode("restore: bad resume index in " + frameId));
    tail.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "(Ljava/lang/String;)V", false));
    tail.add(new InsnNode(Opcodes.ATHROW));
    tail.add(resultCode);
    tail.add(restoreCode);
    InsnList copyCode = new InsnList();
    for (IterationCopy c : iterationCopies) {
      List<LabelNode> roots = new ArrayList<>();
      roots.add(c.from);
      for (org.objectweb.asm.tree.TryCatchBlockNode h : c.handlers) {
        roots.add(h.handler);
      }
      Map<LabelNode, LabelNode> copyOf = IterationCopies.copy(method, roots, c.chain, code, copyCode);
      c.jump.label = copyOf.get(c.from);
      for (org.objectweb.asm.tree.TryCatchBlockNode h : c.handlers) {
        h.handler = copyOf.get(h.handler);
      }
    }
    tail.add(copyCode);
    insns.add(tail);
    method.tryCatchBlocks.addAll(restoreCalls);
    method.maxLocals = nextLocal;
  }

  /** A restore that resumes through a copy of its iteration's rest: where it jumps, and its own call's handlers. */
  private static final class IterationCopy {
    final List<Loops.Loop> chain;
    final LabelNode from;
    final JumpInsnNode jump;
    final List<org.objectweb.asm.tree.TryCatchBlockNode> handlers = new ArrayList<>();

    IterationCopy(List<Loops.Loop> chain, LabelNode from, JumpInsnNode jump) {
      this.chain = chain;
      this.from = from;
      this.jump = jump;
    }
  }

  /*
   * The loops whose call sites resume through copies of the iteration's rest (IterationCopies)
   * instead of through their headers: outermost loops all of whose enclosing loops' headers
   * are labels, while the copies stay within IterationCopies.MAX_COPIED instructions a method.
   */
  private Set<Loops.Loop> copiedLoops(Loops loops, AbstractInsnNode[] code, Frame<BasicValue>[] frames,
      List<int[]> normalEdges, List<int[]> exceptionEdges) {
    Set<Loops.Loop> out = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    if (loops == null) {
      return out;
    }
    List<List<Integer>> succ = new ArrayList<>(code.length);
    for (int i = 0; i < code.length; i++) {
      succ.add(new ArrayList<>(2));
    }
    for (int[] e : normalEdges) {
      succ.get(e[0]).add(e[1]);
    }
    for (int[] e : exceptionEdges) {
      succ.get(e[0]).add(e[1]);
    }
    Map<Loops.Loop, Integer> cost = new LinkedHashMap<>();
    Set<Loops.Loop> unlabeled = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (int i = 0; i < code.length; i++) {
      if (!calls.contains(code[i]) || frames[i] == null) {
        continue;
      }
      List<Loops.Loop> chain = loops.chain(i);
      if (chain.isEmpty()) {
        continue;
      }
      Loops.Loop outer = chain.get(0);
      if (chain.stream().anyMatch(l -> !(code[l.header] instanceof LabelNode))) {
        unlabeled.add(outer);
      } else {
        cost.merge(outer, IterationCopies.size(i, chain, code, succ), Integer::sum);
      }
    }
    int total = 0;
    for (Map.Entry<Loops.Loop, Integer> c : cost.entrySet()) {
      if (!unlabeled.contains(c.getKey()) && total + c.getValue() <= IterationCopies.MAX_COPIED) {
        out.add(c.getKey());
        total += c.getValue();
      }
    }
    return out;
  }

  /*
   * Which values on the operand stack at a call site are copies of a local: pushed by a load of
   * the local, with straight-line code from the load to the call (no jump, switch or handler
   * lands in between) that does not write the local. Such a value equals the local at the call,
   * and a restore that reloads the local can push it again from there. The analysis runs on the
   * code as compiled (after relocateNews), before the weaver adds anything.
   */
  private final class Copies {
    private final AbstractInsnNode[] code;
    private final Frame<org.objectweb.asm.tree.analysis.SourceValue>[] sources;
    private final Map<AbstractInsnNode, Integer> indexOf = new java.util.IdentityHashMap<>();
    private final Set<LabelNode> entries = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    Copies(AbstractInsnNode[] code, MethodNode m) {
      this.code = code;
      Frame<org.objectweb.asm.tree.analysis.SourceValue>[] f;
      try {
        f = new Analyzer<>(new org.objectweb.asm.tree.analysis.SourceInterpreter()).analyze(owner.name, m);
      } catch (AnalyzerException e) {
        f = null; // the main analysis reports what is wrong; here it only means no copies
      }
      sources = f;
      for (int i = 0; i < code.length; i++) {
        indexOf.put(code[i], i);
        if (code[i] instanceof JumpInsnNode) {
          entries.add(((JumpInsnNode) code[i]).label);
        } else if (code[i] instanceof TableSwitchInsnNode) {
          entries.add(((TableSwitchInsnNode) code[i]).dflt);
          entries.addAll(((TableSwitchInsnNode) code[i]).labels);
        } else if (code[i] instanceof LookupSwitchInsnNode) {
          entries.add(((LookupSwitchInsnNode) code[i]).dflt);
          entries.addAll(((LookupSwitchInsnNode) code[i]).labels);
        }
      }
      for (org.objectweb.asm.tree.TryCatchBlockNode t : m.tryCatchBlocks) {
        entries.add(t.handler);
      }
    }

    /**
     * @param call the call site's index in the code
     * @param depth the operand stack index of the value at the call
     * @param value the value
     * @param locals the locals the call site saves
     * @param thisKept whether slot 0 holds `this` throughout (the caller supplies it on a restore)
     * @return the local the value is a copy of (one the call site saves, or `this`), or -1
     */
    int of(int call, int depth, Slot value, List<Slot> locals, boolean thisKept) {
      if (sources == null || sources[call] == null || value.kind == Kind.NULL) {
        return -1;
      }
      Set<AbstractInsnNode> from = sources[call].getStack(depth).insns;
      if (from.size() != 1) {
        return -1;
      }
      AbstractInsnNode load = from.iterator().next();
      int op = load.getOpcode();
      Integer at = indexOf.get(load);
      if (!(load instanceof VarInsnNode) || op < Opcodes.ILOAD || op > Opcodes.ALOAD || at == null || at >= call) {
        return -1;
      }
      int slot = ((VarInsnNode) load).var;
      int size = value.type.getSize();
      for (int q = at + 1; q < call; q++) {
        AbstractInsnNode insn = code[q];
        if (insn instanceof LabelNode && entries.contains(insn)) {
          return -1;
        }
        int written = -1;
        int width = 1;
        if (insn instanceof VarInsnNode && insn.getOpcode() >= Opcodes.ISTORE && insn.getOpcode() <= Opcodes.ASTORE) {
          written = ((VarInsnNode) insn).var;
          width = insn.getOpcode() == Opcodes.LSTORE || insn.getOpcode() == Opcodes.DSTORE ? 2 : 1;
        } else if (insn instanceof IincInsnNode) {
          written = ((IincInsnNode) insn).var;
        }
        if (written >= 0 && written < slot + size && slot < written + width) {
          return -1;
        }
      }
      if (slot == 0 && thisKept && op == Opcodes.ALOAD) {
        return 0;
      }
      for (Slot sl : locals) {
        if (sl.index == slot && sl.kind == value.kind && sl.type.equals(value.type)
            && (sl.kind != Kind.REF || accessibleType(sl.type.getInternalName()).equals(sl.type.getInternalName()))) {
          return slot;
        }
      }
      return -1;
    }
  }

  /** A loop header that a restore passes: which resume indexes go on to which label. */
  private static final class LoopGuard {
    final int index;
    final LabelNode header;
    final List<Integer> keys = new ArrayList<>();
    final List<LabelNode> targets = new ArrayList<>();

    LoopGuard(int index, LabelNode header) {
      this.index = index;
      this.header = header;
    }
  }

  /*
   * ENTER block of one call site for one loop on its restore path, before the loop's header.
   * The saved locals that are live at the header with the same type there as at the call (a
   * loop's counters and the arrays it walks) are restored here, outside the loop, so that C2 still
   * sees each of them as one value entering the loop (an induction variable stays one, an
   * array stays loop-invariant and keeps its range checks hoisted); restored inside the loop,
   * each would merge with the loop's own value at the call and be a new value per iteration.
   * The other locals live at the header get zeros and nulls of their types (the verifier's
   * merge at the header then keeps them typed for the normal path); the restore block
   * overwrites those it needs. A local an enclosing loop's ENTER block restored is left alone.
   * A narrower type at the call than at the header (a cast inside the loop) is restored in the
   * restore block instead: merged at the header, it would lose the type the code after the
   * call relies on.
   */
  private void enterLoop(InsnList out, LabelNode enter, List<LoopGuard> inward, Frame<BasicValue>[] frames,
      BitSet[] liveOut, int stackLocal, boolean writesThis, List<Slot> locals, int[] localPos, int prims, int refs,
      BitSet restoredEarly) {
    out.add(enter);
    LoopGuard g = inward.get(0);
    Frame<BasicValue> at = frames[g.index];
    BitSet live = liveOut[g.index];
    boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
    boolean basesRead = false;
    for (int slot = live.nextSetBit(0); slot >= 0; slot = live.nextSetBit(slot + 1)) {
      if ((slot == 0 && !isStatic && !writesThis) || slot >= at.getLocals() || restoredEarly.get(slot)) {
        continue;
      }
      Type t = at.getLocal(slot).getType();
      int saved = -1;
      for (int l = 0; l < locals.size(); l++) {
        Slot sl = locals.get(l);
        if (sl.index == slot && sl.kind != Kind.NULL && sl.type.equals(t)
            && (sl.kind != Kind.REF || accessibleType(t.getInternalName()).equals(t.getInternalName()))
            && liveAlike(inward, frames, liveOut, slot, t)) {
          saved = l;
        }
      }
      if (saved < 0) {
        out.add(zero(t));
        out.add(new VarInsnNode(t.getOpcode(Opcodes.ISTORE), slot));
        continue;
      }
      if (!basesRead) {
        frameBases(out, stackLocal, prims > 1 ? 0 : -1, refs > 1 ? 0 : -1);
        basesRead = true;
      }
      Slot sl = locals.get(saved);
      load(out, sl, localPos[saved]);
      out.add(new VarInsnNode(sl.kind.store, slot));
      restoredEarly.set(slot);
    }
    for (int k = 0; k < at.getStackSize(); k++) {
      out.add(zero(at.getStack(k).getType())); // a loop inside an expression: javac's switch expressions
    }
    out.add(new JumpInsnNode(Opcodes.GOTO, g.header));
  }

  /*
   * True if the local is live with type t at each header from this loop inward: a value set
   * before the outer header then reaches the call through every inner header with the type
   * the verifier merges there, whatever the inner loops' bodies do to the slot.
   */
  private static boolean liveAlike(List<LoopGuard> inward, Frame<BasicValue>[] frames, BitSet[] liveOut, int slot, Type t) {
    for (LoopGuard g : inward) {
      Frame<BasicValue> f = frames[g.index];
      if (!liveOut[g.index].get(slot) || slot >= f.getLocals() || !t.equals(f.getLocal(slot).getType())) {
        return false;
      }
    }
    return true;
  }

  /*
   * A restore can enter a loop at its header only if the header is a label (every jump's
   * target is) and each value live there, in locals or on the operand stack, has a type
   * with a zero: true of every loop javac writes.
   */
  private static boolean enterableAtHeaders(List<Loops.Loop> chain, AbstractInsnNode[] code, Frame<BasicValue>[] frames,
      BitSet[] liveOut) {
    for (Loops.Loop l : chain) {
      Frame<BasicValue> f = frames[l.header];
      if (!(code[l.header] instanceof LabelNode) || f == null) {
        return false;
      }
      for (int k = 0; k < f.getStackSize(); k++) {
        Type t = f.getStack(k).getType();
        if (t == null || t.getSort() == Type.VOID) {
          return false;
        }
      }
      BitSet live = liveOut[l.header];
      for (int slot = live.nextSetBit(0); slot >= 0 && slot < f.getLocals(); slot = live.nextSetBit(slot + 1)) {
        Type t = f.getLocal(slot).getType();
        if (t == null || t.getSort() == Type.VOID) {
          return false; // an uninitialized value or a return address: no zero to give it
        }
      }
    }
    return true;
  }

  /*
   * The locals that the capture and restore blocks use for the store's arrays and the frame's
   * bases, and the spill area for operand stack values. Each block is straight-line code that
   * writes them before reading them, so all call sites share them.
   */
  private static final class Scratch {
    final int primArray;
    final int primBase;
    final int refArray;
    final int refBase;
    final int spillBase;

    Scratch(int first) {
      primArray = first;
      primBase = first + 1;
      refArray = first + 2;
      refBase = first + 3;
      spillBase = first + 4;
    }
  }

  /*
   * Emits, right after a restore's own call: if Stack.savedAgain finds this frame still whole
   * in the store (the callee suspended again and its frames end where this frame begins), it
   * has moved the tops over the frame and this returns the dummy value; otherwise it goes on to
   * `rejoin`, the usual continuation after the call, whose flow test takes the full capture.
   * Nothing here runs unless the stack is restoring.
   */
  private void waitingAgain(InsnList out, int stackLocal, int prims, int refs, LabelNode rejoin) {
    out.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
    out.add(new VarInsnNode(Opcodes.ILOAD, scratch.primBase));
    out.add(new VarInsnNode(Opcodes.ILOAD, scratch.refBase));
    out.add(intConstant(prims));
    out.add(intConstant(refs));
    out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.STACK, lazy ? "savedAgainWaiting" : "savedAgain",
        "(" + Names.STACK_DESC + "IIII)Z", false));
    out.add(new JumpInsnNode(Opcodes.IFEQ, rejoin));
    out.add(dummyReturn(Type.getReturnType(method.desc)));
  }

  /*
   * Emits: the frame's bases and arrays, read from the store's tops: primBase = primTop - prims
   * (and the same for references) after a capture's reserveFrame, or the tops themselves (a
   * count of 0) after a restore's openFrame. A count of 1 or less means the frame saves no
   * value of that kind beside its header or id, and nothing is emitted for it.
   */
  private void frameBases(InsnList out, int stackLocal, int prims, int references) {
    frameBase(out, stackLocal, prims, false);
    frameBase(out, stackLocal, references, true);
  }

  private void frameBase(InsnList out, int stackLocal, int count, boolean references) {
    if (count != 0 && count <= 1) {
      return;
    }
    out.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
    out.add(new FieldInsnNode(Opcodes.GETFIELD, Names.STACK, references ? "refTop" : "primTop", "I"));
    if (count > 1) {
      out.add(intConstant(count));
      out.add(new InsnNode(Opcodes.ISUB));
    }
    out.add(new VarInsnNode(Opcodes.ISTORE, references ? scratch.refBase : scratch.primBase));
    arrayOf(out, stackLocal, references);
  }

  private void arrayOf(InsnList out, int stackLocal, boolean references) {
    out.add(new VarInsnNode(Opcodes.ALOAD, stackLocal));
    out.add(new FieldInsnNode(Opcodes.GETFIELD, Names.STACK, references ? "refs" : "prims",
        references ? "[Ljava/lang/Object;" : "[J"));
    out.add(new VarInsnNode(Opcodes.ASTORE, references ? scratch.refArray : scratch.primArray));
  }

  /** Emits: base + pos, as an int on the operand stack. */
  private static InsnList offset(int baseLocal, int pos) {
    InsnList out = new InsnList();
    out.add(new VarInsnNode(Opcodes.ILOAD, baseLocal));
    if (pos != 0) {
      out.add(intConstant(pos));
      out.add(new InsnNode(Opcodes.IADD));
    }
    return out;
  }

  /** @return the shortest instruction that pushes {@code v} (bytecode size counts against the 64 KiB method limit) */
  private static AbstractInsnNode intConstant(int v) {
    if (v >= -1 && v <= 5) {
      return new InsnNode(Opcodes.ICONST_0 + v);
    }
    if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      return new IntInsnNode(Opcodes.BIPUSH, v);
    }
    if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      return new IntInsnNode(Opcodes.SIPUSH, v);
    }
    return new LdcInsnNode(v);
  }

  /** Emits: prims[primBase + pos] = the local {@code slot} of kind {@code k}, as raw bits. */
  private void storePrim(InsnList out, int pos, Kind k, int slot) {
    out.add(new VarInsnNode(Opcodes.ALOAD, scratch.primArray));
    out.add(offset(scratch.primBase, pos));
    out.add(new VarInsnNode(k.load, slot));
    switch (k) {
      case INT:
        out.add(new InsnNode(Opcodes.I2L));
        break;
      case FLOAT:
        out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false));
        out.add(new InsnNode(Opcodes.I2L));
        break;
      case DOUBLE:
        out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Double", "doubleToRawLongBits", "(D)J", false));
        break;
      default:
        break;
    }
    out.add(new InsnNode(Opcodes.LASTORE));
  }

  /** Emits: Stack.putRef(refs, refBase + pos, the value {@code value} pushes). */
  private void storeRef(InsnList out, int pos, AbstractInsnNode value) {
    out.add(new VarInsnNode(Opcodes.ALOAD, scratch.refArray));
    out.add(offset(scratch.refBase, pos));
    out.add(value);
    out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.STACK, "putRef", "([Ljava/lang/Object;ILjava/lang/Object;)V", false));
  }

  /** Emits: refs[refBase + pos]. */
  private void loadRef(InsnList out, int pos) {
    out.add(new VarInsnNode(Opcodes.ALOAD, scratch.refArray));
    out.add(offset(scratch.refBase, pos));
    out.add(new InsnNode(Opcodes.AALOAD));
  }

  /** Emits the restore of slot {@code s}, saved at {@code pos}, onto the operand stack (null for NULL). */
  private void load(InsnList out, Slot s, int pos) {
    switch (s.kind) {
      case NULL:
        out.add(new InsnNode(Opcodes.ACONST_NULL));
        return;
      case REF:
        loadRef(out, pos);
        castIfNeeded(out, s);
        return;
      default:
        break;
    }
    out.add(new VarInsnNode(Opcodes.ALOAD, scratch.primArray));
    out.add(offset(scratch.primBase, pos));
    out.add(new InsnNode(Opcodes.LALOAD));
    switch (s.kind) {
      case INT:
        out.add(new InsnNode(Opcodes.L2I));
        break;
      case FLOAT:
        out.add(new InsnNode(Opcodes.L2I));
        out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false));
        break;
      case DOUBLE:
        out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Double", "longBitsToDouble", "(J)D", false));
        break;
      default:
        break;
    }
  }

  private void castIfNeeded(InsnList out, Slot s) {
    if (s.kind == Kind.REF) {
      String type = accessibleType(s.type.getInternalName());
      if (!"java/lang/Object".equals(type)) {
        out.add(new TypeInsnNode(Opcodes.CHECKCAST, type));
      }
    }
  }

  /*
   * The analysis types a value merged from two classes as their common superclass, which this
   * class may not be allowed to name (StringBuilder and StringBuffer merge to the package-private
   * java.lang.AbstractStringBuilder); a checkcast to it throws IllegalAccessError. The nearest
   * accessible superclass is as good: code after the call can only rely on types it can name,
   * and each of those is a supertype of it.
   */
  private String accessibleType(String internalName) {
    if (internalName.startsWith("[")) {
      Type array = Type.getObjectType(internalName);
      Type element = array.getElementType();
      if (element.getSort() != Type.OBJECT) {
        return internalName;
      }
      String e = accessibleType(element.getInternalName());
      return e.equals(element.getInternalName()) ? internalName
          : "[".repeat(array.getDimensions()) + Type.getObjectType(e).getDescriptor();
    }
    for (String c = internalName; c != null; c = hierarchy.superName(c)) {
      if (isAccessible(c)) {
        return c;
      }
    }
    return "java/lang/Object";
  }

  private boolean isAccessible(String type) {
    if (packageOf(type).equals(packageOf(owner.name))) {
      return true;
    }
    if (type.startsWith("jdk/internal/") || type.startsWith("sun/")) {
      return false; // not exported from java.base
    }
    ClassHierarchy.ClassInfo info = hierarchy.find(type);
    return info == null || (info.access & Opcodes.ACC_PUBLIC) != 0;
  }

  private static String packageOf(String internalName) {
    int slash = internalName.lastIndexOf('/');
    return slash < 0 ? "" : internalName.substring(0, slash);
  }

  private String receiverType(MethodInsnNode call, BasicValue receiver) {
    if (call.getOpcode() == Opcodes.INVOKESPECIAL) {
      return owner.name;
    }
    Type t = receiver == null ? null : receiver.getType();
    if (t == null || (t.getSort() == Type.OBJECT && "null".equals(t.getInternalName()))) {
      return call.owner;
    }
    return accessibleType(t.getInternalName());
  }

  private static int[] argLocals(Type[] args, int base) {
    int[] out = new int[args.length];
    int slot = base;
    for (int a = 0; a < args.length; a++) {
      out[a] = slot;
      slot += args[a].getSize();
    }
    return out;
  }

  private static int argSlots(String desc) {
    return (Type.getArgumentsAndReturnSizes(desc) >> 2) - 1;
  }

  /* Whether the call goes to a hand-written suspension primitive (Fiber.park, a channel's receive). */
  private boolean callsPrimitive(MethodInsnNode call) {
    ClassHierarchy.MethodInfo m = hierarchy.resolve(call.owner, call.name, call.desc);
    return m != null && m.primitive();
  }

  private static boolean writesSlotZero(AbstractInsnNode[] code) {
    for (AbstractInsnNode insn : code) {
      if (insn instanceof VarInsnNode && ((VarInsnNode) insn).var == 0 && insn.getOpcode() >= Opcodes.ISTORE
          && insn.getOpcode() <= Opcodes.ASTORE) {
        return true;
      }
      if (insn instanceof IincInsnNode && ((IincInsnNode) insn).var == 0) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private Frame<BasicValue>[] analyze(List<int[]> normalEdges, List<int[]> exceptionEdges) {
    List<Type> itfs = new ArrayList<>();
    for (String i : owner.interfaces) {
      itfs.add(Type.getObjectType(i));
    }
    HierarchyVerifier verifier = new HierarchyVerifier(hierarchy, Type.getObjectType(owner.name),
        owner.superName == null ? null : Type.getObjectType(owner.superName), itfs,
        (owner.access & Opcodes.ACC_INTERFACE) != 0);
    Analyzer<BasicValue> analyzer = new Analyzer<>(verifier) {
      @Override
      protected void newControlFlowEdge(int insn, int successor) {
        normalEdges.add(new int[] {insn, successor});
      }

      @Override
      protected boolean newControlFlowExceptionEdge(int insn, int successor) {
        exceptionEdges.add(new int[] {insn, successor});
        return true;
      }
    };
    try {
      return analyzer.analyze(owner.name, method);
    } catch (AnalyzerException e) {
      throw fail(e.node, "cannot analyse the method: " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------- new X(..suspend..)

  /*
   * javac compiles `new X(args)` to NEW X; DUP; <args>; INVOKESPECIAL X.<init>. When <args>
   * contains a suspendable call, the two uninitialized references cannot be saved. Move
   * NEW/DUP to just before the INVOKESPECIAL, spilling the evaluated arguments to fresh
   * locals so they can be pushed back above the new references.
   */
  private void relocateNews() {
    InsnList insns = method.instructions;
    List<AbstractInsnNode[]> moves = new ArrayList<>();
    for (AbstractInsnNode insn = insns.getFirst(); insn != null; insn = insn.getNext()) {
      if (insn.getOpcode() != Opcodes.NEW) {
        continue;
      }
      AbstractInsnNode init = null;
      boolean suspends = false;
      int depth = 0;
      for (AbstractInsnNode n = insn.getNext(); n != null; n = n.getNext()) {
        if (n.getOpcode() == Opcodes.NEW) {
          depth++;
        } else if (n.getOpcode() == Opcodes.INVOKESPECIAL && "<init>".equals(((MethodInsnNode) n).name)) {
          if (depth == 0) {
            init = n;
            break;
          }
          depth--;
        } else if (calls.contains(n)) {
          suspends = true;
        }
      }
      if (!suspends) {
        continue;
      }
      AbstractInsnNode dup = next(insn);
      if (init == null || dup == null || dup.getOpcode() != Opcodes.DUP) {
        throw fail(insn, "an uninitialized object is on the operand stack at a suspendable call, in a shape"
            + " the weaver does not know (expected: new; dup; <args>; invokespecial <init>)");
      }
      moves.add(new AbstractInsnNode[] {insn, dup, init});
    }
    for (AbstractInsnNode[] m : moves) {
      TypeInsnNode nw = (TypeInsnNode) m[0];
      MethodInsnNode init = (MethodInsnNode) m[2];
      insns.remove(m[1]);
      insns.remove(nw);
      Type[] args = Type.getArgumentTypes(init.desc);
      int[] slots = new int[args.length];
      for (int a = 0; a < args.length; a++) {
        slots[a] = nextLocal;
        nextLocal += args[a].getSize();
      }
      InsnList fix = new InsnList();
      for (int a = args.length - 1; a >= 0; a--) {
        fix.add(new VarInsnNode(args[a].getOpcode(Opcodes.ISTORE), slots[a]));
      }
      fix.add(new TypeInsnNode(Opcodes.NEW, nw.desc));
      fix.add(new InsnNode(Opcodes.DUP));
      for (int a = 0; a < args.length; a++) {
        fix.add(new VarInsnNode(args[a].getOpcode(Opcodes.ILOAD), slots[a]));
      }
      insns.insertBefore(init, fix);
    }
  }

  private static AbstractInsnNode next(AbstractInsnNode insn) {
    AbstractInsnNode n = insn.getNext();
    while (n != null && n.getOpcode() < 0) {
      n = n.getNext();
    }
    return n;
  }

  // ---------------------------------------------------------------- value kinds

  enum Kind {
    INT(Opcodes.ILOAD),
    FLOAT(Opcodes.FLOAD),
    LONG(Opcodes.LLOAD),
    DOUBLE(Opcodes.DLOAD),
    REF(Opcodes.ALOAD),
    NULL(Opcodes.ALOAD);

    /** The opcodes that load and store a local of this kind. */
    final int load;
    final int store;

    Kind(int load) {
      this.load = load;
      this.store = load + (Opcodes.ISTORE - Opcodes.ILOAD);
    }
  }

  record Slot(int index, Kind kind, Type type) {
    static Slot of(int index, BasicValue v, java.util.function.Supplier<WeaveFailure> error) {
      Type t = v.getType();
      if (t == null) {
        throw error.get();
      }
      switch (t.getSort()) {
        case Type.BOOLEAN:
        case Type.CHAR:
        case Type.BYTE:
        case Type.SHORT:
        case Type.INT:
          return new Slot(index, Kind.INT, t);
        case Type.FLOAT:
          return new Slot(index, Kind.FLOAT, t);
        case Type.LONG:
          return new Slot(index, Kind.LONG, t);
        case Type.DOUBLE:
          return new Slot(index, Kind.DOUBLE, t);
        case Type.ARRAY:
          return new Slot(index, Kind.REF, t);
        case Type.OBJECT:
          return "null".equals(t.getInternalName()) ? new Slot(index, Kind.NULL, t) : new Slot(index, Kind.REF, t);
        default:
          throw error.get();
      }
    }
  }

  static AbstractInsnNode zero(Type t) {
    switch (t.getSort()) {
      case Type.LONG:
        return new InsnNode(Opcodes.LCONST_0);
      case Type.DOUBLE:
        return new InsnNode(Opcodes.DCONST_0);
      case Type.FLOAT:
        return new InsnNode(Opcodes.FCONST_0);
      case Type.OBJECT:
      case Type.ARRAY:
        return new InsnNode(Opcodes.ACONST_NULL);
      default:
        return new InsnNode(Opcodes.ICONST_0);
    }
  }

  /* Returns the boxed Object on the operand stack as the method's return type (void: drops it). */
  private static InsnList unboxedReturn(Type ret) {
    InsnList out = new InsnList();
    String box;
    String unbox;
    switch (ret.getSort()) {
      case Type.VOID:
        out.add(new InsnNode(Opcodes.POP));
        out.add(new InsnNode(Opcodes.RETURN));
        return out;
      case Type.BOOLEAN: box = "java/lang/Boolean"; unbox = "booleanValue"; break;
      case Type.BYTE: box = "java/lang/Byte"; unbox = "byteValue"; break;
      case Type.CHAR: box = "java/lang/Character"; unbox = "charValue"; break;
      case Type.SHORT: box = "java/lang/Short"; unbox = "shortValue"; break;
      case Type.INT: box = "java/lang/Integer"; unbox = "intValue"; break;
      case Type.LONG: box = "java/lang/Long"; unbox = "longValue"; break;
      case Type.FLOAT: box = "java/lang/Float"; unbox = "floatValue"; break;
      case Type.DOUBLE: box = "java/lang/Double"; unbox = "doubleValue"; break;
      default:
        if (!"java/lang/Object".equals(ret.getInternalName())) {
          out.add(new TypeInsnNode(Opcodes.CHECKCAST, ret.getInternalName()));
        }
        out.add(new InsnNode(Opcodes.ARETURN));
        return out;
    }
    out.add(new TypeInsnNode(Opcodes.CHECKCAST, box));
    out.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, box, unbox, "()" + ret.getDescriptor(), false));
    out.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
    return out;
  }

  private static InsnList dummyReturn(Type ret) {
    InsnList out = new InsnList();
    if (ret.getSort() == Type.VOID) {
      out.add(new InsnNode(Opcodes.RETURN));
      return out;
    }
    out.add(zero(ret));
    out.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
    return out;
  }
}
