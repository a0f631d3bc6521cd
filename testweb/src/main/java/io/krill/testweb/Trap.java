package io.krill.testweb;

/**
 * The crawler traps of the synthetic web. Each is linked from the root page of the hosts that
 * have it, is infinite (or loops) as a whole, and answers every single request with a bounded
 * response.
 */
public enum Trap {
  /** {@code /calendar/YYYY/MM.html} links to the previous and next month, forever. */
  CALENDAR,
  /** {@code /shop/} pages whose links carry a session id ({@code ?sid=}) that changes every other hop. */
  SESSION_IDS,
  /** {@code /deep/1/2/3/.../n/} links to {@code n+1/}, forever. */
  DEEP_PATH,
  /** {@code /loop/0} redirects (302) to {@code /loop/1}, ..., and the last back to {@code /loop/0}. */
  REDIRECT_LOOP,
  /** {@code /bomb.html}: a gzip-encoded body that inflates to {@code gzipBombBytes}. */
  GZIP_BOMB
}
