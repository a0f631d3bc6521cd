package io.krill.fibers;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * An {@link Iterable} whose elements are produced lazily by suspendable code that calls
 * {@link #yield(Object)}: the producer runs only as far as the consumer asks.
 *
 * <pre>{@code
 * Generator<Integer> squares = new Generator<>(out -> {
 *   for (int i = 1; i <= 3; i++) {
 *     out.yield(i * i);
 *   }
 * });
 * for (int s : squares) { ... }   // 1, 4, 9
 * }</pre>
 *
 * <p>Each {@link #iterator()} call runs the producer afresh. An exception thrown by the
 * producer propagates from {@code hasNext()}. Threading: an iterator is used by one thread
 * at a time.
 *
 * @param <T> the element type
 */
public final class Generator<T> implements Iterable<T> {
  /**
   * The producing code of a generator.
   *
   * @param <T> the element type
   */
  @FunctionalInterface
  public interface Producer<T> {
    /**
     * Produces the elements by calling {@code out.yield(value)}; may suspend.
     *
     * @param out the sink to yield to
     * @throws Suspendable never; marks that this method may suspend
     */
    void produce(Sink<T> out) throws Suspendable;
  }

  /**
   * Where a producer yields its elements.
   *
   * @param <T> the element type
   */
  public interface Sink<T> {
    /**
     * Hands {@code value} to the consumer and suspends until it asks for the next one.
     *
     * @param value the element, may be null
     * @throws Suspendable never; marks that this method suspends
     */
    void yield(T value) throws Suspendable;
  }

  private final Producer<T> producer;

  /**
   * Creates a generator.
   *
   * @param producer the code that yields the elements
   */
  public Generator(Producer<T> producer) {
    if (producer == null) {
      throw new NullPointerException("producer");
    }
    this.producer = producer;
  }

  @Override
  public Iterator<T> iterator() {
    return new Run<>(producer);
  }

  private static final class Run<T> implements Iterator<T>, Sink<T> {
    private final Continuation continuation;
    private T next;
    private boolean ready;

    Run(Producer<T> producer) {
      this.continuation = new Continuation(() -> producer.produce(this));
    }

    @Override
    @Primitive
    public void yield(T value) throws Suspendable {
      Stack s = Stack.current();
      if (s.flow <= 0) { // not restoring
        if (s != continuation) {
          throw new IllegalStateException("yield: called outside this generator's producer");
        }
        next = value;
        ready = true;
      }
      Stack.suspendCurrent();
    }

    @Override
    public boolean hasNext() {
      if (!ready && !continuation.isDone()) {
        continuation.run();
      }
      return ready;
    }

    @Override
    public T next() {
      if (!hasNext()) {
        throw new NoSuchElementException("generator: no more elements");
      }
      T v = next;
      next = null;
      ready = false;
      return v;
    }
  }
}
