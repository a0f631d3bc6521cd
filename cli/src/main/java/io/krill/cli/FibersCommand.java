package io.krill.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.krill.config.CommandOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code krill fibers dump PID}: asks a running JVM for its fibers over the attach API and JMX
 * (the {@code io.krill:type=FiberScheduler} MBeans), the way {@code jcmd PID Thread.print}
 * asks for threads.
 */
@Command(name = "fibers", mixinStandardHelpOptions = true, subcommands = FibersCommand.Dump.class,
    description = "Inspect the fibers of a running krill process.")
final class FibersCommand implements Callable<Integer> {
  /** The MBeans the dump reads: one per threaded scheduler. */
  static final String SCHEDULERS = "io.krill:type=FiberScheduler,*";

  @Override
  public Integer call() {
    picocli.CommandLine.usage(this, System.err);
    return Krill.USAGE;
  }

  /** {@code krill fibers dump PID [--json]}. */
  @Command(name = "dump", mixinStandardHelpOptions = true,
      description = {"Print every live fiber of a running JVM (name, id, state, what it waits on, its frames),"
          + " read from its io.krill:type=FiberScheduler MBeans over the attach API.",
          "Fibers are listed when the process tracks them (bin/krill turns tracking on);"
          + " the target must run as the same user."})
  static final class Dump implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "the process id of the JVM")
    long pid;

    @Option(names = "--json", description = "one JSON document: {\"pid\":…,\"schedulers\":[{\"name\":…,"
        + "\"fibers\":[{\"id\",\"name\",\"state\",\"blocker\",\"stack\"}]}]}")
    boolean json;

    @Override
    public Integer call() {
      if (pid <= 0) {
        return CommandOptions.usageError(System.err, "fibers dump", "PID: " + pid + " (expected: > 0)");
      }
      try {
        System.out.print(dump(pid, json));
        return 0;
      } catch (AttachNotSupportedException | IOException | IllegalStateException e) {
        String why = String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", " "); // RMI nests causes over lines
        System.err.println("krill fibers dump: cannot read the fibers of process " + pid + ": " + why);
        return 1;
      }
    }
  }

  /**
   * Reads the fiber dump of a running JVM.
   *
   * @param pid the process
   * @param json whether to return JSON instead of text
   * @return the dump
   * @throws AttachNotSupportedException when no attachable JVM has that pid
   * @throws IOException when the attach or the JMX connection fails
   * @throws IllegalStateException when the JVM has no krill schedulers
   */
  static String dump(long pid, boolean json) throws AttachNotSupportedException, IOException {
    VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
    String address;
    try {
      address = vm.startLocalManagementAgent();
    } finally {
      vm.detach();
    }
    try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      Set<ObjectName> names = new TreeSet<>(server.queryNames(objectName(SCHEDULERS), null));
      if (names.isEmpty()) {
        throw new IllegalStateException("no krill fiber schedulers there (" + SCHEDULERS + ")");
      }
      List<String> parts = new ArrayList<>();
      for (ObjectName n : names) {
        parts.add((String) invoke(server, n, json ? "dumpFibersJson" : "dumpFibers"));
      }
      return json ? mergeJson(pid, parts) : text(pid, parts);
    }
  }

  private static String text(long pid, List<String> parts) {
    StringBuilder sb = new StringBuilder("krill fiber dump of process ").append(pid).append('\n');
    for (String p : parts) {
      sb.append(p);
    }
    return sb.toString();
  }

  /* Each MBean answers {"schedulers":[one]}; the command answers one document for the process. */
  private static String mergeJson(long pid, List<String> parts) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root = mapper.createObjectNode();
    root.put("pid", pid);
    ArrayNode schedulers = root.putArray("schedulers");
    for (String p : parts) {
      schedulers.addAll((ArrayNode) mapper.readTree(p).get("schedulers"));
    }
    return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
  }

  private static Object invoke(MBeanServerConnection server, ObjectName n, String operation) throws IOException {
    try {
      return server.invoke(n, operation, null, null);
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(n + ": " + operation + ": " + e, e);
    }
  }

  private static ObjectName objectName(String name) {
    try {
      return new ObjectName(name);
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalStateException("unreachable: a constant pattern", e);
    }
  }
}
