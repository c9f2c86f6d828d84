# Sourced by run-firing-bench.sh and run-script-cost.sh: builds job-guard and this module from this checkout (unless
# SKIP_BUILD=1) and sets $cp to the module's classes and dependencies. Needs $here (this folder) and $root (the checkout).
mkdir -p "$here/target"
if [ "${SKIP_BUILD:-}" != 1 ]; then
  (cd "$root" && mvn -B -q -ntp ${MVN_OPTS:-} -pl examples/benchmarks -am install -DskipTests -Djobguard.skipJavadoc=true >/dev/null)
  (cd "$here" && mvn -B -q -ntp ${MVN_OPTS:-} dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null)
fi
cp="$here/target/classes:$(cat "$here/target/cp.txt")"
