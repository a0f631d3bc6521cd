package io.krill.transform.internal;

/** The runtime names that woven code refers to; transform never imports the runtime. */
public final class Names {
  /** The marker exception. */
  public static final String SUSPENDABLE = "io/krill/fibers/Suspendable";
  /** The annotation on hand-written primitives that must not be woven. */
  public static final String PRIMITIVE_DESC = "Lio/krill/fibers/Primitive;";
  /** The frame store that woven code calls. */
  public static final String STACK = "io/krill/fibers/Stack";
  /** Its descriptor. */
  public static final String STACK_DESC = "L" + STACK + ";";
  /**
   * The field that marks a woven class: "version|name+desc|...", where the version is
   * "hash/abi&lt;n&gt;" (a hash of the class file as compiled, and the {@link #WOVEN_ABI} that
   * wove it).
   */
  public static final String WOVEN_FIELD = "$krill$woven";
  /**
   * The field that gives a woven class's call-site lines: "SourceFile|name+desc:l0,l1,...|...",
   * the source line of each resume index (-1 where the class has no line numbers), for the
   * frames that stack traces and dumps show from a frame store instead of the thread's stack.
   */
  public static final String LINES_FIELD = "$krill$lines";
  /**
   * The version of the binary interface between woven code and {@code Stack}: the fields,
   * methods and frame layout that woven code uses. Raise it with every change to them, so
   * that the weaver refuses classes woven by an older weaver instead of skipping them.
   * 1: the classes woven before the stamp (the flags {@code capturing} and {@code restoring});
   * 2: one byte {@code flow}, negative while capturing, positive while restoring;
   * 3: the cold variants {@code reserveColdFrame} and {@code openColdFrame};
   * 4: stack entries, {@code name(args..., Stack)}, which woven callers call with the stack
   * they hold ({@code StackEntries});
   * 5: a frame no longer saves an operand-stack value or a receiver that is a copy of a saved
   * local or of {@code this}, and a delegation through final fields saves no frame: the same
   * method's frame has another layout (frame ids name the ABI, so a continuation serialized by
   * an ABI 4 build is refused, not misread);
   * 6: stack entries take the caller's flow as well, {@code name(args..., Stack, byte)}: 0
   * from a normal call, 1 from the restore's own call;
   * 7: references are saved through {@code putRef} (a store only when the slot changes) and
   * read back with plain loads: a restore no longer clears the slots ({@code takeRef} is gone),
   * and a frame that only waits is saved again by setting {@code primTop} and {@code refTop}
   * over it;
   * 8: that test and re-save is {@code Stack.savedAgain}, and every suspendable call but one to
   * a primitive (an interface or virtual call too, not only a call to a stack entry) is made
   * again by the restore from a call of its own, so a frame that waits on a handler called
   * through an interface is saved again in place as well.
   */
  public static final int WOVEN_ABI = 8;
  /**
   * Appended to the woven ABI in the version of a class woven for lazy resume (the default;
   * {@code -Dkrill.weave.lazyResume=false} turns it off): each frame also saves its method's receiver (or,
   * static, its class) in the slot below its id, a frame saved again in place is marked as
   * waiting ({@code Stack.savedAgainWaiting}), and the resume dispatch hands an index that is
   * no call site to {@code Stack.resumeResult}.
   */
  public static final String LAZY_RESUME = "+lazy";
  /**
   * The private static method of a class woven for lazy resume through which the runtime
   * re-enters one of its methods ({@code ResumeEntries}): {@code (int method, Object self,
   * Stack stack)}, the method's result boxed.
   */
  public static final String ENTER = "$krill$enter";
  /** Its descriptor. */
  public static final String ENTER_DESC = "(ILjava/lang/Object;L" + STACK + ";)Ljava/lang/Object;";
  /**
   * The private static method that makes the runtime's handle on one method's entry:
   * {@code (String name+desc)}, an {@link #ENTRY_TYPE} that calls {@link #ENTER}, or null.
   */
  public static final String ENTRY = "$krill$entry";
  /** The interface of the runtime's handle on an entry. */
  public static final String ENTRY_TYPE = STACK + "$Entry";
  /** The descriptor of {@link #ENTRY}. */
  public static final String ENTRY_DESC = "(Ljava/lang/String;)L" + ENTRY_TYPE + ";";
  /** The byte of {@code Stack} that woven code tests: negative capturing, positive restoring. */
  public static final String FLOW = "flow";

  private Names() {}
}
