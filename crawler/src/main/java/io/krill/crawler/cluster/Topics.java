package io.krill.crawler.cluster;

/**
 * The Kafka names of one crawl id: the URL topic (keyed by host, one partition per owner), its
 * compacted changelog (partition p holds the frontier state of URL partition p), the compacted
 * status topic (one record per node) and the compacted settings topic (the crawl's fixed flags).
 */
record Topics(String crawlId) {
  String urls() {
    return "krill-" + crawlId + "-urls";
  }

  String state() {
    return "krill-" + crawlId + "-state";
  }

  String status() {
    return "krill-" + crawlId + "-status";
  }

  String settings() {
    return "krill-" + crawlId + "-settings";
  }

  String group() {
    return "krill-" + crawlId;
  }
}
