# Sourced by the loadtest/bench scripts: newest_jdk prints the home of the newest JDK under
# /usr/lib/jvm (by the feature version in its release file), or nothing when there is none.
newest_jdk() {
  local best="" best_v=0 d v
  for d in /usr/lib/jvm/*/; do
    [[ -f "$d/release" && -x "$d/bin/java" ]] || continue
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$d/release")
    if [[ -n "$v" && "$v" -gt "$best_v" ]]; then best_v=$v; best=${d%/}; fi
  done
  echo "$best"
}
