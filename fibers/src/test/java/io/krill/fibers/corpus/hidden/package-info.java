/** Corpus helper types in a second package, for shapes whose merged types are inaccessible. */
package io.krill.fibers.corpus.hidden;
