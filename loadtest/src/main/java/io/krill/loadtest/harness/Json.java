package io.krill.loadtest.harness;

import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The one Jackson mapper of the harnesses. Thread-safe once built. */
public final class Json {
  /**
   * Reads and writes every results file of {@code krill loadtest} and {@code krill bench}:
   * indented, {@code "key": value} as the files written before.
   */
  public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .setDefaultPrettyPrinter(new DefaultPrettyPrinter().withSeparators(
          Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER)));

  private Json() {}
}
