package io.krill.loadtest.load;

import io.krill.fibers.Fiber;
import io.krill.fibers.Suspendable;
import io.krill.netio.FiberSocket;
import io.krill.netio.MessageSocket;
import io.krill.netio.SocketOptions;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * One connection of a load run and the fiber that drives it: connects (from its source
 * address), waits for the go signal, then loops in the run's mode until its phases say done.
 * Any failure is counted by kind for the requests it lost; the connection is then reopened
 * and the loop goes on, so a misbehaving server shows up as errors and never as a hang.
 *
 * <p>Per request it does as little as it can, since every cycle it spends is taken from the
 * server under test on a shared machine: the requests of an exchange are written as one
 * pre-encoded buffer with one flush (Netty's request encoder and a request object per request
 * cost more than the server's whole answer), answers go through Netty's response decoder and
 * are read part by part (head, then content up to the last part, sizes summed) instead of
 * being aggregated into a composite buffer, counts and histograms go to the carrier's own {@link Tally}, and no timer is
 * armed per read: the driver closes a connection whose request is older than the request
 * timeout, and the fiber counts that as a timeout.
 *
 * <p>Threading: {@link #run} is the connection's fiber; {@link #close} may be called from the
 * driver thread.
 */
final class Connection {
  /** Pause after a failed connect before the next attempt. */
  static final Duration RECONNECT_PAUSE = Duration.ofMillis(50);

  private final LoadGenerator gen;
  private final LoadSpec spec;
  private final int index;
  private final SocketOptions options;
  private final byte[] echo;
  private final byte[] echoIn;
  private volatile FiberSocket socket;
  private MessageSocket<HttpObject> http;
  /** Requests written and not yet answered; read by the driver at the end. */
  int outstanding;
  /** When the exchange in flight was sent (nanoTime), 0 when none is; read by the driver's timeout scan. */
  private volatile long inFlightSince;
  /** Set by the driver before it closes an overdue connection, so the fiber counts a timeout. */
  private volatile boolean timedOut;
  /** When this connection last got a measured answer (nanoTime). */
  long lastMeasured;

  Connection(LoadGenerator gen, int index) {
    this.gen = gen;
    this.spec = gen.spec;
    this.index = index;
    this.options = SocketOptions.builder().scheduler(gen.scheduler).localAddress(spec.source(index))
        .connectTimeout(spec.connectTimeout).writeTimeout(spec.requestTimeout)
        .linger(Duration.ZERO).build();
    if (spec.protocol == LoadSpec.Protocol.ECHO) {
      echo = new byte[spec.echoSize];
      for (int i = 0; i < echo.length; i++) {
        echo[i] = (byte) (i * 31 + index);
      }
      echoIn = new byte[spec.echoSize];
    } else {
      echo = null;
      echoIn = null;
    }
  }

  /** @return nanoseconds between two intended sends of one connection in open-loop mode */
  static long intervalNanos(LoadSpec spec) {
    return Math.max(1, Math.round(spec.connections * 1e9 / spec.rate));
  }

  /**
   * The connecting fiber: opens the connection, then hands the loop to a fiber homed on the
   * channel's own event loop, so that every wake-up after I/O stays on one thread (as netio's
   * server side does); a connection that failed to open runs its loop here and reconnects.
   */
  void run() throws Suspendable {
    boolean handedOff = false;
    try {
      gen.connectSlots.acquire();
      try {
        connect();
      } finally {
        gen.connectSlots.release();
        gen.connectsDone.countDown();
      }
      FiberSocket s = socket;
      if (s != null) {
        Fiber.builder().name("load-" + index).scheduler(gen.scheduler).home(s.channel().eventLoop()).start(this::loop);
        handedOff = true;
      }
    } catch (RuntimeException | Error e) {
      fail(gen.badResponses, e.toString());
    }
    if (!handedOff) {
      loop();
    }
  }

  /** Waits for the go signal, then runs the mode's loop until the phases say done. */
  private void loop() throws Suspendable {
    try {
      gen.go.await();
      switch (spec.mode) {
        case CLOSED:
          closedLoop();
          break;
        case OPEN:
          openLoop();
          break;
        default:
          idle();
          break;
      }
    } catch (RuntimeException | Error e) {
      fail(gen.badResponses, e.toString());
    } finally {
      close();
      gen.finished.countDown();
    }
  }

  /** @return true when connected; a failure is counted and leaves the socket null */
  private boolean connect() throws Suspendable {
    try {
      FiberSocket s = FiberSocket.connect(spec.address.getHostAddress(), spec.port, options);
      if (spec.protocol == LoadSpec.Protocol.HTTP) {
        // Requests go out pre-encoded, so only the response side of the codec is needed.
        http = s.messages(p -> p.addLast(new HttpResponseDecoder()));
      }
      socket = s;
      gen.open.increment();
      return true;
    } catch (IOException e) {
      if (!gen.closing()) {
        gen.error(gen.connectErrors, 1, "connect " + spec.host + ":" + spec.port + ": " + e);
      }
      return false;
    }
  }

  /** Reconnects when the socket is gone; pauses after a failed attempt. @return true when connected */
  private boolean ensureOpen() throws Suspendable {
    if (socket != null) {
      return true;
    }
    if (connect()) {
      return true;
    }
    Fiber.sleep(RECONNECT_PAUSE);
    return false;
  }

  private void closedLoop() throws Suspendable {
    while (gen.phases.phase() < Phases.DONE) {
      if (!ensureOpen()) {
        continue;
      }
      long t = gen.phases.acquire(spec.pipeline, System.nanoTime());
      int n = (int) t;
      if (n == 0) {
        return;
      }
      long sent = System.nanoTime();
      exchange((int) (t >>> 32), n, sent, sent);
    }
  }

  /* Open loop, as wrk2 does it: request k of this connection is due at start + offset + k *
   * interval. A late connection sends at once and is charged from the due time, so a server
   * stall of X ms shows up as a ramp of latencies up to X ms instead of one slow request. */
  private void openLoop() throws Suspendable {
    long interval = intervalNanos(spec);
    long due = gen.phases.warmupStart() + interval * index / spec.connections;
    while (gen.phases.phase() < Phases.DONE) {
      long wait = due - System.nanoTime();
      if (wait > 0) {
        Fiber.sleep(Duration.ofNanos(wait));
      }
      if (!ensureOpen()) {
        continue;
      }
      long now = System.nanoTime();
      long t = gen.phases.acquire(1, now);
      if ((int) t == 0) {
        return;
      }
      exchange((int) (t >>> 32), 1, due, now);
      due += interval;
    }
  }

  /** Primes the connection with one request, holds it until the hold ends, then checks it with one more. */
  private void idle() throws Suspendable {
    if (socket != null) {
      long sent = System.nanoTime();
      exchange(Phases.WARMUP, 1, sent, sent);
    }
    boolean held = socket != null;
    gen.primed.countDown();
    gen.idleEnd.await();
    if (held && !gen.closing()) {
      // A connection the server dropped during the hold fails here and is counted as a reset.
      long sent = System.nanoTime();
      exchange(Phases.MEASURE, 1, sent, sent);
    }
  }

  /** Sends {@code n} requests back to back, reads their answers, and records them. */
  private void exchange(int phase, int n, long due, long sent) throws Suspendable {
    outstanding = n;
    timedOut = false;
    inFlightSince = sent | 1; // never 0 while in flight
    // Read once: the driver may close the socket at the end of the run, never these fields.
    MessageSocket<HttpObject> http = this.http;
    FiberSocket socket = this.socket;
    try {
      if (http != null) {
        http.send(Unpooled.wrappedBuffer(gen.requestBytes, 0, n * gen.requestLength));
        for (int i = 0; i < n; i++) {
          if (!readResponse(http)) {
            return;
          }
          outstanding--;
          record(phase, due, sent);
        }
      } else {
        socket.output().write(echo);
        socket.output().flush();
        socket.input().readFully(echoIn);
        if (!Arrays.equals(echo, echoIn)) {
          fail(gen.badResponses, "echo differs from what was sent");
          return;
        }
        outstanding = 0;
        record(phase, due, sent);
      }
    } catch (SocketTimeoutException e) {
      fail(gen.timeoutErrors, "timeout: " + e.getMessage());
    } catch (IOException e) {
      if (timedOut) {
        fail(gen.timeoutErrors, "timeout: no answer in " + spec.requestTimeout.toMillis() + " ms");
      } else {
        fail(gen.resetErrors, e.toString());
      }
    } finally {
      inFlightSince = 0;
    }
  }

  /**
   * Reads one answer: its head (status checked), then its content parts up to the last one,
   * releasing each; a decoding failure or an answer over the size limit is counted as bad.
   *
   * @return false if the answer was bad (counted; the connection is dropped)
   */
  private boolean readResponse(MessageSocket<HttpObject> http) throws IOException, Suspendable {
    long size = 0;
    HttpObject part;
    do {
      part = http.receive();
      if (part == null) {
        throw new IOException("connection closed by the server with " + outstanding + " request(s) unanswered");
      }
      try {
        if (!part.decoderResult().isSuccess()) {
          fail(gen.badResponses, "bad response: " + part.decoderResult().cause());
          return false;
        }
        if (part instanceof HttpResponse) {
          int code = ((HttpResponse) part).status().code();
          if (code < 200 || code > 299) {
            gen.error(gen.non2xx, 1, "status " + ((HttpResponse) part).status() + " for " + spec.path);
          }
        }
        if (part instanceof HttpContent) {
          size += ((HttpContent) part).content().readableBytes();
        }
      } finally {
        ReferenceCountUtil.release(part);
      }
      if (size > spec.maxResponseBytes) {
        fail(gen.badResponses, "bad response: body over " + spec.maxResponseBytes + " bytes");
        return false;
      }
    } while (!(part instanceof LastHttpContent));
    return true;
  }

  /** Driver side: closes the connection if its exchange has waited longer than {@code timeoutNanos}. */
  void closeIfOverdue(long now, long timeoutNanos) {
    long since = inFlightSince;
    if (since != 0 && now - since > timeoutNanos) {
      timedOut = true;
      closeFromDriver();
    }
  }

  private void record(int phase, long due, long sent) {
    long now = System.nanoTime();
    if (phase == Phases.MEASURE) {
      gen.tally().measured(now - due, now - sent);
      lastMeasured = now;
    } else if (phase == Phases.WARMUP) {
      gen.tally().warmup();
    }
  }

  /** Counts the outstanding requests as failed (or unfinished, once the run is closing) and drops the connection. */
  private void fail(LongAdder kind, String what) {
    if (gen.closing()) {
      gen.unfinished.add(outstanding);
    } else {
      gen.error(kind, Math.max(1, outstanding), "connection " + index + ": " + what);
    }
    outstanding = 0;
    close();
  }

  /** Drops the connection; on the connection's fiber only. */
  private void close() {
    FiberSocket s = socket;
    socket = null;
    http = null;
    if (s != null) {
      s.close();
    }
  }

  /** Closes the socket under the fiber, which then fails its outstanding requests as unfinished; any thread. */
  void closeFromDriver() {
    FiberSocket s = socket;
    if (s != null) {
      s.close();
    }
  }
}
