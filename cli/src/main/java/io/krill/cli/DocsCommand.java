package io.krill.cli;

import io.krill.config.CommandOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code krill docs --flags COMMAND}: prints a command's generated flag table (hidden; for the docs). */
@Command(name = "docs", hidden = true, mixinStandardHelpOptions = true,
    description = "Print the Markdown flag table of a subcommand, as docs/*.md embed it.")
final class DocsCommand implements Callable<Integer> {
  @Option(names = "--flags", paramLabel = "COMMAND", required = true, description = "serve, crawl, testweb, loadtest, ...")
  String command;

  @Override
  public Integer call() {
    try {
      System.out.print(FlagTables.markdown(command));
      return 0;
    } catch (IllegalArgumentException e) {
      return CommandOptions.usageError(System.err, "docs", e.getMessage());
    }
  }
}
