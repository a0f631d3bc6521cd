package io.krill.fibers;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Supervision of threaded schedulers: which fiber runs on which carrier (for the watchdog, on
 * any carrier thread), one JMX MBean per scheduler, the JFR periodic statistics, and the fiber
 * dump as text and JSON.
 */
final class Supervision {
  /*
   * Implementation notes.
   *
   * Slices. Event-loop carriers are CarrierThreads and stealing workers are StealingWorkers:
   * both hold a slice record in a field, so recording a slice costs two plain stores. A carrier
   * of a scheduler built outside this package is any Thread; it gets a record through a
   * ThreadLocal, registered weakly by thread so the watchdog (another thread) finds it. The
   * watchdog reads the records racily: a stale read delays a report by one period at most.
   *
   * JMX and JFR. Registering the first MBean starts the platform MBean server and registering
   * the periodic event starts JFR's metadata repository: about 100 ms each here. Both happen
   * on one daemon thread, in order, so creating a scheduler costs the caller nothing and an
   * MBean is unregistered after it was registered.
   */

  /** The system property that turns the per-scheduler MBeans off ({@code false}); on by default. */
  static final String JMX_PROPERTY = "krill.fibers.jmx";
  /** The system property that turns the JFR periodic statistics off ({@code false}); on by default. */
  static final String JFR_PROPERTY = "krill.fibers.jfr";
  /** The JMX domain of the MBeans. */
  static final String DOMAIN = "io.krill";

  private static final boolean JMX = !"false".equals(System.getProperty(JMX_PROPERTY));
  private static final boolean JFR = !"false".equals(System.getProperty(JFR_PROPERTY));

  /** What a carrier is running: the fiber of the current slice and how many slices it started. */
  static final class SliceRecord {
    Object owner;
    long slices;
  }

  private static final Map<Thread, SliceRecord> RECORDS = Collections.synchronizedMap(new WeakHashMap<>());
  private static final ThreadLocal<SliceRecord> LOCAL = ThreadLocal.withInitial(() -> {
    SliceRecord r = new SliceRecord();
    RECORDS.put(Thread.currentThread(), r);
    return r;
  });

  /* Threaded schedulers, weakly: a scheduler nobody references any more is dropped. */
  private static final Map<FiberScheduler, Boolean> SCHEDULERS = Collections.synchronizedMap(new WeakHashMap<>());

  private static final ExecutorService REGISTRAR = newRegistrar();

  private Supervision() {}

