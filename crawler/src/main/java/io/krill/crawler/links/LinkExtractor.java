package io.krill.crawler.links;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.internal.StringUtil;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Evaluator;
import org.jsoup.select.QueryParser;

/**
 * Extracts links from HTML with jsoup: {@code a[href]}, {@code area[href]}, {@code frame[src]}
 * and {@code iframe[src]} as outlinks, and {@code link[rel=canonical]} recorded separately.
 * A {@code <base href>} changes what relative links resolve against. Stateless, thread-safe.
 */
public final class LinkExtractor {
  /** Default cap on outlinks taken from one page. */
  public static final int DEFAULT_MAX_LINKS_PER_PAGE = 10_000;
  /* The selectors, parsed once (parsing them per page was ~2% of a crawl's CPU); tag and attribute evaluators keep no state. */
  private static final Evaluator OUTLINKS = QueryParser.parse("a[href], area[href], frame[src], iframe[src]");
  private static final Evaluator CANONICAL = QueryParser.parse("link[rel=canonical][href]");

  /**
   * What a page links to.
   *
   * @param outlinks absolute URLs in document order, duplicates removed
   * @param canonical the canonical URL, or null
   */
  public record Links(List<String> outlinks, String canonical) {}

  private LinkExtractor() {}

  /**
   * @param contentType a media type without parameters, or null
   * @return true if pages of this type are parsed for links
   */
  public static boolean isHtml(String contentType) {
    if (contentType == null) {
      return false;
    }
    String t = contentType.toLowerCase(Locale.ROOT);
    return t.equals("text/html") || t.equals("application/xhtml+xml");
  }

  /**
   * @param pageUrl the page's URL
   * @param body its decoded body
   * @param contentTypeHeader the full Content-Type header (for the charset), or null
   * @param maxLinks at most this many outlinks
   * @return the links
   */
  public static Links extract(String pageUrl, byte[] body, String contentTypeHeader, int maxLinks) {
    Document doc;
    try {
      doc = Jsoup.parse(new ByteArrayInputStream(body), charset(contentTypeHeader), pageUrl);
    } catch (IOException | RuntimeException e) {
      return new Links(List.of(), null);
    }
    Set<String> out = new LinkedHashSet<>();
    URL base = parseBase(doc.baseUri());
    for (Element e : doc.select(OUTLINKS)) {
      if (out.size() >= maxLinks) {
        break;
      }
      String attr = e.hasAttr("href") ? "href" : "src";
      String abs = absUrl(base, e, attr);
      if (!abs.isEmpty()) {
        out.add(abs);
      }
    }
    String canonical = null;
    Element c = doc.selectFirst(CANONICAL);
    if (c != null && !c.absUrl("href").isEmpty()) {
      canonical = c.absUrl("href");
    }
    return new Links(new ArrayList<>(out), canonical);
  }

  /* The document's base URL (after <base href>), parsed once per page rather than once per link. */
  private static URL parseBase(String baseUri) {
    for (int i = 0; i < baseUri.length(); i++) {
      if (baseUri.charAt(i) < 0x20) {
        return null; // jsoup strips control characters first: leave that case to it
      }
    }
    try {
      return new URL(baseUri);
    } catch (MalformedURLException | RuntimeException e) {
      return null;
    }
  }

  /* What e.absUrl(attr) answers, resolving against the pre-parsed base; jsoup's own path for odd cases. */
  private static String absUrl(URL base, Element e, String attr) {
    if (base != null) {
      try {
        return StringUtil.resolve(base, e.attr(attr)).toExternalForm();
      } catch (MalformedURLException | RuntimeException ignored) {
        // e.g. an unknown scheme: jsoup keeps such a link as written
      }
    }
    return e.absUrl(attr);
  }

  private static String charset(String contentType) {
    if (contentType == null) {
      return null;
    }
    for (String part : contentType.split(";")) {
      String p = part.trim();
      if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
        String cs = p.substring(8).replace("\"", "").trim();
        try {
          return Charset.isSupported(cs) ? cs : null;
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
    }
    return null;
  }
}
