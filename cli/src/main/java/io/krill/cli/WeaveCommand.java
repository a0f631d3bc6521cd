package io.krill.cli;

import io.krill.config.CommandOptions;
import io.krill.transform.WeaverMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code krill weave DIR}: weaves a classes directory in place. */
@Command(name = "weave", mixinStandardHelpOptions = true,
    description = "Weave the suspendable methods of a classes directory in place.")
final class WeaveCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "the classes directory")
  Path dir;

  @Option(names = "--classpath", paramLabel = "PATH", split = ":", description = "where referenced classes are found")
  List<Path> classpath = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(dir)) {
      return CommandOptions.usageError(System.err, "weave", "DIR: " + dir + " (expected: an existing classes directory)");
    }
    List<String> args = new ArrayList<>();
    args.add(dir.toString());
    classpath.forEach(p -> args.add(p.toString()));
    try {
      WeaverMain.main(args.toArray(new String[0]));
      return 0;
    } catch (IllegalStateException e) {
      return 1;
    }
  }
}
