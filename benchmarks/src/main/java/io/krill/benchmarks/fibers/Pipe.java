package io.krill.benchmarks.fibers;

import io.krill.fibers.Channel;
import io.krill.fibers.Suspendable;
import java.util.concurrent.SynchronousQueue;

/**
 * A one-to-one synchronous channel as a workload sees it: krill's {@link Channel} (which
 * suspends a fiber and blocks a thread) or the JDK's {@link SynchronousQueue} (which blocks
 * the thread, virtual or platform). Both are rendezvous: a send waits for its receiver.
 *
 * @param <T> the item type
 */
public interface Pipe<T> {
  /**
   * Hands {@code item} to the receiver, waiting for it. May suspend.
   *
   * @param item not null
   * @throws Suspendable never; marks that this method may suspend
   */
  void send(T item) throws Suspendable;

  /**
   * Takes the next item, waiting for one. May suspend.
   *
   * @return the item
   * @throws Suspendable never; marks that this method may suspend
   */
  T receive() throws Suspendable;

  /** @return a pipe over a rendezvous krill {@link Channel} */
  static <T> Pipe<T> channel() {
    return new ChannelPipe<>();
  }

  /** @return a pipe over a {@link SynchronousQueue}; it blocks fibers' carriers, so threads only */
  static <T> Pipe<T> synchronousQueue() {
    return new QueuePipe<>();
  }

  /** krill's rendezvous channel. */
  final class ChannelPipe<T> implements Pipe<T> {
    private final Channel<T> channel = Channel.rendezvous();

    @Override
    public void send(T item) throws Suspendable {
      channel.send(item);
    }

    @Override
    public T receive() throws Suspendable {
      return channel.receive();
    }
  }

  /** The JDK's synchronous queue; an interrupt ends the wait with {@link Stopped}. */
  final class QueuePipe<T> implements Pipe<T> {
    private final SynchronousQueue<T> queue = new SynchronousQueue<>();

    @Override
    public void send(T item) throws Suspendable {
      try {
        queue.put(item);
      } catch (InterruptedException e) {
        throw new Stopped();
      }
    }

    @Override
    public T receive() throws Suspendable {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        throw new Stopped();
      }
    }
  }

  /** Thrown to a process whose thread was interrupted because its model closed. */
  final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("stopped", null, false, false);
    }
  }
}
