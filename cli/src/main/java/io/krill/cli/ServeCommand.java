package io.krill.cli;

import io.krill.config.CommandOptions;
import io.krill.config.ConfigException;
import io.krill.config.ConfigLoader;
import io.krill.config.HostPort;
import io.krill.config.Settings;
import io.krill.httpd.HttpServer;
import io.krill.netio.Tls;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code krill serve}: a static-file HTTP server. Settings come from defaults, then a HOCON file
 * ({@code --config}), then {@code KRILL_*} environment variables, then flags ({@code --set KEY=VALUE}
 * and the dedicated flags, which win). A bad setting prints one line per problem and exits
 * with status 2.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Serve the files under a directory over HTTP/1.1, and HTTP/2 with --http2 (a fiber per connection"
        + " or stream).")
final class ServeCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "HOCON settings file (see the table below)")
  Path config;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "any setting below; repeatable")
  List<String> assignments = new ArrayList<>();

  @Spec
  CommandSpec spec;

  /** The environment the settings read; tests replace it. */
  Map<String, String> environment = System.getenv();

  PrintStream out = System.out;
  PrintStream err = System.err;

  /** The settings table shown after the options by {@code krill serve --help}. */
  static String helpFooter() {
    return "\nSettings (defaults < --config FILE < environment < --set and the flags above):\n\n"
        + ServeSettings.SCHEMA.helpText();
  }

  /**
   * Adds the flags of {@link ServeSettings#FLAGGED}, each derived from its setting, and the
   * settings table, unwrapped, as the help footer of the {@code serve} subcommand.
   */
  static void install(CommandLine serve) {
    CommandOptions.addTo(serve.getCommandSpec(), ServeSettings.FLAGGED);
    serve.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> helpFooter());
  }

  @Override
  public Integer call() throws InterruptedException {
    Settings settings;
    HttpServer server;
    try {
      settings = settings();
      server = start(settings);
    } catch (ConfigException e) {
      return CommandOptions.usageError(err, "serve", e);
    } catch (IOException e) {
      return CommandOptions.ioError(err, "serve", "", e); // names address:port, or what TLS set-up failed
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "krill-serve-shutdown"));
    stopped.await();
    return 0;
  }

  /**
   * Loads the layered settings.
   *
   * @throws ConfigException naming every bad value with its origin
   */
  Settings settings() {
    ConfigLoader loader = ServeSettings.SCHEMA.loader().file(config).environment(environment);
    for (String a : assignments) {
      loader.set(a);
    }
    return CommandOptions.flags(spec, ServeSettings.FLAGGED, loader).load();
  }

  /**
   * Builds and starts the server the settings describe, and prints where it listens.
   *
   * @throws IOException if TLS cannot be set up or binding fails; the message says which
   */
  HttpServer start(Settings s) throws IOException {
    HttpServer.Builder b = ServeSettings.apply(s, HttpServer.builder());
    Tls tls = tls(s);
    b.tls(tls).fallback(ServeSettings.files(s).build());
    if (s.get(ServeSettings.DEMO)) {
      ChatDemo.install(b, ServeSettings.websocket(s));
    }
    HttpServer server = b.build().start();
    String base = (tls == null ? "http" : "https") + "://" + HostPort.of(server.localAddress());
    out.println("krill serve: serving " + s.get(ServeSettings.ROOT).toAbsolutePath().normalize()
        + " on " + base + "/ (" + s.get(ServeSettings.MODE).name().toLowerCase(java.util.Locale.ROOT) + " mode"
        + (s.get(ServeSettings.HTTP2) ? ", HTTP/2" : "") + ")");
    if (s.get(ServeSettings.DEMO)) {
      out.println("krill serve: chat demo on " + base + ChatDemo.PAGE + " (open it in two tabs)");
    }
    return server;
  }

  private static Tls tls(Settings s) throws IOException {
    if (s.get(ServeSettings.TLS_SELF_SIGNED)) {
      try {
        return TlsFiles.selfSigned();
      } catch (GeneralSecurityException | IOException e) {
        throw new IOException("TLS: cannot make a self-signed certificate: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while making a self-signed certificate", e);
      }
    }
    if (s.find(ServeSettings.TLS_CERT).isEmpty()) {
      return null;
    }
    try {
      return TlsFiles.fromPem(s.get(ServeSettings.TLS_CERT), s.get(ServeSettings.TLS_KEY));
    } catch (TlsFiles.BadFileException e) {
      throw new IOException("TLS: " + e.getMessage(), e); // the settings checks read both files already
    }
  }
}