  private static ExecutorService newRegistrar() {
    ThreadPoolExecutor e = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "krill-supervision");
      t.setDaemon(true);
      return t;
    });
    e.allowCoreThreadTimeOut(true);
    if (JFR) {
      e.execute(Supervision::registerPeriodicEvent);
    }
    return e;
  }

  private static void registerPeriodicEvent() {
    try {
      jdk.jfr.FlightRecorder.addPeriodicEvent(FiberEvents.SchedulerStatistics.class, FiberEvents::emitStatistics);
    } catch (Throwable e) { // no JFR in this runtime (or it is disabled): statistics stay reachable over JMX
      System.err.println("krill: JFR scheduler statistics unavailable: " + e);
    }
  }

  // ------------------------------------------------------------------ slices on any carrier

  /** Runs one slice of {@code f} on {@code t}, a thread that is not a {@link CarrierThread}. */
  static void runSlice(Fiber f, Thread t) {
    SliceRecord r = t instanceof StealingWorker ? ((StealingWorker) t).slice : LOCAL.get();
    Object previous = r.owner; // a nested run (a scheduler that runs fibers from a slice) restores it
    r.slices++;
    r.owner = f;
    try {
      f.runSlice(null);
    } finally {
      r.owner = previous;
    }
  }

  /** @return the slice record of a carrier that is not a {@link CarrierThread}, or null before its first slice */
  static SliceRecord recordOf(Thread t) {
    return t instanceof StealingWorker ? ((StealingWorker) t).slice : RECORDS.get(t);
  }

  /** @return how many slices the carriers of {@code s} have started */
  static long slices(FiberScheduler s) {
    long n = 0;
    for (Thread t : s.carriers()) {
      if (t instanceof CarrierThread) {
        n += ((CarrierThread) t).slices();
      } else {
        SliceRecord r = recordOf(t);
        n += r == null ? 0 : r.slices;
      }
    }
    return n;
  }

  /** @return live, parked and runnable fibers of {@code s}; -1 each when it does not track */
  static int[] counts(FiberScheduler s) {
    if (!s.tracking) {
      return new int[] {-1, -1, -1};
    }
    int live = 0;
    int parked = 0;
    int runnable = 0;
    for (Fiber f : s.live) {
      live++;
      String state = f.state();
      if (state.equals("parked")) {
        parked++;
      } else if (state.equals("runnable")) {
        runnable++;
      }
    }
    return new int[] {live, parked, runnable};
  }

  // ------------------------------------------------------------------ registry and MBeans

  /** Records a new threaded scheduler and registers its MBean in the background. */
  static void created(FiberScheduler s) {
    SCHEDULERS.put(s, Boolean.TRUE);
    if (JMX) {
      WeakReference<FiberScheduler> ref = new WeakReference<>(s);
      String name = s.name();
      REGISTRAR.execute(() -> register(ref, name));
    }
  }

  /** Unregisters the MBean of a closed scheduler. */
  static void closed(FiberScheduler s) {
    SCHEDULERS.remove(s);
    if (JMX) {
      String name = s.name();
      REGISTRAR.execute(() -> unregister(name));
    }
  }

  /** @return the live threaded schedulers, oldest first */
  static List<FiberScheduler> schedulers() {
    List<FiberScheduler> list;
    synchronized (SCHEDULERS) {
      list = new ArrayList<>(SCHEDULERS.keySet());
    }
    list.sort(Comparator.comparingInt(s -> s.serial));
    return list;
  }

  /**
   * Returns the MBean name of a scheduler.
   *
   * @param schedulerName the scheduler's name
   * @return {@code io.krill:type=FiberScheduler,name=<name>}
   */
  static ObjectName objectName(String schedulerName) {
    try {
      return new ObjectName(DOMAIN + ":type=FiberScheduler,name=" + ObjectName.quote(schedulerName));
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalStateException("unreachable: a quoted name is well formed", e);
    }
  }

  private static void register(WeakReference<FiberScheduler> ref, String name) {
    FiberScheduler s = ref.get();
    if (s == null || !SCHEDULERS.containsKey(s)) {
      return; // closed or collected before its turn
    }
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      dropCollected(server);
      server.registerMBean(new SchedulerMXBeanImpl(ref), objectName(name));
    } catch (Exception e) {
      System.err.println("krill: no MBean for scheduler " + name + ": " + e);
    }
  }

  private static void unregister(String name) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName on = objectName(name);
      if (server.isRegistered(on)) {
        server.unregisterMBean(on);
      }
    } catch (Exception e) {
      System.err.println("krill: cannot unregister the MBean of scheduler " + name + ": " + e);
    }
  }

  /* Schedulers that were collected without close() (one a user built and dropped): their MBeans go. */
  private static void dropCollected(MBeanServer server) throws Exception {
    for (ObjectName on : server.queryNames(new ObjectName(DOMAIN + ":type=FiberScheduler,*"), null)) {
      Object gone = server.getAttribute(on, "Closed");
      if (Boolean.TRUE.equals(gone)) {
        server.unregisterMBean(on);
      }
    }
  }

  /** The MBean of one scheduler; it holds the scheduler weakly. */
  static final class SchedulerMXBeanImpl implements FiberSchedulerMXBean {
    private final WeakReference<FiberScheduler> ref;

    SchedulerMXBeanImpl(WeakReference<FiberScheduler> ref) {
      this.ref = ref;
    }

    private FiberScheduler s() {
      FiberScheduler s = ref.get();
      if (s == null) {
        throw new IllegalStateException("scheduler closed");
      }
      return s;
    }

    @Override
    public String getName() {
      return s().name();
    }

    @Override
    public boolean isClosed() {
      FiberScheduler s = ref.get();
      return s == null || !SCHEDULERS.containsKey(s);
    }

    @Override
    public boolean isTracking() {
      return s().tracking;
    }

    @Override
    public void setTracking(boolean on) {
      if (!on) {
        throw new IllegalArgumentException("tracking: false (expected: true; tracking cannot be turned off)");
      }
      s().track();
    }

    @Override
    public int getLiveFibers() {
      return counts(s())[0];
    }

    @Override
    public int getParkedFibers() {
      return counts(s())[1];
    }

    @Override
    public int getRunnableFibers() {
      return counts(s())[2];
    }

    @Override
    public long getSlices() {
      return slices(s());
    }

    @Override
    public long getSteals() {
      return s().steals();
    }

    @Override
    public int getCarriers() {
      return s().carriers().size();
    }

    @Override
    public int getBlockingPoolSize() {
      return Blocking.poolSize();
    }

    @Override
    public int getBlockingQueueSize() {
      return Blocking.queued();
    }

    @Override
    public long getWatchdogThresholdMillis() {
      java.time.Duration d = s().watchdogThreshold();
      return d == null ? 0 : d.toMillis();
    }

    @Override
    public void setWatchdogThresholdMillis(long millis) {
      Checks.nonNegative("watchdogThresholdMillis", millis);
      FiberScheduler s = s();
      s.watchdog(millis == 0 ? null : java.time.Duration.ofMillis(millis), s.watchdogReporter() == null
          ? Watchdog::log : s.watchdogReporter());
    }

    @Override
    public String getDeadlockReport() {
      return s().deadlockReport();
    }

    @Override
    public String dumpFibers() {
      return dump(s());
    }

    @Override
    public String dumpFibersJson() {
      return dumpJson(List.of(s()));
    }
  }

  // ------------------------------------------------------------------ dumps

  /** @return every live fiber of {@code s}: name, state, what it waits on, and its frames when parked */
  static String dump(FiberScheduler s) {
    StringBuilder sb = new StringBuilder();
    sb.append(s.name()).append(s.tracking ? ":\n" : ": (not tracking fibers: start it with -Dkrill.fibers.track=true)\n");
    for (Fiber f : s.liveFibers()) {
      sb.append(f.describe());
    }
    return sb.toString();
  }

  /**
   * Renders fibers as JSON, one object per fiber (id, name, state, blocker, stack), grouped by
   * scheduler: {@code {"schedulers":[{"name":…,"tracking":…,"fibers":[…]}]}}.
   *
   * @param schedulers the schedulers to dump
   * @return the JSON text
   */
  static String dumpJson(List<FiberScheduler> schedulers) {
    StringBuilder sb = new StringBuilder("{\"schedulers\":[");
    String sep = "";
    for (FiberScheduler s : schedulers) {
      sb.append(sep).append("{\"name\":");
      string(sb, s.name());
      sb.append(",\"tracking\":").append(s.tracking).append(",\"fibers\":[");
      String fsep = "";
      for (Fiber f : s.liveFibers()) {
        sb.append(fsep).append("{\"id\":").append(f.id()).append(",\"name\":");
        string(sb, f.name());
        sb.append(",\"state\":");
        string(sb, f.state());
        Object blocker = f.blocker();
        sb.append(",\"blocker\":");
        if (blocker == null) {
          sb.append("null");
        } else {
          string(sb, String.valueOf(blocker));
        }
        sb.append(",\"stack\":[");
        String ssep = "";
        for (String frame : f.frames()) {
          sb.append(ssep);
          string(sb, frame);
          ssep = ",";
        }
        sb.append("]}");
        fsep = ",";
      }
      sb.append("]}");
      sep = ",";
    }
    return sb.append("]}").toString();
  }

  /* A JSON string literal (RFC 8259 escapes); Jackson is not a dependency of this module. */
  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    sb.append('"');
  }
}
