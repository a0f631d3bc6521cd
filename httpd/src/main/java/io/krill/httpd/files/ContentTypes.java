package io.krill.httpd.files;

import java.util.Locale;
import java.util.Map;

/** Content types by file extension, and which of them gzip well. Stateless; thread-safe. */
final class ContentTypes {
  static final String DEFAULT = "application/octet-stream";

  private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
      Map.entry("html", "text/html; charset=utf-8"),
      Map.entry("htm", "text/html; charset=utf-8"),
      Map.entry("css", "text/css; charset=utf-8"),
      Map.entry("js", "text/javascript; charset=utf-8"),
      Map.entry("mjs", "text/javascript; charset=utf-8"),
      Map.entry("json", "application/json"),
      Map.entry("map", "application/json"),
      Map.entry("txt", "text/plain; charset=utf-8"),
      Map.entry("md", "text/markdown; charset=utf-8"),
      Map.entry("csv", "text/csv; charset=utf-8"),
      Map.entry("xml", "application/xml"),
      Map.entry("svg", "image/svg+xml"),
      Map.entry("wasm", "application/wasm"),
      Map.entry("png", "image/png"),
      Map.entry("jpg", "image/jpeg"),
      Map.entry("jpeg", "image/jpeg"),
      Map.entry("gif", "image/gif"),
      Map.entry("webp", "image/webp"),
      Map.entry("avif", "image/avif"),
      Map.entry("ico", "image/x-icon"),
      Map.entry("pdf", "application/pdf"),
      Map.entry("woff", "font/woff"),
      Map.entry("woff2", "font/woff2"),
      Map.entry("ttf", "font/ttf"),
      Map.entry("mp3", "audio/mpeg"),
      Map.entry("ogg", "audio/ogg"),
      Map.entry("mp4", "video/mp4"),
      Map.entry("webm", "video/webm"),
      Map.entry("zip", "application/zip"),
      Map.entry("gz", "application/gzip"),
      Map.entry("tar", "application/x-tar"));

  private ContentTypes() {}

  /** @return the type for a file name, {@value #DEFAULT} when the extension is unknown */
  static String of(String fileName) {
    int dot = fileName.lastIndexOf('.');
    if (dot < 0) {
      return DEFAULT;
    }
    return BY_EXTENSION.getOrDefault(fileName.substring(dot + 1).toLowerCase(Locale.ROOT), DEFAULT);
  }

  /** @return true for text-like types that gzip well */
  static boolean compressible(String contentType) {
    return contentType.startsWith("text/") || contentType.startsWith("application/json")
        || contentType.startsWith("application/xml") || contentType.startsWith("image/svg+xml");
  }
}
