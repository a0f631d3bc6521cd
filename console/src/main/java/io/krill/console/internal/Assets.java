package io.krill.console.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The console's page and its assets as plain files for httpd's static handler: the copy in the
 * jar, unpacked to a temporary directory (the handler serves files of the default file system),
 * or a directory given for development. Thread-safe.
 */
public final class Assets implements AutoCloseable {
  /** The files of the page, under {@code io/krill/console/assets/} in the jar. */
  public static final List<String> FILES = List.of("index.html", "console.css", "console.js");

  private final Path root;
  private final boolean temporary;

  private Assets(Path root, boolean temporary) {
    this.root = root;
    this.temporary = temporary;
  }

  /**
   * @param dir a directory holding {@link #FILES}
   * @return the assets served from it
   */
  public static Assets in(Path dir) {
    return new Assets(dir, false);
  }

  /**
   * Unpacks the jar's copy into a new temporary directory, removed by {@link #close()}.
   *
   * @return the assets
   * @throws IOException if they cannot be written
   */
  public static Assets extract() throws IOException {
    Path dir = Files.createTempDirectory("krill-console-");
    Assets a = new Assets(dir, true);
    try {
      for (String f : FILES) {
        try (InputStream in = Assets.class.getResourceAsStream("/io/krill/console/assets/" + f)) {
          if (in == null) {
            throw new IOException("console asset " + f + " is missing from the jar");
          }
          Files.copy(in, dir.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } catch (IOException | RuntimeException e) {
      a.close();
      throw e;
    }
    return a;
  }

  /** @return the directory to serve */
  public Path root() {
    return root;
  }

  /** Removes an unpacked copy. */
  @Override
  public void close() {
    if (!temporary) {
      return;
    }
    try {
      for (String f : FILES) {
        Files.deleteIfExists(root.resolve(f));
      }
      Files.deleteIfExists(root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + root, e);
    }
  }
}
