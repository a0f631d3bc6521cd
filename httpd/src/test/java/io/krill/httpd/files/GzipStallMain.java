package io.krill.httpd.files;

import io.krill.httpd.HttpServer;
import io.krill.testkit.RawHttp;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Measures how much clients that download a large file gzipped without reading delay a normal
 * small GET: {@code GzipStallMain [stalledClients] [gets] [rounds]}. Per round, without and with
 * the stalled clients (A B B A), it times {@code gets} keep-alive GETs of a small file on one
 * connection and prints the median and p99; the stalled clients ask for a 16 MB text file with
 * {@code Accept-Encoding: gzip} and never read. Streamed (cache off) and cached are both run.
 * Not a test: bounded in count and time.
 */
public final class GzipStallMain {
  private GzipStallMain() {}

  public static void main(String[] args) throws Exception {
    int stalledClients = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int gets = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Path root = Files.createTempDirectory("gzip-stall");
    StringBuilder b = new StringBuilder();
    for (int i = 0; b.length() < 16_000_000; i++) {
      b.append(i).append(',').append(Integer.toHexString(i * 7919)).append(",the quick brown fox,").append(i % 97)
          .append('\n');
    }
    Files.writeString(root.resolve("big.csv"), b);
    Files.writeString(root.resolve("small.txt"), "small\n");
    for (long cache : new long[] {0, StaticFiles.Builder.DEFAULT_GZIP_CACHE_BYTES}) {
      for (int r = 0; r < rounds; r++) {
        for (boolean stalled : new boolean[] {false, true, true, false}) {
          try (HttpServer server = HttpServer.builder().port(0).shutdownGrace(Duration.ofSeconds(1))
              .fallback(StaticFiles.builder(root).gzipCacheBytes(cache).build()).build().start()) {
            List<Socket> held = new ArrayList<>();
            try {
              if (stalled) {
                for (int i = 0; i < stalledClients; i++) {
                  Socket s = new Socket("127.0.0.1", server.port());
                  held.add(s);
                  OutputStream out = s.getOutputStream();
                  out.write("GET /big.csv HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"
                      .getBytes(StandardCharsets.US_ASCII));
                  out.flush();
                }
              }
              long[] nanos = new long[gets];
              try (RawHttp c = RawHttp.connect(server.port())) {
                for (int i = 0; i < gets; i++) {
                  long t = System.nanoTime();
                  c.send("GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n");
                  c.read();
                  nanos[i] = System.nanoTime() - t;
                }
              }
              Arrays.sort(nanos);
              System.out.printf(Locale.ROOT, "cache %,d B, %s: median %.2f ms, p99 %.2f ms, max %.2f ms%n", cache,
                  stalled ? stalledClients + " stalled gzip clients" : "alone", nanos[gets / 2] / 1e6,
                  nanos[gets * 99 / 100] / 1e6, nanos[gets - 1] / 1e6);
            } finally {
              for (Socket s : held) {
                s.close();
              }
            }
          }
        }
      }
    }
  }
}
