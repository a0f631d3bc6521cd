/**
 * krill-netio: not built yet; see the open issue for this module. The folder holds its place in
 * the module map of DESIGN.md.
 */
package io.krill.netio;
