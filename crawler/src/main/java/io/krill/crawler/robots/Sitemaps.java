package io.krill.crawler.robots;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;

/** Reads sitemaps (XML, text, RSS/Atom, index files) with crawler-commons' {@link SiteMapParser}. Thread-safe. */
public final class Sitemaps {
  /** Default cap on URLs taken from one sitemap file. */
  public static final int DEFAULT_MAX_URLS_PER_SITEMAP = 50_000;

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
      SiteMapParser parser = new SiteMapParser(false);
      AbstractSiteMap sm = parser.parseSiteMap(contentType == null ? "text/xml" : contentType, body, new URL(url));
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
}
