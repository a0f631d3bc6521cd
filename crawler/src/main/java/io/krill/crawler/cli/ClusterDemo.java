package io.krill.crawler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krill.config.JvmOptions;
import io.krill.crawler.cluster.ClusterCrawl;
import io.krill.crawler.cluster.ClusterException;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The story of {@code krill crawl --demo --nodes N}: N nodes of one crawl id, each a child JVM
 * ({@code krill crawl --kafka ...} against the demo's web and broker, its output relayed to the
 * console with its number); once the first node has fetched {@link #KILL_AFTER_PAGES} pages it is
 * killed with SIGKILL, the console shows the others taking its partitions over, and the end
 * compares the URLs the nodes fetched, together, with the web's ground truth.
 */
final class ClusterDemo {
  /** Pages the victim fetches before it is killed. */
  static final int KILL_AFTER_PAGES = 40;
  /* Bounds of the demo: it never hangs. */
  private static final Duration KILL_WAIT = Duration.ofSeconds(120);
  private static final Duration NODE_WAIT = Duration.ofMinutes(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterCrawl.Options options;
  private final PrintStream out;
  private final PrintStream err;

  ClusterDemo(ClusterCrawl.Options options, PrintStream out, PrintStream err) {
    this.options = options;
    this.out = out;
    this.err = err;
  }

  /**
   * Runs the nodes and kills one part-way.
   *
   * @param nodes how many
   * @param nodeArgs the {@code krill crawl} arguments of every node (crawl flags and seeds, without --kafka and --out)
   * @param dir the demo's output directory; each node writes under it
   * @return the exit status: 0 if every node not killed ended well
   */
  int run(int nodes, List<String> nodeArgs, Path dir) throws IOException, ClusterException {
    List<Process> children = new ArrayList<>();
    List<Thread> relays = new ArrayList<>();
    CountDownLatch victimJoined = new CountDownLatch(1);
    try {
      for (int i = 0; i < nodes; i++) {
        Process p = start(nodeArgs, dir);
        children.add(p);
        relays.add(relay(p, i, i == 0 ? victimJoined : new CountDownLatch(1)));
      }
      Process victim = nodes > 1 ? children.get(0) : null;
      if (victim != null) {
        killPartWay(victim, victimJoined);
      }
      int code = 0;
      for (int i = 0; i < nodes; i++) {
        Process p = children.get(i);
        if (p == victim) {
          continue;
        }
        if (!p.waitFor(NODE_WAIT.toSeconds(), TimeUnit.SECONDS)) {
          err.println("krill crawl --demo: node " + i + " did not end within " + NODE_WAIT.toMinutes() + " min; stopping it");
          p.destroy();
          code = 1;
        } else {
          code |= p.exitValue() == 0 ? 0 : 1;
        }
      }
      for (Thread t : relays) {
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
      report(nodes, victim != null, dir);
      return code;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      children.forEach(Process::destroyForcibly);
    }
  }

  /* A node: this JVM's java, options and class path running krill crawl --kafka (main below). */
  private Process start(List<String> nodeArgs, Path dir) throws IOException {
    List<String> cmd = JvmOptions.javaCommand("-Xmx512m");
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ClusterDemo.class.getName(),
        "--kafka", String.join(",", options.bootstrap()), "--crawl-id", options.crawlId(), "--out", dir.toString()));
    cmd.addAll(nodeArgs);
    return new ProcessBuilder(cmd).redirectErrorStream(true).start();
  }

  private Thread relay(Process p, int index, CountDownLatch joined) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null;) {
          if (line.contains(" joined crawl ")) {
            joined.countDown(); // its topics exist now
          }
          err.println("[node " + index + " pid " + p.pid() + "] " + line);
        }
      } catch (IOException e) {
        // the node is gone
      }
    }, "krill-demo-relay-" + index);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /* Waits (bounded) until the victim has fetched its share of pages, as its status in Kafka says, then SIGKILL. */
  private void killPartWay(Process victim, CountDownLatch joined) throws ClusterException, InterruptedException {
    String tag = "-" + victim.pid() + "-";
    long deadline = System.nanoTime() + KILL_WAIT.toNanos();
    long fetched = 0;
    String name = "pid " + victim.pid();
    joined.await(KILL_WAIT.toSeconds(), TimeUnit.SECONDS);
    while (victim.isAlive() && System.nanoTime() < deadline) {
      for (Map.Entry<String, Long> e : ClusterCrawl.fetchedByNode(options).entrySet()) {
        if (e.getKey().contains(tag)) {
          name = e.getKey();
          fetched = e.getValue();
        }
      }
      if (fetched >= KILL_AFTER_PAGES) {
        break;
      }
      Thread.sleep(200);
    }
    if (!victim.isAlive()) {
      err.println("krill crawl --demo: node " + name + " ended before it could be killed");
      return;
    }
    victim.destroyForcibly(); // SIGKILL: no hand-over, no last status; Kafka notices the silence
    victim.waitFor();
    err.println("krill crawl --demo: killed node " + name + " (pid " + victim.pid() + ") with SIGKILL after " + fetched
        + " pages; the group notices within its session timeout (6 s) and the other nodes take its partitions over,"
        + " fetching again what it had in flight");
  }

  /* The whole crawl: distinct URLs requested from the web by all nodes (the killed one too), and requests repeated. */
  private void report(int nodes, boolean killed, Path dir) throws IOException {
    Set<String> all = new HashSet<>();
    Set<String> distinct = new HashSet<>();
    long fetches = 0;
    try (Stream<Path> files = Files.walk(dir, 2)) {
      for (Path f : files.filter(f -> f.getFileName().toString().equals("crawl.jsonl")).toList()) {
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          JsonNode j = JSON.readTree(line);
          if (!"robots".equals(j.path("kind").asText())) {
            all.add(j.path("url").asText());
            if (!j.path("ip").isNull() && !j.path("ip").isMissingNode()) { // a request reached the web
              distinct.add(j.path("url").asText());
              fetches++;
            }
          }
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    out.printf(Locale.ROOT, "cluster: %d nodes%s requested %d distinct URLs from the web in %d requests their records show"
        + " (%d twice, around the kill); %d URLs in all with DNS and robots.txt outcomes; output in %s%s*%n", nodes,
        killed ? " (1 killed part-way)" : "", distinct.size(), fetches, fetches - distinct.size(), all.size(), dir, File.separator);
  }

  /**
   * A node of the demo: {@code krill crawl} in a child JVM.
   *
   * @param args the crawl's arguments
   */
  public static void main(String[] args) {
    System.exit(new CrawlCommand().commandLine().execute(args));
  }
}
