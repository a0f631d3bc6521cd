package io.krill.httpd.files;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Maps a raw request target to a path under the root, or refuses it. Works on the target as
 * sent, before any decoding, so that an encoded slash or dot can never become a separator or a
 * parent step. Immutable; thread-safe.
 */
final class PathResolver {
  /*
   * Implementation notes.
   *
   * The raw path is split on '/' first, then each segment is percent-decoded once, strictly
   * (a malformed escape or invalid UTF-8 refuses the request). A decoded segment is refused if
   * it is "." or "..", starts with "." while hidden files are off, or contains '/', '\\', ':',
   * NUL or another control character: those could act as separators, drive letters or string
   * terminators somewhere below us. The joined path is then checked lexically against the root;
   * the caller checks the real path (after symlinks) against the real root as well.
   */

  private final Path root;
  private final String mountPrefix;
  private final boolean hiddenFiles;

  /**
   * @param root the real (symlink-free, absolute) root
   * @param mountPrefix "" or a prefix such as "/static" that is stripped from targets
   * @param hiddenFiles whether segments starting with '.' are served
   */
  PathResolver(Path root, String mountPrefix, boolean hiddenFiles) {
    this.root = root;
    this.mountPrefix = mountPrefix;
    this.hiddenFiles = hiddenFiles;
  }

  /** The result of resolving: a path, and whether the target named a directory (ends in '/'). */
  static final class Target {
    final Path path;
    final boolean directorySyntax;

    Target(Path path, boolean directorySyntax) {
      this.path = path;
      this.directorySyntax = directorySyntax;
    }
  }

  /**
   * @param uri the request target as sent, e.g. {@code /a/b%20c.txt?x=1}
   * @return the path under the root, or {@code null} when the target is refused
   */
  Target resolve(String uri) {
    String raw = pathOf(uri);
    if (raw == null) {
      return null;
    }
    if (!mountPrefix.isEmpty()) {
      if (!raw.equals(mountPrefix) && !raw.startsWith(mountPrefix + "/")) {
        return null;
      }
      raw = raw.substring(mountPrefix.length());
    }
    Path p = root;
    int start = 0;
    while (start <= raw.length()) {
      int slash = raw.indexOf('/', start);
      int end = slash < 0 ? raw.length() : slash;
      if (end > start) {
        String segment = decode(raw.substring(start, end));
        if (segment == null || !acceptable(segment)) {
          return null;
        }
        try {
          p = p.resolve(segment);
        } catch (InvalidPathException e) {
          return null;
        }
      }
      start = end + 1;
    }
    p = p.normalize();
    if (!p.startsWith(root)) {
      return null;
    }
    return new Target(p, raw.isEmpty() || raw.endsWith("/"));
  }

  /** The path part of an origin-form or absolute-form target; null if it has none. */
  static String pathOf(String uri) {
    String s = uri;
    int scheme = s.indexOf("://");
    if (scheme > 0 && s.indexOf('/') > scheme) {
      int slash = s.indexOf('/', scheme + 3);
      s = slash < 0 ? "/" : s.substring(slash);
    }
    int cut = s.length();
    int q = s.indexOf('?');
    if (q >= 0) {
      cut = q;
    }
    int h = s.indexOf('#');
    if (h >= 0 && h < cut) {
      cut = h;
    }
    s = s.substring(0, cut);
    return s.startsWith("/") ? s : null;
  }

  private boolean acceptable(String segment) {
    if (segment.equals(".") || segment.equals("..") || !hiddenFiles && segment.startsWith(".")) {
      return false;
    }
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '/' || c == '\\' || c == ':') {
        return false;
      }
    }
    return true;
  }

  /** Strict percent-decoding as UTF-8: null for a malformed escape or invalid UTF-8. */
  static String decode(String s) {
    if (s.indexOf('%') < 0 && s.chars().allMatch(c -> c < 0x80)) {
      return s;
    }
    ByteBuffer bytes = ByteBuffer.allocate(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length()) {
          return null;
        }
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return null;
        }
        bytes.put((byte) (hi << 4 | lo));
        i += 2;
      } else if (c < 0x80) {
        bytes.put((byte) c);
      } else {
        return null; // a raw non-ASCII byte in a request target is not valid HTTP
      }
    }
    bytes.flip();
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
