package io.krill.crawler.robots;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import crawlercommons.sitemaps.sax.DelegatorHandler;
import java.io.IOException;
import java.io.StringReader;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** Reads sitemaps (XML, text, RSS/Atom, index files) with crawler-commons' {@link SiteMapParser}. Thread-safe. */
public final class Sitemaps {
  /*
   * Implementation notes. crawler-commons builds a SAXParserFactory and a SAXParser for every
   * sitemap (and its SiteMapParser builds a MIME detector): that was about half the CPU of a
   * sitemap, ~5% of a crawl's. One parser instance serves every call here, and its XML step
   * takes a SAX parser from a small pool (configured as crawler-commons configures its own:
   * not validating, namespace aware, no external entities or DTDs) and resets it after use.
   */
  /** Default cap on URLs taken from one sitemap file. */
  public static final int DEFAULT_MAX_URLS_PER_SITEMAP = 50_000;
  /** Most idle SAX parsers kept for reuse; more parse at once only when more strands parse at once. */
  static final int MAX_POOLED_PARSERS = 8;

  private static final PooledParser PARSER = new PooledParser();

  /**
   * What one sitemap file lists.
   *
   * @param pageUrls page URLs
   * @param sitemapUrls nested sitemaps (from an index)
   */
  public record Listing(List<String> pageUrls, List<String> sitemapUrls) {}

  private Sitemaps() {}

  /**
   * @param url the sitemap's URL (the parser checks listed URLs against its location)
   * @param contentType the Content-Type, or null
   * @param body the decoded body
   * @param maxUrls at most this many page URLs
   * @return the listing; empty if the file could not be parsed
   */
  public static Listing parse(String url, String contentType, byte[] body, int maxUrls) {
    List<String> pages = new ArrayList<>();
    List<String> maps = new ArrayList<>();
    try {
      AbstractSiteMap sm = PARSER.parseSiteMap(contentType == null ? "text/xml" : contentType, body, new URL(url));
      if (sm.isIndex()) {
        for (AbstractSiteMap child : ((SiteMapIndex) sm).getSitemaps()) {
          maps.add(child.getUrl().toString());
        }
      } else {
        for (SiteMapURL u : ((SiteMap) sm).getSiteMapUrls()) {
          if (pages.size() >= maxUrls) {
            break;
          }
          pages.add(u.getUrl().toString());
        }
      }
    } catch (Exception e) {
      // An unparsable sitemap lists nothing; the crawl goes on.
    }
    return new Listing(pages, maps);
  }

  /** crawler-commons' parser (lenient), with its XML step on pooled SAX parsers. Thread-safe. */
  private static final class PooledParser extends SiteMapParser {
    private final SAXParserFactory factory;
    private final ArrayDeque<SAXParser> idle = new ArrayDeque<>();

    PooledParser() {
      super(false);
      factory = SAXParserFactory.newInstance();
      factory.setValidating(false);
      factory.setXIncludeAware(false);
      factory.setNamespaceAware(true);
      try {
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      } catch (ParserConfigurationException | SAXException e) {
        throw new IllegalStateException("sitemaps: the JDK's SAX parser lacks a safety feature: " + e, e);
      }
    }

    @Override
    protected AbstractSiteMap processXml(URL sitemapUrl, InputSource is) throws UnknownFormatException {
      DelegatorHandler handler = new DelegatorHandler(sitemapUrl, isStrict());
      handler.setStrictNamespace(isStrictNamespace());
      if (isStrictNamespace()) {
        handler.setAcceptedNamespaces(acceptedNamespaces);
      }
      handler.setExtensionNamespaces(extensionNamespaces);
      SAXParser parser = take();
      try {
        parser.getXMLReader().setEntityResolver((publicId, systemId) -> new InputSource(new StringReader("")));
        parser.parse(is, handler);
      } catch (IOException | SAXException e) {
        // as crawler-commons (partial sitemaps off): a document that fails to parse lists nothing
        UnknownFormatException u = new UnknownFormatException("Failed to parse " + sitemapUrl);
        u.initCause(e);
        throw u;
      } finally {
        give(parser); // reset() returns even a parser that failed mid-document to its initial state
      }
      AbstractSiteMap sm = handler.getSiteMap();
      if (sm == null) {
        UnknownFormatException e = handler.getException();
        throw e != null ? e : new UnknownFormatException("Unknown format " + sitemapUrl);
      }
      return sm;
    }

    private SAXParser take() throws UnknownFormatException {
      synchronized (idle) {
        SAXParser p = idle.pollFirst();
        if (p != null) {
          return p;
        }
      }
      try {
        return factory.newSAXParser();
      } catch (ParserConfigurationException | SAXException e) {
        throw new UnknownFormatException("sitemaps: no SAX parser: " + e);
      }
    }

    private void give(SAXParser p) {
      p.reset();
      synchronized (idle) {
        if (idle.size() < MAX_POOLED_PARSERS) {
          idle.addFirst(p);
        }
      }
    }
  }
}
