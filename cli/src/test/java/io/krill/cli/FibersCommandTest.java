package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code krill fibers dump PID} against a child JVM with a parked fiber. */
class FibersCommandTest {
  private static Process child;

  /** The child: one event-loop scheduler, one fiber parked on "the orders queue", until stdin closes. */
  public static final class ChildMain {
    private ChildMain() {}

    /** @param args ignored */
    public static void main(String[] args) throws Exception {
      try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
        Fiber f = Fiber.builder().scheduler(s).name("child-waiter").start(() -> Fiber.park("the orders queue"));
        while (!f.isParked()) {
          Thread.sleep(5);
        }
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
          // wait for the parent to close stdin
        }
        f.cancel();
      }
    }
  }

  @BeforeAll
  static void startChild() throws Exception {
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    child = new ProcessBuilder(java.toString(), "-Dkrill.fibers.track=true", "-cp", System.getProperty("java.class.path"),
        ChildMain.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("ready");
  }

  @AfterAll
  static void stopChild() throws Exception {
    child.getOutputStream().close();
    if (!child.waitFor(60, TimeUnit.SECONDS)) {
      child.destroyForcibly();
    }
  }

  @Test
  void dump_runningChild_listsItsParkedFiber() {
    String[] r = Console.capture(() -> Krill.run("fibers", "dump", Long.toString(child.pid())));
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1]).startsWith("krill fiber dump of process " + child.pid() + "\n")
        .contains("krill-loop-").contains("\"child-waiter\" #").contains(" parked waiting on the orders queue");
  }

  @Test
  void dumpJson_runningChild_oneObjectPerFiber() throws Exception {
    String[] r = Console.capture(() -> Krill.run("fibers", "dump", "--json", Long.toString(child.pid())));
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    JsonNode root = new ObjectMapper().readTree(r[1]);
    assertThat(root.get("pid").asLong()).isEqualTo(child.pid());
    JsonNode fiber = root.get("schedulers").get(0).get("fibers").get(0);
    assertThat(fiber.get("name").asText()).isEqualTo("child-waiter");
    assertThat(fiber.get("state").asText()).isEqualTo("parked");
    assertThat(fiber.get("blocker").asText()).isEqualTo("the orders queue");
    assertThat(fiber.get("id").asLong()).isPositive();
    assertThat(fiber.get("stack").isArray()).isTrue();
  }

  @Test
  void dump_noSuchProcess_oneLineAndStatus1() {
    String[] r = Console.capture(() -> Krill.run("fibers", "dump", "2147483646"));
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[2]).startsWith("krill fibers dump: cannot read the fibers of process 2147483646: ").hasLineCount(1);
  }

  @Test
  void dump_badPid_usageError() {
    for (List<String> args : List.of(List.of("fibers", "dump", "0"), List.of("fibers", "dump", "x"), List.of("fibers"))) {
      String[] r = Console.capture(() -> Krill.run(args.toArray(new String[0])));
      assertThat(r[0]).as(args.toString()).isEqualTo("2");
    }
  }
}
