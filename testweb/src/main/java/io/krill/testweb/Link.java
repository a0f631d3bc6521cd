package io.krill.testweb;

/**
 * A link of the model: its target host and path (with query), and how the page writes it.
 * Links are written absolute across hosts and relative inside one, so that a crawler must
 * resolve them.
 */
final class Link {
  enum Form { ABSOLUTE, ROOT_RELATIVE, DOCUMENT_RELATIVE }

  final String host;
  final String pathAndQuery;
  final Form form;
  /** For {@link Form#DOCUMENT_RELATIVE}: the href as written. */
  final String relative;

  private Link(String host, String pathAndQuery, Form form, String relative) {
    this.host = host;
    this.pathAndQuery = pathAndQuery;
    this.form = form;
    this.relative = relative;
  }

  static Link absolute(String host, String pathAndQuery) {
    return new Link(host, pathAndQuery, Form.ABSOLUTE, null);
  }

  static Link rootRelative(String host, String pathAndQuery) {
    return new Link(host, pathAndQuery, Form.ROOT_RELATIVE, null);
  }

  static Link documentRelative(String host, String pathAndQuery, String relative) {
    return new Link(host, pathAndQuery, Form.DOCUMENT_RELATIVE, relative);
  }

  /** @return the href as the page writes it */
  String href(int port) {
    switch (form) {
      case ABSOLUTE:
        return url(port);
      case ROOT_RELATIVE:
        return pathAndQuery;
      default:
        return relative;
    }
  }

  /** @return the absolute URL the link resolves to */
  String url(int port) {
    return SyntheticWeb.origin(host, port) + pathAndQuery;
  }

  @Override
  public String toString() {
    return host + pathAndQuery;
  }
}
