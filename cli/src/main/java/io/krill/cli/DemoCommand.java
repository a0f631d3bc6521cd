package io.krill.cli;

import io.krill.config.CommandOptions;
import io.krill.fibers.Continuation;
import io.krill.fibers.Generator;
import io.krill.fibers.Suspendable;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code krill demo}: many continuations round-robined by a ten-line cooperative scheduler,
 * and a generator.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run continuations round-robin on one thread, and a generator.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--count", defaultValue = "100000", description = "continuations to run (default: ${DEFAULT-VALUE})")
  int count;

  @Option(names = "--steps", defaultValue = "10", description = "suspensions per continuation (default: ${DEFAULT-VALUE})")
  int steps;

  static long work(int id, int steps) throws Suspendable {
    long acc = id;
    for (int i = 0; i < steps; i++) {
      acc = acc * 31 + i;
      Continuation.suspend();
    }
    return acc;
  }

  @Override
  public Integer call() {
    if (count <= 0 || count > 10_000_000) {
      return CommandOptions.usageError(System.err, "demo", "--count: " + count + " (expected: 1..10000000)");
    }
    if (steps < 0 || steps > 1_000_000) {
      return CommandOptions.usageError(System.err, "demo", "--steps: " + steps + " (expected: 0..1000000)");
    }
    long[] results = new long[count];
    ArrayDeque<Continuation> queue = new ArrayDeque<>(count);
    for (int i = 0; i < count; i++) {
      int id = i;
      queue.add(new Continuation(() -> results[id] = work(id, steps)));
    }
    long start = System.nanoTime();
    long switches = 0;
    while (!queue.isEmpty()) {
      Continuation c = queue.poll();
      c.run();
      switches++;
      if (!c.isDone()) {
        queue.add(c);
      }
    }
    long nanos = System.nanoTime() - start;
    long check = 0;
    for (long r : results) {
      check ^= r;
    }
    System.out.printf("%,d continuations, %,d runs round-robin on one thread in %,d ms (checksum %x)%n",
        count, switches, nanos / 1_000_000, check);
    StringBuilder sb = new StringBuilder();
    for (int s : new Generator<Integer>(out -> {
      for (int i = 1; i <= 10; i++) {
        out.yield(i * i);
      }
    })) {
      sb.append(s).append(' ');
    }
    System.out.println("generator of squares: " + sb.toString().trim());
    return 0;
  }
}
