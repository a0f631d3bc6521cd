package io.krill.netio;

import io.krill.fibers.Continuation;
import io.krill.fibers.FiberScheduler;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A byte echo server for {@link EchoAcrossJvmsTest}, run in a child JVM so that each JVM
 * holds one end of the 10,000 connections (the process limit is 20,000 open files). Prints
 * {@code port N}, then serves until its standard input closes.
 */
public final class EchoServerMain {
  private EchoServerMain() {}

  public static void main(String[] args) throws Exception {
    FiberScheduler scheduler = FiberScheduler.eventLoop(2);
    FiberServerSocket server = Continuation.callOnThread(() -> FiberServerSocket.bind("127.0.0.1", 0,
        SocketOptions.builder().scheduler(scheduler).backlog(8192).build()).serve(FiberSocketTest.BYTE_ECHO));
    System.out.println("port " + server.port());
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    server.close();
    scheduler.close();
  }
}
