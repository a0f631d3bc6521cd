package io.krill.fibers.internal;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;

/**
 * What {@code io.krill.fibers.spi.Carriers} needs of the carriers, which are package-private
 * classes of {@code io.krill.fibers}. That package registers the one implementation when it
 * initializes; a scheduler travels as {@code Object}, so this package depends on no other fibers
 * package. Not API. Thread-safe.
 */
public abstract class CarrierAccess {
  /*
   * Implementation notes.
   *
   * This is the JDK's SharedSecrets pattern: Java has no "friend" package, and the alternative,
   * public scheduler classes in io.krill.fibers, would put Netty's types and CarrierIo into the
   * fibers API. None of this is on a suspend, resume, park or unpark path: spi.Carriers is
   * called when a scheduler is created and when a library sets up a channel.
   */
  private static volatile CarrierAccess instance;

  /** For the one implementation in {@code io.krill.fibers}. */
  protected CarrierAccess() {}

  /**
   * Registers the implementation; {@code io.krill.fibers} calls it once, when it initializes.
   *
   * @param access the implementation
   */
  public static void register(CarrierAccess access) {
    instance = access;
  }

  /**
   * Returns the implementation, initializing {@code owner} first if nothing is registered yet.
   *
   * @param owner the class of {@code io.krill.fibers} whose initialization registers it
   * @return the implementation
   * @throws IllegalStateException if initializing {@code owner} registered nothing
   */
  public static CarrierAccess get(Class<?> owner) {
    CarrierAccess a = instance;
    if (a == null) {
      try {
        Class.forName(owner.getName(), true, owner.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("carriers: " + owner.getName() + " did not load", e);
      }
      a = instance;
      if (a == null) {
        throw new IllegalStateException("carriers: " + owner.getName() + " registered no access");
      }
    }
    return a;
  }

  /**
   * Creates an event-loop scheduler.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   * @param io the I/O handler every carrier runs
   * @return the scheduler (an {@code io.krill.fibers.FiberScheduler})
   * @throws IllegalStateException if {@code io} does not load here
   */
  public abstract Object newEventLoopScheduler(int threads, boolean tracking, CarrierIo io);

  /**
   * @param scheduler a {@code FiberScheduler}
   * @return the Netty group of its carriers, or null if they are not event loops
   */
  public abstract EventLoopGroup group(Object scheduler);

  /**
   * @param scheduler a {@code FiberScheduler}
   * @return the I/O handler its carriers run, or null if they are not event loops
   */
  public abstract CarrierIo io(Object scheduler);

  /** @return the event loop the calling thread runs as a carrier, or null */
  public abstract EventLoop currentLoop();

  /**
   * Creates a carrier thread: woven code finds its continuation in a field of it.
   *
   * @param task what it runs
   * @param name the thread's name
   * @return the unstarted thread
   */
  public abstract Thread newCarrierThread(Runnable task, String name);
}
