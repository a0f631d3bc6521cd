package io.krill.fibers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * A lightweight thread: suspendable code run by a {@link FiberScheduler} on its carriers.
 * It costs a small heap object while parked instead of a thread's stack.
 *
 * <pre>{@code
 * Fiber f = Fiber.start(() -> {
 *   Fiber.sleep(Duration.ofMillis(10));
 *   System.out.println("hello from " + Fiber.current().name());
 * });
 * f.join();
 * }</pre>
 *
 * <p>Blocking calls of this class ({@link #park()}, {@link #sleep(Duration)}, {@link #join()})
 * suspend the calling fiber and never block its carrier; called from a platform or virtual
 * thread they block that thread, so the same code runs under all three models. A cancelled
 * fiber's next (or current) blocking call throws {@link FiberCancelledException}.
 *
 * <p>{@link #run()} is for schedulers: it runs one slice of the fiber on the calling carrier.
 */
public final class Fiber extends Stack implements Runnable {
  /*
   * Implementation notes.
   *
   * Two bytes, each its own field. `state` packs the scheduling state (low 3 bits), the park
   * permit (PERMIT) and CANCEL_THROWN. `signals` holds what other threads tell the fiber:
   * STARTED and CANCELLED (set once, never cleared) and the pending requests WAKE, START and
   * JOIN (a joiner on another thread asks the loop to look at the joiners' stack, see Joiner).
   * start() sets STARTED with a CAS, as another thread may race it; Builder.start, whose fiber
   * no other thread can know yet, sets it with a plain store (one atomic less per spawn).
   *
   * A fiber of an event-loop scheduler is carrier-confined: only its home loop's thread ever
   * writes `state`, so start, run, park, commit and a local unpark are plain reads and release
   * stores, with no atomic instruction (other threads only read `state`, racily, for isDone()
   * and dumps). Any other thread that unparks or starts it sets WAKE or START in `signals`
   * with a CAS, and the one whose CAS raised the first pending request posts the fiber to the
   * home loop's inbox; the loop then applies the requests as a local unpark or start
   * (takeSignals). A remote unpark therefore never races the park commit: the commit is the
   * owner's plain store, and the wake-up waits in `signals` and the inbox until the owner
   * takes it. beginPark also takes a pending WAKE itself, as a permit, so a park after a remote
   * unpark returns at once, as it does after a local one.
   *
   * Fibers of other schedulers may run on any worker, so they keep the shared protocol on
   * `state`: every transition is a CAS. The owner moves RUNNING -> PARKING, then unwinds;
   * after the slice returns, run() moves PARKING -> PARKED. unpark() moves PARKED -> RUNNABLE
   * and submits, or, for any other state, sets PERMIT. If the permit arrives during PARKING,
   * the CAS PARKING -> PARKED fails and run() resubmits at once, so no wake-up is lost and a
   * fiber is never submitted twice: every submission passes through a successful CAS into
   * RUNNABLE.
   *
   * `aux` is the blocker from a park until the fiber resumes (for a channel's send or receive,
   * the waiter it parked on, which the operation reads back when it resumes: it has no woven
   * frame to keep it in), the carrier-local run queue's link while queued there if it holds no
   * such waiter (see LocalRunQueue), and the outcome (result or Throwable) once done.
   * `joiners` is a lock-free stack of strands (fibers or threads) waiting in join() (see
   * Joiner), or, once the fiber has Extras, the Extras, which then hold that stack: one word for
   * both, so a parked fiber that nobody names carries no second one. The word changes from a
   * stack to Extras once, by a CAS against the stack it read, so a joiner's CAS and the
   * installation of Extras cannot both succeed; Extras then stay for good.
   */
  private static final long serialVersionUID = 1L;

  private static final int NEW = 0;
  private static final int RUNNABLE = 1;
  private static final int RUNNING = 2;
  private static final int PARKING = 3;
  private static final int PARKED = 4;
  private static final int YIELDING = 5;
  private static final int DONE = 6;
  private static final int STATE_MASK = 7;
  private static final int PERMIT = 8;
  private static final int CANCEL_THROWN = 16;

  /* Bits of `signals`. */
  private static final int STARTED = 1;
  private static final int CANCELLED = 2;
  private static final int WAKE = 4;
  private static final int START = 8;
  private static final int JOIN = 16; // a joiner on another thread pushed itself: check the stack again (see Joiner)
  private static final int REQUESTS = WAKE | START | JOIN;

  private static final VarHandle STATE;
  private static final VarHandle SIGNALS;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(Fiber.class, "state", byte.class);
      SIGNALS = lookup.findVarHandle(Fiber.class, "signals", byte.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final AtomicLong IDS = new AtomicLong();

  final transient Object home;
  private volatile byte state; // bytes, state and signals: with Stack's fields a fiber's fields take 36 bytes
  private volatile byte signals;
  volatile Object joiners; // the joiners' stack (null: nobody joined), or the Extras that hold it (see the notes)
  Object aux; // the blocker of the last park until the fiber resumes, or a LocalRunQueue link; the outcome once done

  /*
   * Rarely used per-fiber data, allocated on first use (installed by CAS: id() and name() may
   * run on any thread). The id is drawn on first use too, so a parked fiber that nobody names
   * carries neither: 12 bytes less per fiber.
   */
  static final class Extras {
    volatile Object joiners; // the fiber's joiners' stack once Extras are installed (see Joiner)
    String name;
    Thread.UncaughtExceptionHandler handler;
    Map<FiberLocal<?>, Object> locals;
    volatile long id;
  }

  private static final AtomicReferenceFieldUpdater<Fiber, Object> WORD =
      AtomicReferenceFieldUpdater.newUpdater(Fiber.class, Object.class, "joiners");
  private static final java.util.concurrent.atomic.AtomicLongFieldUpdater<Extras> EXTRA_ID =
      java.util.concurrent.atomic.AtomicLongFieldUpdater.newUpdater(Extras.class, "id");

  private Extras extras() {
    for (;;) {
      Object w = joiners;
      if (w instanceof Extras) {
        return (Extras) w;
      }
      Extras x = new Extras();
      x.joiners = w; // the stack moves into the Extras with the CAS that installs them
      if (WORD.compareAndSet(this, w, x)) {
        return x;
      }
    }
  }

  /* @return the Extras, or null if none were installed */
  private Extras extrasOrNull() {
    Object w = joiners;
    return w instanceof Extras ? (Extras) w : null;
  }

  private static final class Failure {
    final Throwable error;

    Failure(Throwable error) {
      this.error = error;
    }
  }

  private Fiber(SuspendableRunnable body, FiberScheduler scheduler, Object home, String name,
      Thread.UncaughtExceptionHandler handler) {
    super(body);
    Object h = home != null ? scheduler.checkHome(home) : scheduler.assignHome();
    if (h != null && !(h instanceof Home && ((Home) h).scheduler() == scheduler)) {
      throw new IllegalStateException("home: " + h + " (expected: a home of " + scheduler.name() + ")");
    }
    this.home = h != null ? h : scheduler; // the scheduler is found through the home: one field less per fiber
    if (name != null || handler != null) {
      Extras x = new Extras();
      x.name = name;
      x.handler = handler;
      joiners = x;
    }
  }

  // ------------------------------------------------------------------ creating

  /**
   * Starts a fiber on the current fiber's scheduler, or on the default scheduler.
   *
   * @param body the code to run
   * @return the started fiber
   */
  public static Fiber start(SuspendableRunnable body) {
    return builder().start(body);
  }

  /** @return a builder for a fiber with a name, scheduler or exception handler */
  public static Builder builder() {
    return new Builder();
  }

  /** Configures and starts fibers. Not thread-safe; reusable. */
  public static final class Builder {
    private String name;
    private FiberScheduler scheduler;
    private Thread.UncaughtExceptionHandler handler;
    private Object home;

    private Builder() {}

    /**
     * Pins the fiber to a home of its scheduler: for the event-loop scheduler, one of its
     * event loops (netio starts a connection's fiber on the connection's loop).
     *
     * @param home a home the scheduler accepts
     * @return this
     */
    public Builder home(Object home) { this.home = Objects.requireNonNull(home, "home"); return this; }

    /** @param name the fiber's name @return this */
    public Builder name(String name) { this.name = Objects.requireNonNull(name, "name"); return this; }

    /** @param scheduler where the fiber runs @return this */
    public Builder scheduler(FiberScheduler scheduler) { this.scheduler = Objects.requireNonNull(scheduler, "scheduler"); return this; }

    /** @param handler receives the fiber's uncaught exception @return this */
    public Builder uncaughtExceptionHandler(Thread.UncaughtExceptionHandler handler) { this.handler = Objects.requireNonNull(handler, "handler"); return this; }

    /**
     * Creates the fiber without starting it.
     *
     * @param body the code to run
     * @return the fiber, in state NEW
     */
    public Fiber unstarted(SuspendableRunnable body) {
      Objects.requireNonNull(body, "body");
      FiberScheduler s = scheduler;
      if (s == null) {
        Fiber current = current();
        s = current != null ? current.sched() : FiberScheduler.defaultScheduler();
      }
      return new Fiber(body, s, home, name, handler);
    }

    /**
     * Creates and starts the fiber.
     *
     * @param body the code to run
     * @return the started fiber
     */
    public Fiber start(SuspendableRunnable body) {
      Fiber f = unstarted(body);
      // No other thread can know f yet: nothing races the STARTED bit, so a plain store sets it.
      SIGNALS.set(f, (byte) STARTED);
      f.launch();
      return f;
    }
  }

  /**
   * Starts a fiber created with {@link Builder#unstarted}.
   *
   * @throws IllegalStateException if it was started already
   */
  public void start() {
    byte g;
    do {
      g = signals;
      if ((g & STARTED) != 0) {
        throw new IllegalStateException("fiber " + name() + ": started already");
      }
    } while (!SIGNALS.compareAndSet(this, g, (byte) (g | STARTED)));
    launch();
  }

  /* Registers a fiber just marked STARTED and makes it runnable on its home. */
  private void launch() {
    sched().registered(this);
    FiberEvents.started(this);
    CarrierLoop loop = confinedLoop();
    if (loop == null) {
      int s;
      do {
        s = state;
      } while (!STATE.compareAndSet(this, (byte) s, (byte) ((s & ~STATE_MASK) | RUNNABLE)));
      dispatch();
    } else {
      CarrierThread c = homeCarrier(loop);
      if (c != null) {
        STATE.setRelease(this, (byte) ((state & ~STATE_MASK) | RUNNABLE));
        dispatchOn(c, false);
      } else {
        request(START, loop);
      }
    }
  }

  // ------------------------------------------------------------------ identity

  /** @return the fiber running on the current thread, or null */
  public static Fiber current() {
    Stack s = Stack.current();
    return s instanceof Fiber ? (Fiber) s : null;
  }

  /**
   * Returns the fiber's id: process-unique and positive. Ids are drawn from one counter on
   * first use (by this method, {@link #name()} of an unnamed fiber, or a dump), so they are
   * unique but follow first use, not creation order.
   *
   * @return the id
   */
  public long id() {
    Extras x = extras();
    long id = x.id;
    if (id == 0) {
      long fresh = IDS.incrementAndGet();
      id = EXTRA_ID.compareAndSet(x, 0, fresh) ? fresh : x.id;
    }
    return id;
  }

  /** @return the name given at creation, or "fiber-ID" */
  public String name() {
    Extras x = extrasOrNull();
    return x != null && x.name != null ? x.name : "fiber-" + id();
  }

  /** @return the scheduler this fiber runs on */
  public FiberScheduler scheduler() {
    return sched();
  }

  /** @return true once the body has returned or thrown */
  public boolean isDone() {
    return (state & STATE_MASK) == DONE;
  }

  /** @return true while the fiber is parked */
  public boolean isParked() {
    return (state & STATE_MASK) == PARKED;
  }

  /** @return true once {@link #cancel()} was called */
  public boolean isCancelled() {
    return (signals & CANCELLED) != 0;
  }

  @Override
  public String toString() {
    return "Fiber[" + name() + "," + stateName() + "]";
  }

  /** @return new, runnable, running, parked, yielding or done (for dumps) */
  String state() {
    return stateName();
  }

  /**
   * @return what the fiber waits on while parked (a racy read, for dumps), or null, also when it
   *     is not parked: a queued fiber may still hold the channel waiter that woke it
   */
  Object blocker() {
    if (!isParked()) {
      return null;
    }
    Object b = aux;
    if (b instanceof Waiter) { // a channel operation parked without a frame of its own (see Channel)
      return ((Waiter) b).blocker;
    }
    return b instanceof Failure ? null : b; // an outcome is no blocker
  }

  /**
   * @return the suspended frames while parked, innermost first, as a stack trace prints them:
   *     "class.method(File.java:line)"; empty otherwise
   */
  List<String> frames() {
    if (!isParked()) {
      return List.of();
    }
    List<StackTraceElement> frames = frameElements();
    List<String> out = new java.util.ArrayList<>(frames.size());
    for (int i = frames.size() - 1; i >= 0; i--) {
      out.add(frames.get(i).toString());
    }
    return out;
  }

  private String stateName() {
    switch (state & STATE_MASK) {
      case NEW:
        return "new";
      case RUNNABLE:
        return "runnable";
      case RUNNING:
        return "running";
      case PARKING:
      case PARKED:
        return "parked";
      case YIELDING:
        return "yielding";
      default:
        return "done";
    }
  }

  /* The home is the scheduler itself, or a home (an event loop) that knows its scheduler. */
  FiberScheduler sched() {
    Object h = home;
    return h instanceof FiberScheduler ? (FiberScheduler) h : ((Home) h).scheduler();
  }

  /* @return the home loop whose thread alone writes `state` (see the notes), or null when `state` is shared */
  private CarrierLoop confinedLoop() {
    Object h = home;
    return h instanceof CarrierLoop ? (CarrierLoop) h : null;
  }

  // ------------------------------------------------------------------ running (scheduler side)

  /**
   * Runs one slice of this fiber on the calling carrier. For schedulers only.
   */
  @Override
  public void run() {
    Thread t = Thread.currentThread();
    if (!(t instanceof CarrierThread)) {
      Supervision.runSlice(this, t); // records the slice for the watchdog, as CarrierThread does
      return;
    }
    CarrierThread carrier = (CarrierThread) t;
    LocalRunQueue q = carrier.runQueue;
    if (q == null) {
      q = new LocalRunQueue(carrier);
      carrier.runQueue = q;
    }
    if (q.draining) { // a nested run (another scheduler's fiber run from a slice): just run it
      runSlice(carrier);
      return;
    }
    Stack outer = carrier.stack; // NONE unless run from inside a continuation on this thread
    boolean keepBound = outer == NONE;
    q.draining = true;
    try {
      runSlice(carrier, keepBound);
      q.drain(carrier, keepBound);
    } finally {
      q.stopDraining(outer);
    }
  }

  /* Makes a RUNNABLE fiber run: on the local queue when woken on its own loop inside a slice. */
  private void dispatch() {
    CarrierThread c = homeCarrier(home);
    if (c != null) {
      dispatchOn(c, false);
    } else {
      sched().submit(this);
    }
  }

  /*
   * The calling thread if it is the carrier that runs loop `home`, else null: a type check and a
   * plain read of the carrier's field (Netty's inEventLoop() reads a volatile through two calls).
   */
  private static CarrierThread homeCarrier(Object home) {
    Thread t = Thread.currentThread();
    return t instanceof CarrierThread && ((CarrierThread) t).loop() == home ? (CarrierThread) t : null;
  }

  /*
   * dispatch() from carrier c, which runs this fiber's home loop. handOff: run right after the
   * current slice (LocalRunQueue's direct hand-off) instead of in FIFO order.
   */
  private void dispatchOn(CarrierThread c, boolean handOff) {
    LocalRunQueue q = c.runQueue;
    if (q != null && q.draining) {
      if (handOff) {
        q.handOff(this);
      } else {
        q.add(this);
      }
    } else {
      sched().submit(this);
    }
  }

  void runSlice(CarrierThread carrier) {
    runSlice(carrier, false);
  }

  /* keepBound: called from the carrier's drain loop, see Stack.runStack(boolean) and LocalRunQueue. */
  void runSlice(CarrierThread carrier, boolean keepBound) {
    if (home instanceof CarrierLoop) {
      STATE.setRelease(this, (byte) ((state & ~STATE_MASK) | RUNNING));
    } else {
      int s;
      do {
        s = state;
      } while (!STATE.compareAndSet(this, (byte) s, (byte) ((s & ~STATE_MASK) | RUNNING)));
    }
    if (carrier != null) {
      carrier.sliceStarted();
    }
    try {
      runStack(keepBound);
    } catch (Throwable e) {
      try {
        uncaught(e);
      } finally {
        complete(new Failure(e));
      }
      return;
    } finally {
      if (carrier != null) {
        carrier.sliceEnded();
      }
    }
    if (stackDone()) {
      complete(null);
      return;
    }
    afterSuspend();
  }

  private void afterSuspend() {
    if (home instanceof CarrierLoop) {
      int s = state;
      int st = s & STATE_MASK;
      if (st == PARKING) {
        if ((s & PERMIT) == 0) {
          STATE.setRelease(this, (byte) ((s & ~STATE_MASK) | PARKED));
        } else {
          STATE.setRelease(this, (byte) ((s & ~(STATE_MASK | PERMIT)) | RUNNABLE));
          dispatch();
        }
        return;
      }
      if (st == YIELDING) {
        STATE.setRelease(this, (byte) ((s & ~STATE_MASK) | RUNNABLE));
        sched().submit(this);
        return;
      }
      throw suspendedIn();
    }
    for (;;) {
      int s = state;
      int st = s & STATE_MASK;
      if (st == PARKING) {
        if ((s & PERMIT) != 0) {
          if (STATE.compareAndSet(this, (byte) s, (byte) ((s & ~(STATE_MASK | PERMIT)) | RUNNABLE))) {
            dispatch();
            return;
          }
        } else if (STATE.compareAndSet(this, (byte) s, (byte) ((s & ~STATE_MASK) | PARKED))) {
          return;
        }
      } else if (st == YIELDING) {
        if (STATE.compareAndSet(this, (byte) s, (byte) ((s & ~STATE_MASK) | RUNNABLE))) {
          sched().submit(this);
          return;
        }
      } else {
        throw suspendedIn();
      }
    }
  }

  private IllegalStateException suspendedIn() {
    return new IllegalStateException("fiber " + name() + ": suspended in state " + stateName()
        + " (a raw Continuation.suspend() inside a fiber is not supported)");
  }

  private void complete(Object outcome) {
    aux = outcome;
    boolean confined = home instanceof CarrierLoop;
    if (confined) {
      // A release store suffices: joiners on other threads make the loop check the stack again (see Joiner).
      STATE.setRelease(this, (byte) ((state & ~(STATE_MASK | PERMIT)) | DONE));
    } else {
      int s;
      do {
        s = state;
      } while (!STATE.compareAndSet(this, (byte) s, (byte) ((s & ~(STATE_MASK | PERMIT)) | DONE)));
    }
    sched().finished(this);
    FiberEvents.ended(this, outcome != null);
    Joiner.wakeAll(this, confined);
  }

  /*
   * Called by a joiner right after it pushed itself on the stack: from a thread other than a
   * confined fiber's home loop, asks the loop to check the stack again (see Joiner's notes).
   */
  void joinedFromAnotherThread() {
    CarrierLoop loop = confinedLoop();
    if (loop != null && !loop.inEventLoop()) {
      request(JOIN, loop);
    }
  }

  private void uncaught(Throwable e) {
    if (e instanceof FiberCancelledException) {
      return;
    }
    Extras x = extrasOrNull();
    Thread.UncaughtExceptionHandler h = x != null && x.handler != null ? x.handler : Thread.getDefaultUncaughtExceptionHandler();
    if (h != null) {
      h.uncaughtException(Thread.currentThread(), e);
    } else {
      System.err.println("Exception in fiber \"" + name() + "\"");
      e.printStackTrace();
    }
  }

  // ------------------------------------------------------------------ parking (fiber side)

  /**
   * Parks the current fiber until {@link #unpark()} (or spuriously); consumes a pending
   * permit and returns at once if there is one. Off-fiber, parks the thread.
   *
   * @throws FiberCancelledException if the fiber is cancelled
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void park() throws Suspendable {
    Stack s = Stack.current();
    park(null, s, s.flow);
  }

  /**
   * {@link #park()} for woven callers, which hold the current stack: the weaver calls this
   * entry in place of {@code park()} and passes the stack and its flow. Not for hand-written calls.
   *
   * @param s the current stack ({@link Stack#current()})
   * @param flow {@code s.flow} at the call: above 0 when the woven caller is restoring
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void park(Stack s, byte flow) throws Suspendable {
    park(null, s, flow);
  }

  /**
   * Parks like {@link #park()}, recording what the fiber waits on for dumps.
   *
   * @param blocker what the fiber waits on, or null
   * @throws FiberCancelledException if the fiber is cancelled
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void park(Object blocker) throws Suspendable {
    Stack s = Stack.current();
    park(blocker, s, s.flow);
  }

  /**
   * {@link #park(Object)} for woven callers, which hold the current stack: the weaver calls
   * this entry in place of {@code park(blocker)} and passes the stack and its flow. Not for
   * hand-written calls.
   *
   * @param blocker what the fiber waits on, or null
   * @param s the current stack ({@link Stack#current()})
   * @param flow {@code s.flow} at the call: above 0 when the woven caller is restoring
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void park(Object blocker, Stack s, byte flow) throws Suspendable {
    if (flow > 0) { // restoring
      s.flow = 0; // what Stack.suspendCurrent() does when restoring
      ((Fiber) s).afterPark();
      return;
    }
    if (!(s instanceof Fiber)) {
      LockSupport.park(blocker);
      return;
    }
    Fiber f = (Fiber) s;
    if (f.beginPark(blocker)) {
      FiberEvents.parkStarted(f, blocker);
      Stack.beginCapture(f);
    } else {
      f.afterPark();
    }
  }

  /*
   * Also called by Channel's send and receive, which park without a woven frame: they pass
   * their waiter as the blocker, so it waits in aux until they resume and call afterPark.
   * @return true if the fiber must suspend; false if a permit or cancellation ends the park at once (call afterPark)
   */
  boolean beginPark(Object blocker) {
    if (home instanceof CarrierLoop) {
      if ((signals & (CANCELLED | WAKE)) != 0 && signalledPark()) {
        return false;
      }
      int s = state;
      if ((s & PERMIT) != 0) {
        STATE.setRelease(this, (byte) (s & ~PERMIT));
        return false;
      }
      STATE.setRelease(this, (byte) ((s & ~STATE_MASK) | PARKING));
      aux = blocker;
      return true;
    }
    for (;;) {
      int s = state;
      if ((signals & CANCELLED) != 0 && (s & CANCEL_THROWN) == 0) {
        return false;
      }
      if ((s & PERMIT) != 0) {
        if (STATE.compareAndSet(this, (byte) s, (byte) (s & ~PERMIT))) {
          return false;
        }
      } else if (STATE.compareAndSet(this, (byte) s, (byte) ((s & ~STATE_MASK) | PARKING))) {
        aux = blocker;
        return true;
      }
    }
  }

  /*
   * For a confined fiber: a park that ends at once because of a pending cancellation, or a
   * remote wake-up not taken yet, which this takes as a permit (its inbox entry then finds
   * nothing to do).
   */
  private boolean signalledPark() {
    if ((signals & CANCELLED) != 0 && (state & CANCEL_THROWN) == 0) {
      return true;
    }
    return ((byte) SIGNALS.getAndBitwiseAnd(this, (byte) ~WAKE) & WAKE) != 0;
  }

  /* Throws the cancellation once: later parks (in finally blocks, say) wait normally. */
  void afterPark() {
    aux = null;
    FiberEvents.parkEnded(this);
    if ((signals & CANCELLED) == 0) {
      return;
    }
    for (;;) {
      int s = state;
      if ((s & CANCEL_THROWN) != 0) {
        return;
      }
      if (home instanceof CarrierLoop) {
        STATE.setRelease(this, (byte) (s | CANCEL_THROWN));
        throw new FiberCancelledException(name());
      }
      if (STATE.compareAndSet(this, (byte) s, (byte) (s | CANCEL_THROWN))) {
        throw new FiberCancelledException(name());
      }
    }
  }

  /**
   * Parks the current fiber for at most {@code nanos}.
   *
   * @param blocker what the fiber waits on, or null
   * @param nanos the longest wait
   * @throws FiberCancelledException if the fiber is cancelled
   * @throws Suspendable never; marks that this method suspends
   */
  public static void parkNanos(Object blocker, long nanos) throws Suspendable {
    Fiber f = current();
    if (f == null) {
      LockSupport.parkNanos(blocker, nanos);
      return;
    }
    if (nanos <= 0) {
      return;
    }
    FiberScheduler s = f.sched();
    boolean counted = s.tracking; // tracking may be turned on meanwhile: count each timer once, both ways
    if (counted) {
      s.timers.increment();
    }
    java.util.function.BooleanSupplier cancel = s.schedule(new WakeTask(f, counted), nanos);
    try {
      park(blocker);
    } finally {
      if (cancel.getAsBoolean() && counted) {
        s.timers.decrement();
      }
    }
  }

  /**
   * Suspends the current fiber for {@code duration} (on the scheduler's clock); off-fiber,
   * sleeps the thread.
   *
   * @param duration how long
   * @throws FiberCancelledException if the fiber is cancelled
   * @throws Suspendable never; marks that this method suspends
   */
  public static void sleep(Duration duration) throws Suspendable {
    Fiber f = current();
    long nanos = duration.toNanos();
    if (f == null) {
      long deadline = System.nanoTime() + nanos;
      for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
        LockSupport.parkNanos(left);
        if (Thread.interrupted()) {
          Thread.currentThread().interrupt();
          throw new FiberCancelledException(Thread.currentThread().getName());
        }
      }
      return;
    }
    FiberScheduler clock = f.sched();
    long deadline = clock.nanoTime() + nanos;
    for (long left = nanos; left > 0; left = deadline - clock.nanoTime()) {
      parkNanos("sleep", left);
    }
  }

  /**
   * Lets other runnable fibers run, then continues. Off-fiber, calls {@link Thread#yield()}.
   *
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void yieldNow() throws Suspendable {
    Stack s = Stack.current();
    yieldNow(s, s.flow);
  }

  /**
   * {@link #yieldNow()} for woven callers, which hold the current stack: the weaver calls this
   * entry in place of {@code yieldNow()} and passes the stack and its flow. Not for
   * hand-written calls.
   *
   * @param s the current stack ({@link Stack#current()})
   * @param flow {@code s.flow} at the call: above 0 when the woven caller is restoring
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void yieldNow(Stack s, byte flow) throws Suspendable {
    if (flow > 0) { // restoring
      s.flow = 0; // what Stack.suspendCurrent() does when restoring
      return;
    }
    if (!(s instanceof Fiber)) {
      Thread.yield();
      return;
    }
    Fiber f = (Fiber) s;
    if (f.home instanceof CarrierLoop) {
      STATE.setRelease(f, (byte) ((f.state & ~STATE_MASK) | YIELDING));
    } else {
      int st;
      do {
        st = f.state;
      } while (!STATE.compareAndSet(f, (byte) st, (byte) ((st & ~STATE_MASK) | YIELDING)));
    }
    Stack.beginCapture(f);
  }

  /**
   * Makes this fiber runnable if it is parked, or lets its next park return at once.
   * Callable from any thread.
   */
  public void unpark() {
    Object h = home;
    if (h instanceof CarrierLoop) {
      CarrierLoop loop = (CarrierLoop) h;
      CarrierThread c = homeCarrier(loop);
      if (c != null) {
        unparkLocal(c, false);
      } else if ((state & STATE_MASK) != DONE) {
        request(WAKE, loop);
      }
      return;
    }
    for (;;) {
      int s = state;
      int st = s & STATE_MASK;
      if (st == PARKED) {
        if (STATE.compareAndSet(this, (byte) s, (byte) ((s & ~STATE_MASK) | RUNNABLE))) {
          dispatch();
          return;
        }
      } else if (st == DONE || (s & PERMIT) != 0) {
        return;
      } else if (STATE.compareAndSet(this, (byte) s, (byte) (s | PERMIT))) {
        return;
      }
    }
  }

  /**
   * Unparks this fiber after a channel handed it an item: like {@link #unpark()}, but on the
   * fiber's own carrier it runs right after the current slice (a direct hand-off).
   */
  void unparkHandOff() {
    Object h = home;
    CarrierThread c = h instanceof CarrierLoop ? homeCarrier(h) : null;
    if (c != null) {
      unparkLocal(c, true);
    } else {
      unpark();
    }
  }

  /* unpark() of a confined fiber on its own carrier c (the home loop's thread): plain reads and release stores. */
  private void unparkLocal(CarrierThread c, boolean handOff) {
    int s = state;
    int st = s & STATE_MASK;
    if (st == PARKED) {
      STATE.setRelease(this, (byte) ((s & ~STATE_MASK) | RUNNABLE));
      dispatchOn(c, handOff);
    } else if (st != DONE && (s & PERMIT) == 0) {
      STATE.setRelease(this, (byte) (s | PERMIT));
    }
  }

  /*
   * From a thread other than the home loop's: records the request in `signals`; the thread
   * that raises the first pending request posts the fiber to the loop's inbox (see the notes).
   */
  private void request(int bit, CarrierLoop loop) {
    byte g;
    do {
      g = signals;
      if ((g & bit) != 0) {
        return;
      }
    } while (!SIGNALS.compareAndSet(this, g, (byte) (g | bit)));
    if ((g & REQUESTS) == 0) {
      loop.post(this);
    }
  }

  /**
   * Applies the pending remote requests as a local start or unpark (or, for a remote joiner of
   * a finished fiber, wakes the joiners), and runs the fiber if that made it runnable. On the
   * home loop's thread, outside any slice of this fiber: the inbox calls it.
   */
  void takeSignals() {
    int g = (byte) SIGNALS.getAndBitwiseAnd(this, (byte) ~REQUESTS);
    int s = state;
    int st = s & STATE_MASK;
    if ((g & JOIN) != 0 && st == DONE) {
      Joiner.wakeAll(this, true); // a joiner from another thread may have pushed itself after the finish read the stack
    }
    int n = s;
    if ((g & START) != 0 && st == NEW) {
      st = RUNNABLE;
      n = (n & ~STATE_MASK) | RUNNABLE;
    }
    if ((g & WAKE) != 0) {
      if (st == PARKED) {
        st = RUNNABLE;
        n = (n & ~STATE_MASK) | RUNNABLE;
      } else if (st != DONE) {
        n |= PERMIT;
      }
    }
    if (n == s) {
      return;
    }
    STATE.setRelease(this, (byte) n);
    if (st == RUNNABLE && (s & STATE_MASK) != RUNNABLE) {
      run();
    }
  }

  /**
   * Resumes this fiber now, on the calling thread, if it is parked and the caller is its home
   * event loop running no fiber slice: for I/O handlers that just completed what the fiber
   * waits for, so the fiber runs at once instead of after a hop through the loop's task queue
   * (as a Netty handler would answer inside its own callback). The slice runs inside this call,
   * so the caller must hold no lock (no monitor) the fiber could need and expect re-entrant
   * calls on its channel. Nesting is bounded: inside a slice this returns false.
   *
   * <p>Threading: any thread; it does something only on the fiber's home loop of an event-loop
   * scheduler.
   *
   * @return true if the fiber ran a slice here; false if nothing was done (call {@link #unpark()})
   */
  public boolean resumeHere() {
    CarrierLoop loop = confinedLoop();
    if (loop == null || !loop.inEventLoop() || Stack.current() != Stack.NONE) {
      return false;
    }
    int s = state;
    if ((s & STATE_MASK) != PARKED) {
      return false;
    }
    STATE.setRelease(this, (byte) ((s & ~STATE_MASK) | RUNNABLE));
    run();
    return true;
  }

  /**
   * Cancels the fiber: its current or next blocking call throws
   * {@link FiberCancelledException}, once. Callable from any thread.
   */
  public void cancel() {
    byte g;
    do {
      g = signals;
      if ((state & STATE_MASK) == DONE || (g & CANCELLED) != 0) {
        return;
      }
    } while (!SIGNALS.compareAndSet(this, g, (byte) (g | CANCELLED)));
    unpark();
  }

  /*
   * For the CSP primitives: a cancellation was thrown while a channel or lock operation
   * completed anyway (the item was handed over); the operation returns normally, and the
   * fiber's next blocking call throws the cancellation instead of losing it.
   */
  void rearmCancellation() {
    if (home instanceof CarrierLoop) {
      STATE.setRelease(this, (byte) (state & ~CANCEL_THROWN));
      return;
    }
    int s;
    do {
      s = state;
    } while (!STATE.compareAndSet(this, (byte) s, (byte) (s & ~CANCEL_THROWN)));
  }

  // ------------------------------------------------------------------ joining

  /**
   * Waits until the fiber finishes. Suspends a calling fiber; blocks a calling thread.
   *
   * @throws FiberCancelledException if the calling fiber is cancelled while waiting
   * @throws Suspendable never; marks that this method may suspend
   */
  public void join() throws Suspendable {
    Joiner.await(this, Long.MAX_VALUE);
  }

  /**
   * Waits at most {@code timeout} for the fiber to finish.
   *
   * @param timeout the longest wait
   * @throws TimeoutException if it has not finished in time
   * @throws Suspendable never; marks that this method may suspend
   */
  public void join(Duration timeout) throws TimeoutException, Suspendable {
    if (!Joiner.await(this, timeout.toNanos())) {
      throw new TimeoutException("fiber " + name() + " did not finish within " + timeout);
    }
  }

  /**
   * Waits for the fiber and returns how it ended.
   *
   * @return the fiber's uncaught exception, or null if it returned normally
   * @throws Suspendable never; marks that this method may suspend
   */
  public Throwable joinFailure() throws Suspendable {
    join();
    Object o = aux;
    return o instanceof Failure ? ((Failure) o).error : null;
  }

  private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
    throw new java.io.NotSerializableException("Fiber " + name() + ": fibers are bound to a scheduler;"
        + " serialize a suspended Continuation instead");
  }

  // ------------------------------------------------------------------ locals and dumps

  Map<FiberLocal<?>, Object> localMap() {
    Extras x = extras();
    if (x.locals == null) {
      x.locals = new HashMap<>(4);
    }
    return x.locals;
  }

  /** @return "name [state] waiting on X" and the suspended frames, innermost first */
  String describe() {
    StringBuilder sb = new StringBuilder("\"").append(name()).append("\" #").append(id()).append(' ').append(stateName());
    Object blocker = blocker();
    if (blocker != null) {
      sb.append(" waiting on ").append(blocker);
    }
    sb.append('\n');
    for (String frame : frames()) {
      sb.append("    at ").append(frame).append('\n');
    }
    return sb.toString();
  }
}
